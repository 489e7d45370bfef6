/// MSB-first bit reader over a byte buffer, reading zeros past the end.
///
/// The state is one bit position; each code is read from an 8-byte window loaded at that
/// position, which keeps the per-code work to a load and a shift, with no refill branch. Windows
/// wholly inside the buffer are loaded directly: `unchecked` reads, for stretches the caller has
/// bounded with `hasRoom`. Reading past the end never traps: it yields zero bits and is reported
/// by `overran`, which the decoder checks at row ends, so damage ends in an error, not a crash.
struct BitReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have no base address; any valid pointer works when end is 0.
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 8)!
        end = bytes.count
    }

    /// Whether `bits` more bits can be read with unchecked windows.
    func hasRoom(forBits bits: Int) -> Bool { (position &+ bits) &>> 3 &+ 8 <= end }

    /// The next 57 or more bits at the top of a word (more bits below are unspecified).
    @inline(__always)
    private func window(unchecked: Bool) -> UInt64 {
        let byte = position &>> 3
        let word: UInt64
        if unchecked || byte &+ 8 <= end {
            word = UInt64(bigEndian: UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self))
        } else {
            word = tailWord(from: byte)
        }
        return word &<< UInt64(position & 7)
    }

    /// The bytes from `byte` on, zero beyond the end.
    private func tailWord(from byte: Int) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<8 {
            let b: UInt8 = byte + i < end ? base[byte + i] : 0
            word |= UInt64(b) << UInt64(56 - 8 * i)
        }
        return word
    }

    /// Takes one Golomb–Rice code with parameter `k` (k + unaryLimit ≤ 56): a unary quotient
    /// below `unaryLimit` and k low bits, or, at the limit, an escape and `rawBits` (≤ 32) raw bits.
    ///
    /// A too-long unary part is read as an escape, so garbage stays bounded.
    @inline(__always)
    mutating func readRice(k: Int, unaryLimit: Int, rawBits: Int, unchecked: Bool = false) -> Int {
        let bits = window(unchecked: unchecked)
        // The quotient fits when the top `unaryLimit` bits are not all zero.
        if bits &>> UInt64(64 &- unaryLimit) != 0 {
            let q = bits.leadingZeroBitCount
            let length = q &+ 1 &+ k
            position &+= length
            // The code's last k + 1 bits are the stop bit (2^k) and the remainder.
            let tail = Int(truncatingIfNeeded: bits &>> UInt64(64 &- length))
            return (q &- 1) &<< k &+ tail
        }
        position &+= unaryLimit &+ 1
        let raw = Int(truncatingIfNeeded: window(unchecked: unchecked) &>> UInt64(64 &- rawBits))
        position &+= rawBits
        return raw
    }

    /// Whether more bits were taken than the buffer holds.
    var overran: Bool { position > end * 8 }
}

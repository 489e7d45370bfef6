/// MSB-first bit reader with a 64-bit accumulator, reading zeros past the end.
///
/// Reading past the end never traps: it yields zero bits and is reported by `overran`, which the
/// decoder checks at row ends, so a damaged stream ends in an error rather than a crash.
struct BitReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var position = 0
    private var accumulator: UInt64 = 0
    /// Valid bits at the top of `accumulator`; at most 63.
    private var available = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have no base address; any valid pointer works when end is 0.
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 8)!
        end = bytes.count
    }

    /// Tops the accumulator up to at least 56 bits.
    @inline(__always)
    mutating func refill() {
        if position + 8 <= end {
            let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            accumulator |= word &>> UInt64(available)
            let bytes = (63 - available) >> 3
            position += bytes
            available += bytes << 3
        } else {
            refillNearEnd()
        }
    }

    private mutating func refillNearEnd() {
        while available <= 55 {
            let byte: UInt8 = position < end ? base[position] : 0
            accumulator |= UInt64(byte) << UInt64(56 - available)
            position += 1
            available += 8
        }
    }

    /// Leading zero bits in the buffered bits (64 when the accumulator is all zeros).
    @inline(__always)
    var leadingZeros: Int { accumulator.leadingZeroBitCount }

    /// Drops `n` bits (n ≤ available).
    @inline(__always)
    mutating func skip(_ n: Int) {
        accumulator &<<= UInt64(n)
        available -= n
    }

    /// Takes the next `n` bits, 0 ≤ n ≤ 32 (after a refill, n ≤ available).
    @inline(__always)
    mutating func read(_ n: Int) -> UInt32 {
        let value = UInt32(truncatingIfNeeded: (accumulator >> 1) &>> UInt64(63 - n))
        skip(n)
        return value
    }

    /// Whether more bits were taken than the buffer holds.
    var overran: Bool { position * 8 - available > end * 8 }
}

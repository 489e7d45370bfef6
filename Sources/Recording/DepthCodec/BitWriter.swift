/// MSB-first bit writer with a 64-bit accumulator over a growable unsafe buffer.
///
/// A struct over manual memory so that the per-pixel path is a shift and an OR: callers
/// `reserve` room for a batch of writes (at most 8 bytes each) instead of a check per write.
/// `finish()` hands the bytes over and frees the buffer.
struct BitWriter {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var accumulator: UInt64 = 0
    private var filled = 0

    init(capacity initialCapacity: Int) {
        capacity = max(64, initialCapacity)
        storage = .allocate(capacity: capacity)
    }

    /// Appends the low `n` bits of `value` (n ≤ 32, higher bits of value zero).
    @inline(__always)
    mutating func write(_ value: UInt32, bits n: Int) {
        if filled + n > 64 { flushWord() }
        accumulator |= UInt64(value) &<< UInt64(64 - filled - n)
        filled += n
    }

    /// Appends `n` zero bits (any n ≥ 0).
    @inline(__always)
    mutating func writeZeros(_ n: Int) {
        var left = n
        while left > 32 { write(0, bits: 32); left -= 32 }
        write(0, bits: left)
    }

    /// Makes room for `bytes` more bytes so that the writes before the next call need no checks.
    @inline(__always)
    mutating func reserve(_ bytes: Int) {
        while count + bytes + 16 > capacity { grow() }
    }

    @inline(__always)
    private mutating func flushWord() {
        let word = UInt32(truncatingIfNeeded: accumulator >> 32).bigEndian
        UnsafeMutableRawPointer(storage + count).storeBytes(of: word, as: UInt32.self)
        count += 4
        accumulator <<= 32
        filled -= 32
    }

    private mutating func grow() {
        let bigger = capacity * 2
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: storage, count: count)
        storage.deallocate()
        storage = fresh
        capacity = bigger
    }

    /// The bytes written, the last one padded with zero bits; the writer must not be used again.
    mutating func finish(prefix: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(prefix.count + count + 8)
        out.append(contentsOf: prefix)
        out.append(contentsOf: UnsafeBufferPointer(start: storage, count: count))
        while filled > 0 {
            out.append(UInt8(truncatingIfNeeded: accumulator >> 56))
            accumulator <<= 8
            filled -= 8
        }
        storage.deallocate()
        return out
    }

    /// Frees the buffer without producing output.
    mutating func discard() { storage.deallocate() }

    /// Bytes the stream would have now, rounded up.
    var byteCount: Int { count + (filled + 7) / 8 }
}

/// How a depth value becomes the unsigned integer the predictor works on, and back.
///
/// Keys are the bit patterns remapped so that integer order is numeric order (negatives
/// flipped), which keeps neighbouring depths numerically close across sign and exponent steps.
protocol KeyFormat {
    /// Bits per key; residuals wrap modulo 2^valueBits.
    static var valueBits: Int { get }
    /// Float32 pattern of the value a key stands for.
    static func floatBits(fromKey key: UInt32) -> UInt32
}

extension KeyFormat {
    /// Converts `count` keys to Float32 patterns: a separate loop, which vectorises, rather than
    /// a step of the decoder's serial one.
    @inline(__always)
    static func convert(_ keys: UnsafePointer<UInt32>, to output: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count { output[i] = floatBits(fromKey: keys[i]) }
    }
}

/// Keys over binary16 patterns: the fast path for TrueDepth, whose depth is Float16 at heart.
enum HalfKeys: KeyFormat {
    static var valueBits: Int { 16 }

    /// Order-preserving key of binary16 pattern `h`.
    @inline(__always)
    static func key(half h: UInt16) -> UInt32 {
        let h = UInt32(h)
        return h ^ ((h >> 15) &* 0x7FFF | 0x8000)
    }

    @inline(__always)
    static func floatBits(fromKey key: UInt32) -> UInt32 {
        let k = key & 0xFFFF
        let half = k ^ (((k >> 15) ^ 1) &* 0x7FFF | 0x8000)
        return HalfFloat.floatBits(fromHalf: UInt16(truncatingIfNeeded: half))
    }
}

/// Keys over full Float32 patterns, for depth that is not Float16 underneath.
enum FloatKeys: KeyFormat {
    static var valueBits: Int { 32 }

    /// Order-preserving key of Float32 pattern `f`.
    @inline(__always)
    static func key(float f: UInt32) -> UInt32 {
        f ^ (UInt32(bitPattern: Int32(bitPattern: f) >> 31) | 0x8000_0000)
    }

    @inline(__always)
    static func floatBits(fromKey key: UInt32) -> UInt32 {
        key ^ (UInt32(bitPattern: Int32(bitPattern: ~key) >> 31) | 0x8000_0000)
    }
}

/// What a depth map needs before coding: the mode, the shared NaN pattern and the keys.
struct DepthAnalysis {
    enum Mode: UInt8 { case raw = 0, half = 1, float = 2 }

    private(set) var mode = Mode.half
    /// The one NaN pattern all invalid pixels share (a quiet NaN when there are none).
    private(set) var nanBits: UInt32 = 0x7FC0_0000
    /// Integer key per pixel for the chosen mode (unspecified at NaN pixels).
    let keys: UnsafeMutableBufferPointer<UInt32>

    init(_ pixels: UnsafeBufferPointer<Float>) {
        keys = .allocate(capacity: pixels.count)
        guard let base = pixels.baseAddress else { return }
        let bits = UnsafeRawPointer(base).assumingMemoryBound(to: UInt32.self)
        var nan = NaNTracker()
        if fillHalfKeys(bits, count: pixels.count, nan: &nan) {
            mode = .half
        } else {
            nan = NaNTracker()
            fillFloatKeys(bits, count: pixels.count, nan: &nan)
            mode = .float
        }
        if nan.mixed { mode = .raw }
        if let shared = nan.pattern { nanBits = shared }
    }

    func deallocate() { keys.deallocate() }

    /// Half keys for every valid pixel; false as soon as one value is not exactly a Float16.
    private func fillHalfKeys(_ bits: UnsafePointer<UInt32>, count: Int, nan: inout NaNTracker) -> Bool {
        let keys = self.keys.baseAddress!
        for i in 0..<count {
            let f = bits[i]
            let exponent = (f &>> 23) & 0xFF
            // Normal Float16 range with the 13 low mantissa bits clear: the common case.
            if exponent &- 113 < 30 && f & 0x1FFF == 0 {
                let half = ((f &>> 16) & 0x8000) | (((f & 0x7FFF_FFFF) &>> 13) &- (112 << 10))
                keys[i] = HalfKeys.key(half: UInt16(truncatingIfNeeded: half))
            } else if f & 0x7FFF_FFFF > 0x7F80_0000 {
                nan.note(f)
            } else if let half = HalfFloat.exactHalf(fromFloatBits: f) {
                keys[i] = HalfKeys.key(half: half)
            } else {
                return false
            }
        }
        return true
    }

    private func fillFloatKeys(_ bits: UnsafePointer<UInt32>, count: Int, nan: inout NaNTracker) {
        let keys = self.keys.baseAddress!
        for i in 0..<count {
            let f = bits[i]
            if f & 0x7FFF_FFFF > 0x7F80_0000 { nan.note(f) }
            keys[i] = FloatKeys.key(float: f)
        }
    }
}

/// Whether all NaN pixels share one bit pattern, which is then all the codec needs to store.
private struct NaNTracker {
    private(set) var pattern: UInt32?
    private(set) var mixed = false

    @inline(__always)
    mutating func note(_ bits: UInt32) {
        if let known = pattern {
            if known != bits { mixed = true }
        } else {
            pattern = bits
        }
    }
}

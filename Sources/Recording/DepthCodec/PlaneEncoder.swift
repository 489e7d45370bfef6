/// Codes the validity runs and the predicted keys of one depth map into a bit stream.
///
/// Runs of valid and invalid pixels are interleaved with the residuals at the point where each
/// run starts, so the decoder needs no separate mask pass or buffer.
struct PlaneEncoder<Format: KeyFormat> {
    private let depth: UnsafePointer<Float>
    private let keys: UnsafePointer<UInt32>
    private let width: Int
    private let pixelCount: Int
    private var model = ContextModel()
    private var runs = RunModel()
    private var runLeft = 0
    private var runValid = false
    private var firstRun = true

    init(depth: UnsafePointer<Float>, keys: UnsafePointer<UInt32>, width: Int, height: Int) {
        self.depth = depth
        self.keys = keys
        self.width = width
        pixelCount = width * height
    }

    /// Writes the whole plane.
    mutating func encode(into writer: inout BitWriter) {
        var rows = RowWindow(width: width)
        defer { rows.deallocate(); model.deallocate() }
        rows.prepare(Format.self)
        for rowStart in stride(from: 0, to: pixelCount, by: width) {
            var x = 0
            while x < width {
                while runLeft == 0 { startRun(at: rowStart + x, writer: &writer) }
                let n = min(runLeft, width - x)
                if runValid {
                    encodeSegment(rows, from: x + 2, count: n, keys: keys + rowStart + x, writer: &writer)
                } else {
                    Self.fill(rows, from: x + 2, count: n)
                }
                x += n
                runLeft -= n
            }
            rows.advance(Format.self)
        }
    }

    private mutating func startRun(at position: Int, writer: inout BitWriter) {
        runValid.toggle()
        var end = position
        while end < pixelCount && depth[end].isNaN != runValid { end += 1 }
        let length = end - position
        writer.reserve(16)
        // Only the first run can be empty, so later ones are sent minus one.
        RiceCode.write(length - (firstRun ? 0 : 1), k: runs.riceParameter(runValid), rawBits: 32, to: &writer)
        runs.update(runValid, length: length)
        firstRun = false
        runLeft = length
    }

    @inline(__always)
    private mutating func encodeSegment(
        _ rows: RowWindow, from start: Int, count: Int, keys: UnsafePointer<UInt32>, writer: inout BitWriter
    ) {
        let mask = (1 << Format.valueBits) - 1, shift = 64 - Format.valueBits
        let previous = rows.previous, current = rows.current, contexts = rows.contexts
        var model = self.model
        defer { self.model = model }
        // A code is at most 57 bits, so 8 bytes a pixel bound the segment.
        writer.reserve(count &* 8)
        var out = writer
        defer { writer = out }
        var a = Int(current[start - 1])
        for j in 0..<count {
            let i = start &+ j
            let ctx = Int(contexts[i])
            let predicted = RowWindow.medianEdge(a, Int(previous[i]), Int(previous[i &- 1]))
            let key = Int(keys[j])
            // Residual modulo 2^bits, as a signed number of that width.
            let residual = (((key &- predicted) & mask) &<< shift) &>> shift
            let zigzag = (residual &<< 1) ^ (residual &>> 63)
            RiceCode.write(zigzag, k: model.nextParameter(ctx), rawBits: Format.valueBits, to: &out)
            model.record(ctx, residual: residual)
            current[i] = UInt32(truncatingIfNeeded: key)
            a = key
        }
    }

    /// Invalid pixels take their prediction, which the decoder can reproduce.
    @inline(__always)
    static func fill(_ rows: RowWindow, from start: Int, count: Int) {
        let mask = (1 << Format.valueBits) - 1
        let previous = rows.previous, current = rows.current
        var a = Int(current[start - 1]), b = Int(previous[start]), c = Int(previous[start - 1])
        for i in start..<(start + count) {
            a = RowWindow.medianEdge(a, b, c) & mask
            current[i] = UInt32(truncatingIfNeeded: a)
            c = b; b = Int(previous[i &+ 1])
        }
    }
}

/// Golomb–Rice codes with a bounded unary part and a raw escape.
enum RiceCode {
    @inline(__always)
    static func write(_ value: Int, k: Int, rawBits: Int, to writer: inout BitWriter) {
        let q = value &>> k
        let tail = UInt32(truncatingIfNeeded: (value & ((1 &<< k) &- 1)) | (1 &<< k))
        if q < ContextModel.unaryLimit {
            if q &+ k < 32 {
                writer.write(tail, bits: q &+ k &+ 1)
            } else {
                writer.writeZeros(q)
                writer.write(tail, bits: k + 1)
            }
        } else {
            writer.writeZeros(ContextModel.unaryLimit)
            writer.write(1, bits: 1)
            writer.write(UInt32(truncatingIfNeeded: value), bits: rawBits)
        }
    }

    /// Reads one code written by `write`.
    @inline(__always)
    static func read(k: Int, rawBits: Int, from reader: inout BitReader, unchecked: Bool = false) -> Int {
        reader.readRice(k: k, unaryLimit: ContextModel.unaryLimit, rawBits: rawBits, unchecked: unchecked)
    }
}

/// Reverses `PlaneEncoder`: reads runs and residuals and writes Float32 patterns.
struct PlaneDecoder<Format: KeyFormat> {
    private let output: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let pixelCount: Int
    private let nanBits: UInt32
    private var model = ContextModel()
    private var runs = RunModel()
    private var runLeft = 0
    private var runValid = false
    private var firstRun = true

    init(output: UnsafeMutablePointer<UInt32>, width: Int, height: Int, nanBits: UInt32) {
        self.output = output
        self.width = width
        self.nanBits = nanBits
        pixelCount = width * height
    }

    /// Fills every output pixel, or throws when the stream is inconsistent.
    mutating func decode(from reader: inout BitReader) throws(DepthCodecError) {
        var rows = RowWindow(width: width)
        defer { rows.deallocate(); model.deallocate() }
        rows.prepare(Format.self)
        for rowStart in stride(from: 0, to: pixelCount, by: width) {
            var x = 0
            while x < width {
                while runLeft == 0 { try startRun(at: rowStart + x, reader: &reader) }
                let n = min(runLeft, width - x)
                if runValid {
                    // Codes take at most 8 bytes, so most segments need no end checks.
                    if reader.hasRoom(forBits: n * 64) {
                        decodeSegment(rows, from: x + 2, count: n, reader: &reader, unchecked: true)
                    } else {
                        decodeSegment(rows, from: x + 2, count: n, reader: &reader, unchecked: false)
                    }
                    Format.convert(rows.current + x + 2, to: output + rowStart + x, count: n)
                } else {
                    PlaneEncoder<Format>.fill(rows, from: x + 2, count: n)
                    (output + rowStart + x).update(repeating: nanBits, count: n)
                }
                x += n
                runLeft -= n
            }
            if reader.overran { throw .corrupt("the compressed depth ends before the last pixel") }
            rows.advance(Format.self)
        }
    }

    private mutating func startRun(at position: Int, reader: inout BitReader) throws(DepthCodecError) {
        runValid.toggle()
        let coded = RiceCode.read(k: runs.riceParameter(runValid), rawBits: 32, from: &reader)
        let length = coded + (firstRun ? 0 : 1)
        guard length <= pixelCount - position else {
            throw .corrupt("a run of pixels reaches past the end of the image")
        }
        runs.update(runValid, length: length)
        firstRun = false
        runLeft = length
    }

    @inline(__always)
    private mutating func decodeSegment(
        _ rows: RowWindow, from start: Int, count: Int, reader: inout BitReader, unchecked: Bool
    ) {
        let mask = (1 << Format.valueBits) - 1
        let previous = rows.previous, current = rows.current, contexts = rows.contexts
        var model = self.model
        defer { self.model = model }
        var bits = reader
        defer { reader = bits }
        var a = Int(current[start - 1])
        for j in 0..<count {
            let i = start &+ j
            let ctx = Int(contexts[i])
            let predicted = RowWindow.medianEdge(a, Int(previous[i]), Int(previous[i &- 1]))
            let k = model.nextParameter(ctx)
            // Masked so that damaged input cannot push magnitudes, and so k, past their bounds.
            let zigzag = RiceCode.read(k: k, rawBits: Format.valueBits, from: &bits, unchecked: unchecked) & mask
            let residual = (zigzag &>> 1) ^ (0 &- (zigzag & 1))
            let key = (predicted &+ residual) & mask
            model.record(ctx, residual: residual)
            current[i] = UInt32(truncatingIfNeeded: key)
            a = key
        }
    }
}

/// Reverses `PlaneEncoder`: reads runs and residuals and writes Float32 patterns.
struct PlaneDecoder<Format: KeyFormat> {
    private let output: UnsafeMutablePointer<UInt32>
    private let width: Int
    private let pixelCount: Int
    private let nanBits: UInt32
    private var model = ContextModel(valueBits: Format.valueBits)
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
        rows.prepare()
        for rowStart in stride(from: 0, to: pixelCount, by: width) {
            var x = 0
            while x < width {
                while runLeft == 0 { try startRun(at: rowStart + x, reader: &reader) }
                let n = min(runLeft, width - x)
                if runValid {
                    decodeSegment(rows, from: x + 2, count: n, output: output + rowStart + x, reader: &reader)
                } else {
                    PlaneEncoder<Format>.fill(rows, from: x + 2, count: n)
                    (output + rowStart + x).update(repeating: nanBits, count: n)
                }
                x += n
                runLeft -= n
            }
            if reader.overran { throw .corrupt("the compressed depth ends before the last pixel") }
            rows.advance()
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
    private func decodeSegment(
        _ rows: RowWindow, from start: Int, count: Int, output: UnsafeMutablePointer<UInt32>,
        reader: inout BitReader
    ) {
        let mask = (1 << Format.valueBits) - 1
        let previous = rows.previous, current = rows.current, model = self.model
        var bits = reader
        defer { reader = bits }
        var a = Int(current[start - 1]), b = Int(previous[start]), c = Int(previous[start - 1])
        for j in 0..<count {
            let i = start &+ j
            let d = Int(previous[i &+ 1])
            let ctx = ContextModel.context(activity: RowWindow.activity(a, b, c, d))
            let predicted = RowWindow.medianEdge(a, b, c)
            let zigzag = RiceCode.read(k: model.riceParameter(ctx), rawBits: Format.valueBits, from: &bits)
            let residual = (zigzag &>> 1) ^ (0 &- (zigzag & 1))
            let key = (predicted &+ residual) & mask
            model.update(ctx, residual: residual)
            current[i] = UInt32(truncatingIfNeeded: key)
            output[j] = Format.floatBits(fromKey: UInt32(truncatingIfNeeded: key))
            c = b; b = d; a = key
        }
    }
}

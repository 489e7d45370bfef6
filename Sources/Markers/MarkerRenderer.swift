import Imaging

/// Draws markers and sheets of markers as gray images (black 0, white 255).
///
/// A single marker is pixel-identical to OpenCV's `generateImageMarker` with one border bit:
/// the (n+2) x (n+2) cells are scaled to the requested side by nearest-neighbour sampling.
public struct MarkerRenderer: Sendable {
    /// The dictionary drawn from.
    public var dictionary: MarkerDictionary

    /// A renderer for `dictionary`.
    public init(dictionary: MarkerDictionary) {
        self.dictionary = dictionary
    }

    /// Marker `id`, `side` pixels square, surrounded by `quietZone` white pixels on each side.
    /// Its outer corners lie at (q - 0.5, q - 0.5) and (q + side - 0.5, q + side - 0.5) for
    /// quiet zone q, in OpenCV's pixel convention.
    public func marker(id: Int, side: Int, quietZone: Int = 0) throws(MarkerError) -> GrayImage {
        guard side > 0 else { throw .invalidSize("a marker needs a side of at least 1 pixel, not \(side)") }
        guard quietZone >= 0 else { throw .invalidSize("the quiet zone cannot be negative (\(quietZone))") }
        var image = GrayImage(width: side + 2 * quietZone, height: side + 2 * quietZone, repeating: 255)
        try draw(id: id, side: side, at: (quietZone, quietZone), into: &image)
        return image
    }

    /// Draws marker `id` with its top-left pixel at `origin`; parts outside `image` are cut.
    public func draw(id: Int, side: Int, at origin: (x: Int, y: Int), into image: inout GrayImage) throws(MarkerError) {
        guard side > 0 else { throw .invalidSize("a marker needs a side of at least 1 pixel, not \(side)") }
        let code = try dictionary.code(id: id)
        let n = dictionary.markerSize
        let cells = n + 2
        for y in 0..<side {
            let row = y * cells / side
            let imageY = origin.y + y
            guard imageY >= 0, imageY < image.height else { continue }
            for x in 0..<side {
                let column = x * cells / side
                let imageX = origin.x + x
                guard imageX >= 0, imageX < image.width else { continue }
                let inner = row > 0 && column > 0 && row <= n && column <= n
                let white = inner && dictionary.bit(code, row: row - 1, column: column - 1)
                image[imageX, imageY] = white ? 255 : 0
            }
        }
    }

    /// A printable sheet: markers `ids` in rows, `markerSide` pixels each, `gap` white pixels
    /// between them and `margin` around, `columns` per row (as many as fit `maxWidth` when nil).
    public func sheet(
        ids: [Int], markerSide: Int, gap: Int, margin: Int, columns: Int? = nil, maxWidth: Int? = nil
    ) throws(MarkerError) -> GrayImage {
        guard !ids.isEmpty else { throw .invalidSize("a sheet needs at least one marker") }
        guard markerSide > 0, gap >= 0, margin >= 0 else {
            throw .invalidSize("marker side must be positive and gap and margin not negative")
        }
        let pitch = markerSide + gap
        let fitting = maxWidth.map { max(1, ($0 - 2 * margin + gap) / pitch) } ?? ids.count
        let perRow = max(1, min(columns ?? fitting, ids.count))
        let rows = (ids.count + perRow - 1) / perRow
        var image = GrayImage(
            width: 2 * margin + perRow * pitch - gap,
            height: 2 * margin + rows * pitch - gap, repeating: 255)
        for (index, id) in ids.enumerated() {
            let origin = (margin + (index % perRow) * pitch, margin + (index / perRow) * pitch)
            try draw(id: id, side: markerSide, at: origin, into: &image)
        }
        return image
    }
}

import Geometry
import Markers

/// A flat printed board of markers in rows and columns, as one prints to check a camera: the
/// board frame has x to the right, y up and z out of the printed side, its origin at the
/// board's centre.
public struct MarkerBoard: Sendable, Equatable {
    /// Rows and columns of markers.
    public var rows: Int
    public var columns: Int
    /// Printed side of each marker's black square, metres.
    public var markerSide: Double
    /// White space between neighbouring markers, metres.
    public var gap: Double
    /// The markers' dictionary, as `MarkerDictionary.named` accepts it.
    public var dictionaryName: String
    /// The first marker's ID; the others follow row by row from the top left.
    public var firstID: Int

    /// A board; `validate()` checks it.
    public init(rows: Int, columns: Int, markerSide: Double, gap: Double, dictionaryName: String, firstID: Int = 0) {
        self.rows = rows
        self.columns = columns
        self.markerSide = markerSide
        self.gap = gap
        self.dictionaryName = dictionaryName
        self.firstID = firstID
    }

    /// Twelve AprilTag 36h11 tags of 95.5 mm in three rows of four, a common board for RGB-D
    /// sequences seen from a metre.
    public static let aprilGrid3x4 = MarkerBoard(rows: 3, columns: 4, markerSide: 0.0955, gap: 0.0287, dictionaryName: "apriltag_36h11")

    /// Refuses boards that cannot be printed or whose IDs the dictionary lacks.
    public func validate() throws(SimulationError) {
        guard rows >= 1, columns >= 1, rows * columns <= 1000 else { throw .invalidBoard("a board needs 1 to 1000 markers") }
        guard markerSide > 0.002, markerSide < 1, gap >= 0, gap < 1 else {
            throw .invalidBoard("marker side must be 2 mm to 1 m and the gap 0 to 1 m")
        }
        let dictionary: MarkerDictionary
        do { dictionary = try MarkerDictionary.named(dictionaryName) } catch { throw .invalidBoard("\(error)") }
        guard firstID >= 0, firstID + rows * columns <= dictionary.count else {
            throw .invalidBoard("\(dictionaryName) has \(dictionary.count) markers; IDs \(firstID)..<\(firstID + rows * columns) do not fit")
        }
    }

    /// Width and height of the printed area (markers and the gaps between them), metres.
    public var size: SIMD2<Double> {
        SIMD2(Double(columns) * markerSide + Double(columns - 1) * gap, Double(rows) * markerSide + Double(rows - 1) * gap)
    }

    /// The markers, row by row from the top left, printed flat on the board (z = 0).
    public var stickers: [MarkerSticker] {
        let pitch = markerSide + gap
        let origin = SIMD2(-size.x / 2 + markerSide / 2, size.y / 2 - markerSide / 2)
        var out: [MarkerSticker] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let c = origin + SIMD2(Double(column) * pitch, -Double(row) * pitch)
                out.append(
                    MarkerSticker(
                        id: firstID + row * columns + column, region: .front, centre: SIMD3(c.x, c.y, 0), normal: SIMD3(0, 0, 1),
                        right: SIMD3(1, 0, 0), up: SIMD3(0, 1, 0), side: markerSide))
            }
        }
        return out
    }

    /// The layout the reconstruction reads the board with: its dictionary, IDs, marker side and
    /// where each marker is printed.
    public var layout: CapLayout {
        CapLayout(
            name: "board-\(rows)x\(columns)", dictionaryName: dictionaryName, markerSideMillimetres: markerSide * 1000,
            markers: stickers.map {
                CapMarker(id: $0.id, region: .front, boardPosition: BoardPosition(xMillimetres: $0.centre.x * 1000, yMillimetres: $0.centre.y * 1000))
            })
    }
}

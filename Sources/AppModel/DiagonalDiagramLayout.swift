import Foundation

/// Where the patient screen's sketch of the two diagonals goes: a head seen from above, nose
/// up, so that the patient's right is on the viewer's right (as when standing behind the
/// infant and looking down). Diagonal A runs from front left to back right and B from front
/// right to back left, each 30° from the midline through the head's centre, as the calliper
/// measures them; therapists confused the two, so the sketch names the sides too.
public struct DiagonalDiagramLayout: Sendable {
    public typealias Point = SIMD2<Double>

    /// The head's outline: an ellipse in this rectangle (origin top left, y down).
    public var outlineOrigin: Point
    public var outlineSize: Point
    /// The nose: a small wedge on top of the outline, three points.
    public var nose: [Point]
    /// Each diagonal from its front end to its back end, on the outline.
    public var diagonalA: (front: Point, back: Point)
    public var diagonalB: (front: Point, back: Point)
    /// Where each diagonal's name and each side's name go.
    public var labelA: Point
    public var labelB: Point
    public var leftLabel: Point
    public var rightLabel: Point

    /// The diagonals' angle from the midline, degrees.
    public static let diagonalDegrees = 30.0

    /// The sketch in a canvas of `width` × `height` points.
    public init(width: Double, height: Double) {
        let margin = 10.0
        outlineOrigin = Point(width * 0.3, margin)
        outlineSize = Point(width * 0.4, max(1, height - 2 * margin))
        let centre = outlineOrigin + outlineSize / 2
        let (rx, ry) = (outlineSize.x / 2, outlineSize.y / 2)
        nose = [Point(centre.x - 8, outlineOrigin.y + 2), Point(centre.x, outlineOrigin.y - 8), Point(centre.x + 8, outlineOrigin.y + 2)]
        // The line through the centre at 30° from the midline meets the ellipse at distance t.
        let a = Self.diagonalDegrees * .pi / 180
        let t = 1 / ((sin(a) / rx) * (sin(a) / rx) + (cos(a) / ry) * (cos(a) / ry)).squareRoot()
        let (dx, dy) = (t * sin(a), t * cos(a))
        // Front is up (smaller y); the patient's left is the viewer's left (smaller x).
        diagonalA = (front: Point(centre.x - dx, centre.y - dy), back: Point(centre.x + dx, centre.y + dy))
        diagonalB = (front: Point(centre.x + dx, centre.y - dy), back: Point(centre.x - dx, centre.y + dy))
        // The names beside the outline at their diagonal's front end, clear of the lines.
        labelA = Point(outlineOrigin.x - 48, diagonalA.front.y - 4)
        labelB = Point(outlineOrigin.x + outlineSize.x + 48, diagonalB.front.y - 4)
        leftLabel = Point(outlineOrigin.x - 24, centre.y)
        rightLabel = Point(outlineOrigin.x + outlineSize.x + 24, centre.y)
    }
}

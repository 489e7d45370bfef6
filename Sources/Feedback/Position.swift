/// Where the head sits in the portrait picture the operator imagines, which is also where the
/// phone must move to bring it back to the centre (moving the phone up moves the head down in
/// the picture).
public enum Direction: String, Sendable, Codable, CaseIterable {
    case none, up, down, left, right
    case leftUp = "left-up", leftDown = "left-down", rightUp = "right-up", rightDown = "right-down"

    /// A direction from its components: `horizontal` −1 left, +1 right; `vertical` −1 down, +1 up.
    public init(horizontal: Int, vertical: Int) {
        switch (horizontal.signum(), vertical.signum()) {
        case (0, 1): self = .up
        case (0, -1): self = .down
        case (-1, 0): self = .left
        case (1, 0): self = .right
        case (-1, 1): self = .leftUp
        case (-1, -1): self = .leftDown
        case (1, 1): self = .rightUp
        case (1, -1): self = .rightDown
        default: self = .none
        }
    }

    /// The direction for a head that lies toward `sideX` and `sideY` (each −1, 0 or +1) of the
    /// raw landscape sensor image. The sensor's +x points to the phone's top (up when held in
    /// portrait, camera at the top) and its +y to the operator's right.
    public init(imageSideX sideX: Int, imageSideY sideY: Int) {
        self.init(horizontal: sideY, vertical: sideX)
    }

    /// −1 left, 0, +1 right.
    /// The direction pointing the other way (`none` stays `none`).
    public var opposite: Direction { Direction(horizontal: -horizontal, vertical: -vertical) }

    public var horizontal: Int {
        switch self {
        case .left, .leftUp, .leftDown: -1
        case .right, .rightUp, .rightDown: 1
        default: 0
        }
    }

    /// −1 down, 0, +1 up.
    public var vertical: Int {
        switch self {
        case .up, .leftUp, .rightUp: 1
        case .down, .leftDown, .rightDown: -1
        default: 0
        }
    }
}

/// The three position classes.
public enum PositionClass: String, Sendable, Codable, CaseIterable {
    case ideal, tooClose, off
}

/// A position class with its direction (`.none` unless off).
public struct Position: Sendable, Codable, Equatable, CustomStringConvertible {
    public var kind: PositionClass
    public var direction: Direction

    /// A position; the direction only means something when `kind` is `.off`.
    public init(_ kind: PositionClass, _ direction: Direction = .none) {
        self.kind = kind
        self.direction = kind == .off ? direction : .none
    }

    public static let ideal = Position(.ideal)
    public static let tooClose = Position(.tooClose)

    public var description: String { kind == .off ? "off(\(direction.rawValue))" : kind.rawValue }
}

/// Axis-aligned box around marker corners, pixels.
public struct PixelBox: Sendable, Codable, Equatable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// A box.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

/// The numbers behind one frame's raw position, kept so a decision can be explained later.
public struct PositionEvidence: Sendable, Codable, Equatable {
    /// Markers of the cap in the frame.
    public var detected: Int
    /// Of those, seen in an earlier frame.
    public var green: Int
    /// Of those, with at least one corner without depth.
    public var invalidDepth: Int
    /// `invalidDepth / detected` (0 without markers).
    public var invalidRatio: Double
    /// True while the map is too small for green markers and overlap counts all markers.
    public var bootstrap: Bool
    /// Box around every corner; nil without markers.
    public var box: PixelBox?
    /// The middle band on each axis: x from `bandX[0]` to `bandX[1]`, likewise y.
    public var bandX: [Double]
    public var bandY: [Double]
    /// Without markers: the head as the depth and the tracking showed it (the box is its box).
    public var head: HeadView? = nil
}

/// The raw position class of one frame.
public enum PositionClassifier {
    /// Classifies a frame: sufficient overlap is ideal; otherwise more than
    /// `invalidDepthRatio` of the markers without depth is too close; otherwise off, toward
    /// the side of the middle band that the corners' box lies wholly on.
    public static func classify(
        _ markers: [ObservedMarker], green: Int, bootstrap: Bool, width: Int, height: Int, settings: FeedbackSettings
    ) -> (Position, PositionEvidence) {
        var invalid = 0
        var box: PixelBox?
        if let first = markers.first?.corners[0] {
            var b = PixelBox(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
            for marker in markers {
                if marker.hasInvalidDepth { invalid += 1 }
                for c in marker.corners {
                    b.minX = min(b.minX, c.x)
                    b.maxX = max(b.maxX, c.x)
                    b.minY = min(b.minY, c.y)
                    b.maxY = max(b.maxY, c.y)
                }
            }
            box = b
        }
        let w = Double(width), h = Double(height)
        let bandX = [w / 2 - settings.centerBand * w, w / 2 + settings.centerBand * w]
        let bandY = [h / 2 - settings.centerBand * h, h / 2 + settings.centerBand * h]
        let ratio = markers.isEmpty ? 0 : Double(invalid) / Double(markers.count)
        let evidence = PositionEvidence(
            detected: markers.count, green: green, invalidDepth: invalid, invalidRatio: ratio, bootstrap: bootstrap,
            box: box, bandX: bandX, bandY: bandY)
        let shared = bootstrap ? markers.count : green
        if shared >= settings.minSharedMarkers { return (.ideal, evidence) }
        if ratio > settings.invalidDepthRatio { return (.tooClose, evidence) }
        guard let box else { return (Position(.off, .none), evidence) }
        // A box touching or crossing the band is centred on that axis.
        let sideX = box.maxX < bandX[0] ? -1 : box.minX > bandX[1] ? 1 : 0
        let sideY = box.maxY < bandY[0] ? -1 : box.minY > bandY[1] ? 1 : 0
        return (Position(.off, Direction(imageSideX: sideX, imageSideY: sideY)), evidence)
    }
}

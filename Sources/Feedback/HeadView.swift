/// What the guide without markers learns from one frame: where the head lies in the picture
/// (from its depth) and, when the frame was placed on the surface scanned so far, where the
/// camera looks from.
public struct HeadView: Sendable, Equatable {
    /// The head's box in the picture, pixels; nil when no head-sized surface was found.
    public var box: PixelBox?
    /// From the camera to the head's nearest surface, metres; nil without a head.
    public var distance: Double?
    /// Share of the middle of the picture (the middle third each way) without depth.
    public var missingDepth: Double
    /// Whether the frame was placed on the surface scanned so far; false when it was not (the
    /// camera moved too fast, or to a part never seen), nil before the first view of the head.
    public var placed: Bool?
    /// Where the camera was, from the head's centre, in the head's frame (x toward the right
    /// ear, y toward the face, z toward the crown), metres; nil when the frame was not placed.
    public var camera: SIMD3<Double>?

    /// A view.
    public init(box: PixelBox?, distance: Double?, missingDepth: Double, placed: Bool?, camera: SIMD3<Double>?) {
        self.box = box
        self.distance = distance
        self.missingDepth = missingDepth
        self.placed = placed
        self.camera = camera
    }
}

extension HeadView: Codable {
    private enum CodingKeys: String, CodingKey { case box, distance, missingDepth, placed, camera }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let missing = try c.decode(Double.self, forKey: .missingDepth)
        guard missing.isFinite, (0...1).contains(missing) else {
            throw DecodingError.dataCorruptedError(forKey: .missingDepth, in: c, debugDescription: "missingDepth must lie in 0...1")
        }
        let distance = try c.decodeIfPresent(Double.self, forKey: .distance)
        guard distance.map({ $0.isFinite && $0 >= 0 }) ?? true else {
            throw DecodingError.dataCorruptedError(forKey: .distance, in: c, debugDescription: "distance must be a finite number of metres")
        }
        let camera = try c.decodeIfPresent([Double].self, forKey: .camera)
        guard camera.map({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) ?? true else {
            throw DecodingError.dataCorruptedError(forKey: .camera, in: c, debugDescription: "camera needs three finite coordinates [x, y, z]")
        }
        let box = try c.decodeIfPresent(PixelBox.self, forKey: .box)
        guard box.map({ [$0.minX, $0.minY, $0.maxX, $0.maxY].allSatisfy(\.isFinite) && $0.minX <= $0.maxX && $0.minY <= $0.maxY }) ?? true else {
            throw DecodingError.dataCorruptedError(forKey: .box, in: c, debugDescription: "box needs finite minX ≤ maxX and minY ≤ maxY")
        }
        self.init(
            box: box, distance: distance, missingDepth: missing, placed: try c.decodeIfPresent(Bool.self, forKey: .placed),
            camera: camera.map { SIMD3($0[0], $0[1], $0[2]) })
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(box, forKey: .box)
        try c.encodeIfPresent(distance, forKey: .distance)
        try c.encode(missingDepth, forKey: .missingDepth)
        try c.encodeIfPresent(placed, forKey: .placed)
        try c.encodeIfPresent(camera.map { [$0.x, $0.y, $0.z] }, forKey: .camera)
    }
}

/// The raw position class of one frame without markers.
public enum HeadViewClassifier {
    /// Classifies a frame from the head in its depth: too close when more than
    /// `invalidDepthRatio` of the picture's middle lacks depth and the head's nearest surface
    /// is nearer than `tooCloseDistance`, or was within the last `directionMemory` seconds
    /// (`recentDistance`: up close the sensor loses the head altogether); off, toward the side
    /// of the middle band its box lies wholly on, or with no direction when there is no head or
    /// the frame could not be placed on the surface scanned so far; otherwise ideal.
    public static func classify(
        _ view: HeadView?, recentDistance: Double?, width: Int, height: Int, settings: FeedbackSettings
    ) -> (Position, PositionEvidence) {
        let w = Double(width), h = Double(height)
        let bandX = [w / 2 - settings.centerBand * w, w / 2 + settings.centerBand * w]
        let bandY = [h / 2 - settings.centerBand * h, h / 2 + settings.centerBand * h]
        let missing = view?.missingDepth ?? 0
        let evidence = PositionEvidence(
            detected: 0, green: 0, invalidDepth: 0, invalidRatio: missing, bootstrap: false, box: view?.box, bandX: bandX, bandY: bandY,
            head: view)
        guard let view else { return (Position(.off, .none), evidence) }
        let near = (view.distance ?? recentDistance ?? .infinity) < settings.tooCloseDistance
        if missing > settings.invalidDepthRatio, near { return (.tooClose, evidence) }
        guard let box = view.box else { return (Position(.off, .none), evidence) }
        let sideX = box.maxX < bandX[0] ? -1 : box.minX > bandX[1] ? 1 : 0
        let sideY = box.maxY < bandY[0] ? -1 : box.minY > bandY[1] ? 1 : 0
        if sideX != 0 || sideY != 0 { return (Position(.off, Direction(imageSideX: sideX, imageSideY: sideY)), evidence) }
        if view.placed == false { return (Position(.off, .none), evidence) }
        return (.ideal, evidence)
    }
}

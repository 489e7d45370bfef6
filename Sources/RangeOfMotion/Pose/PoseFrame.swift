/// One detected body keypoint: where it is in the image and how sure the pose model is.
public struct Keypoint: Sendable, Equatable, Codable {
    /// Pixel position, x right and y down, pixel centres at integers.
    public var position: SIMD2<Double>
    /// The pose model's confidence, 0...1.
    public var confidence: Double

    public init(_ position: SIMD2<Double>, confidence: Double) {
        self.position = position
        self.confidence = confidence
    }

    public init(x: Double, y: Double, confidence: Double) {
        self.init(SIMD2(x, y), confidence: confidence)
    }

    /// Pose files write a keypoint as `[x, y, confidence]`.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let x = try c.decode(Double.self), y = try c.decode(Double.self), confidence = try c.decode(Double.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a keypoint is [x, y, confidence]: three numbers")
        }
        self.init(x: x, y: y, confidence: confidence)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(position.x)
        try c.encode(position.y)
        try c.encode(confidence)
    }
}

/// The pose found in one sampled video frame.
public struct PoseFrame: Sendable, Equatable, Codable {
    /// Seconds from the start of the video.
    public var time: Double
    /// The keypoints the model found; a missing one was not detected.
    public var keypoints: [CocoKeypoint: Keypoint]

    public init(time: Double, keypoints: [CocoKeypoint: Keypoint]) {
        self.time = time
        self.keypoints = keypoints
    }

    public subscript(_ keypoint: CocoKeypoint) -> Keypoint? { keypoints[keypoint] }

    private enum CodingKeys: String, CodingKey { case time = "t", keypoints }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Double.self, forKey: .time)
        // Keyed by COCO's names; a name outside the layout is a mistake worth reporting.
        let named = try c.decode([String: Keypoint].self, forKey: .keypoints)
        var keypoints: [CocoKeypoint: Keypoint] = [:]
        for (name, point) in named {
            guard let keypoint = CocoKeypoint(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .keypoints, in: c,
                    debugDescription:
                        "unknown keypoint \"\(name)\"; COCO's names are \(CocoKeypoint.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            keypoints[keypoint] = point
        }
        self.keypoints = keypoints
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(Dictionary(uniqueKeysWithValues: keypoints.map { ($0.key.rawValue, $0.value) }), forKey: .keypoints)
    }
}

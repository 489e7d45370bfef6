import Imaging
import Markers

/// One detected marker as the guide sees it: its ID, its corners and the depth at each.
public struct ObservedMarker: Sendable, Equatable {
    /// Marker ID in the cap's dictionary.
    public var id: Int
    /// Four corners in pixels, OpenCV order (top-left, top-right, bottom-right, bottom-left as
    /// printed) and pixel convention.
    public var corners: [SIMD2<Double>]
    /// Depth at each corner in metres; NaN where the sensor returned none.
    public var depths: [Float]

    /// A marker; `corners` and `depths` hold four values each.
    public init(id: Int, corners: [SIMD2<Double>], depths: [Float]) {
        precondition(corners.count == 4 && depths.count == 4, "a marker has four corners and four depths")
        self.id = id
        self.corners = corners
        self.depths = depths
    }

    /// True when some corner has no usable depth (the sensor's sign of being too close).
    @inlinable public var hasInvalidDepth: Bool {
        !(depths[0] > 0 && depths[1] > 0 && depths[2] > 0 && depths[3] > 0)
    }
}

/// Everything the guide needs from one frame.
public struct FrameObservation: Sendable, Equatable {
    /// Seconds since the scan started.
    public var timestamp: Double
    /// Image size in pixels (the landscape sensor image).
    public var width: Int
    public var height: Int
    /// The detected markers.
    public var markers: [ObservedMarker]
    /// The head as its depth and the tracking without markers show it; nil when the frame was
    /// looked at for markers only.
    public var head: HeadView?

    /// An observation.
    public init(timestamp: Double, width: Int, height: Int, markers: [ObservedMarker], head: HeadView? = nil) {
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.markers = markers
        self.head = head
    }

    /// Detections in a `width`x`height` colour image with depth looked up at each corner in
    /// `depth`, which may have another size (it is scaled to the colour image's frame).
    public init(timestamp: Double, width: Int, height: Int, detected: [DetectedMarker], depth: DepthImage) {
        let sx = Double(depth.width) / Double(width)
        let sy = Double(depth.height) / Double(height)
        let markers = detected.map { marker in
            ObservedMarker(
                id: marker.id, corners: marker.corners,
                depths: marker.corners.map { corner in
                    // Pixel centres sit at integers in both images, so scale about the half-pixel edge.
                    let x = Int(((corner.x + 0.5) * sx - 0.5).rounded())
                    let y = Int(((corner.y + 0.5) * sy - 0.5).rounded())
                    return depth.contains(x: x, y: y) ? depth[x, y] : .nan
                })
        }
        self.init(timestamp: timestamp, width: width, height: height, markers: markers)
    }
}

extension ObservedMarker: Codable {
    private enum CodingKeys: String, CodingKey { case id, corners, depths }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(Int.self, forKey: .id)
        let corners = try c.decode([[Double]].self, forKey: .corners)
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 && $0[0].isFinite && $0[1].isFinite }) else {
            throw DecodingError.dataCorruptedError(forKey: .corners, in: c, debugDescription: "marker \(id) needs four [x, y] corners")
        }
        // Depth is optional: without it every corner counts as valid, as a recording made
        // without a depth stream cannot tell "too close".
        let depths = try c.decodeIfPresent([Double?].self, forKey: .depths) ?? [1, 1, 1, 1]
        guard depths.count == 4 else {
            throw DecodingError.dataCorruptedError(forKey: .depths, in: c, debugDescription: "marker \(id) needs four depths (null = invalid)")
        }
        self.init(id: id, corners: corners.map { SIMD2($0[0], $0[1]) }, depths: depths.map { $0.map(Float.init) ?? .nan })
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(corners.map { [$0.x, $0.y] }, forKey: .corners)
        try c.encode(depths.map { $0.isFinite && $0 > 0 ? Double($0) : nil }, forKey: .depths)
    }
}

extension FrameObservation: Codable {
    private enum CodingKeys: String, CodingKey {
        case timestamp = "t", width, height, markers, head
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let width = try c.decode(Int.self, forKey: .width)
        let height = try c.decode(Int.self, forKey: .height)
        guard width > 0, height > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .width, in: c, debugDescription: "image size must be positive")
        }
        self.init(
            timestamp: try c.decode(Double.self, forKey: .timestamp), width: width, height: height,
            markers: try c.decodeIfPresent([ObservedMarker].self, forKey: .markers) ?? [],
            head: try c.decodeIfPresent(HeadView.self, forKey: .head))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(markers, forKey: .markers)
        try c.encodeIfPresent(head, forKey: .head)
    }
}

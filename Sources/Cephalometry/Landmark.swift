/// The four landmarks a head measurement stands on. Their raw values are the names files and
/// the JSON use ("nasion", "noseTip", "leftTragion", "rightTragion"); as dictionary keys they
/// encode as those names too.
public enum Landmark: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case noseTip, nasion, leftTragion, rightTragion
}

/// One value for each landmark: a point, a detection, a pick count. Its JSON is an object
/// keyed by the landmarks' names, so a fifth landmark needs one case and one stored value.
public struct LandmarkSet<Value> {
    public var nasion: Value
    public var noseTip: Value
    public var leftTragion: Value
    public var rightTragion: Value

    public init(nasion: Value, noseTip: Value, leftTragion: Value, rightTragion: Value) {
        self.nasion = nasion
        self.noseTip = noseTip
        self.leftTragion = leftTragion
        self.rightTragion = rightTragion
    }

    /// Each landmark's value from `value(landmark)`.
    public init(_ value: (Landmark) throws -> Value) rethrows {
        self.init(
            nasion: try value(.nasion), noseTip: try value(.noseTip), leftTragion: try value(.leftTragion),
            rightTragion: try value(.rightTragion))
    }

    public subscript(landmark: Landmark) -> Value {
        get {
            switch landmark {
            case .nasion: nasion
            case .noseTip: noseTip
            case .leftTragion: leftTragion
            case .rightTragion: rightTragion
            }
        }
        set {
            switch landmark {
            case .nasion: nasion = newValue
            case .noseTip: noseTip = newValue
            case .leftTragion: leftTragion = newValue
            case .rightTragion: rightTragion = newValue
            }
        }
    }

    /// The same landmarks with `transform` applied to each value.
    public func map<T>(_ transform: (Landmark, Value) throws -> T) rethrows -> LandmarkSet<T> {
        try LandmarkSet<T> { try transform($0, self[$0]) }
    }
}

extension LandmarkSet: Sendable where Value: Sendable {}
extension LandmarkSet: Equatable where Value: Equatable {}

/// A value a landmark set can keep in its JSON; by default its own Codable form under the
/// landmark's name.
public protocol LandmarkValue: Codable {
    static func decodeLandmark(from container: KeyedDecodingContainer<Landmark.CodingKeys>, _ landmark: Landmark) throws -> Self
    func encodeLandmark(into container: inout KeyedEncodingContainer<Landmark.CodingKeys>, _ landmark: Landmark) throws
}

extension LandmarkValue {
    public static func decodeLandmark(from container: KeyedDecodingContainer<Landmark.CodingKeys>, _ landmark: Landmark) throws -> Self {
        try container.decode(Self.self, forKey: Landmark.CodingKeys(landmark))
    }

    public func encodeLandmark(into container: inout KeyedEncodingContainer<Landmark.CodingKeys>, _ landmark: Landmark) throws {
        try container.encode(self, forKey: Landmark.CodingKeys(landmark))
    }
}

extension LandmarkSet: Codable where Value: LandmarkValue {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Landmark.CodingKeys.self)
        self = try LandmarkSet { try Value.decodeLandmark(from: container, $0) }
    }

    /// Writes the landmarks in the order nasion, nose tip, left and right tragion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Landmark.CodingKeys.self)
        for landmark in [Landmark.nasion, .noseTip, .leftTragion, .rightTragion] {
            try self[landmark].encodeLandmark(into: &container, landmark)
        }
    }
}

extension Landmark {
    /// A landmark's name as a JSON key.
    public struct CodingKeys: CodingKey {
        public var stringValue: String
        public var intValue: Int? { nil }
        public init(_ landmark: Landmark) { stringValue = landmark.rawValue }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { nil }
    }
}

/// Where a measurement's landmarks came from.
public enum LandmarkSource: String, Sendable, Codable, CaseIterable {
    /// Every landmark picked on the frames and lifted through their depth.
    case picks
    /// Every landmark given as a point in 3D.
    case points
    /// Every landmark found on the head without picks.
    case automatic
    /// Some picked, the rest found on the head.
    case picksAndAutomatic = "picks+automatic"
}

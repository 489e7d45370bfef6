import Cephalometry
import Foundation

/// One pick of a landmark: a pixel of a recorded frame's colour image, or a point in space.
///
/// In the replay the operator places a dot on a paused frame; processing lifts it into the
/// head mesh's frame through that frame's depth and camera pose. A tool that knows the point
/// directly (a mesh viewer, a simulation) gives it in metres. JSON: `{"frameIndex": 12,
/// "pixel": [318.4, 201.9]}` (frames from 0, pixel centres at integers) or `{"point": [x, y, z]}`.
public enum LandmarkPick: Sendable, Equatable, Hashable {
    case pixel(frameIndex: Int, pixel: SIMD2<Double>)
    case point(SIMD3<Double>)

    /// The frame picked on, nil for a point.
    public var frameIndex: Int? {
        if case .pixel(let index, _) = self { return index }
        return nil
    }

    /// Whether every number is usable.
    var isValid: Bool {
        switch self {
        case .pixel(let index, let pixel): index >= 0 && pixel.x.isFinite && pixel.y.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite && p.z.isFinite
        }
    }
}

extension LandmarkPick: Codable {
    private enum CodingKeys: String, CodingKey { case frameIndex, pixel, point }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Version 1 stored the lifted point beside the dot; the point is what was measured.
        if let point = try c.decodeIfPresent(SIMD3<Double>.self, forKey: .point) {
            self = .point(point)
        } else if let index = try c.decodeIfPresent(Int.self, forKey: .frameIndex),
            let pixel = try c.decodeIfPresent(SIMD2<Double>.self, forKey: .pixel)
        {
            self = .pixel(frameIndex: index, pixel: pixel)
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a pick needs \"frameIndex\" and \"pixel\" [x, y], or \"point\" [x, y, z] in metres"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .pixel(let index, let pixel):
            try c.encode(index, forKey: .frameIndex)
            try c.encode(pixel, forKey: .pixel)
        case .point(let p): try c.encode(p, forKey: .point)
        }
    }
}

/// `annotations.json`: nose tip, nasion and both tragions, each picked in one or more frames
/// (or given in 3D). Version 1 held one pick per landmark and still reads.
public struct AnnotationsRecord: LibraryDocument {
    public static let fileName = "annotations.json"
    public static let currentVersion = 2
    public static let fieldNames: Set<String> = ["landmarks", "savedAt"]

    /// The picks of each landmark, in the order they were made.
    public var landmarks: [Landmark: [LandmarkPick]]
    /// When the annotations were last saved.
    public var savedAt: Date?

    /// Annotations from their picks.
    public init(landmarks: [Landmark: [LandmarkPick]] = [:], savedAt: Date? = nil) {
        self.landmarks = landmarks.filter { !$0.value.isEmpty }
        self.savedAt = savedAt
    }

    /// Annotations holding all four points of `head` (metres, the mesh's frame).
    public init(_ head: HeadLandmarks, savedAt: Date? = nil) {
        self.init(
            landmarks: [
                .noseTip: [.point(head.noseTip)], .nasion: [.point(head.nasion)],
                .leftTragion: [.point(head.leftTragion)], .rightTragion: [.point(head.rightTragion)],
            ], savedAt: savedAt)
    }

    /// Whether the landmark has at least one pick.
    public func isPlaced(_ landmark: Landmark) -> Bool { !(landmarks[landmark] ?? []).isEmpty }

    /// Whether all four landmarks are picked ("all set" rather than "to do").
    public var isComplete: Bool { Landmark.allCases.allSatisfy(isPlaced) }

    /// The landmarks without a pick.
    public var missing: [Landmark] { Landmark.allCases.filter { !isPlaced($0) } }

    /// Whether any pick is on a frame, so measuring needs the scan's frames and poses.
    public var needsLifting: Bool { landmarks.values.joined().contains { $0.frameIndex != nil } }

    /// The four points, when every pick is a point already (the mean where there are several).
    public var headLandmarks: HeadLandmarks? {
        func point(_ landmark: Landmark) -> SIMD3<Double>? {
            let points = (landmarks[landmark] ?? []).compactMap { pick -> SIMD3<Double>? in
                if case .point(let p) = pick { return p }
                return nil
            }
            guard !points.isEmpty, points.count == landmarks[landmark]?.count else { return nil }
            return points.reduce(.zero, +) / Double(points.count)
        }
        guard let n = point(.nasion), let t = point(.noseTip), let l = point(.leftTragion), let r = point(.rightTragion) else { return nil }
        return HeadLandmarks(nasion: n, noseTip: t, leftTragion: l, rightTragion: r)
    }

    /// Sets the pick of `landmark` on `frameIndex` (replacing one on the same frame), so a
    /// landmark can be picked once in each of several frames.
    public mutating func pick(_ landmark: Landmark, frameIndex: Int, pixel: SIMD2<Double>) {
        var picks = landmarks[landmark] ?? []
        picks.removeAll { $0.frameIndex == frameIndex }
        picks.append(.pixel(frameIndex: frameIndex, pixel: pixel))
        landmarks[landmark] = picks
    }

    private enum CodingKeys: String, CodingKey { case landmarks, savedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try c.decodeIfPresent([String: PicksOrOne].self, forKey: .landmarks) ?? [:]
        var landmarks: [Landmark: [LandmarkPick]] = [:]
        for (key, value) in raw {
            guard let landmark = Landmark(rawValue: key) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .landmarks, in: c,
                    debugDescription: "unknown landmark \"\(key)\"; known: \(Landmark.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            landmarks[landmark] = value.picks
        }
        self.init(landmarks: landmarks, savedAt: try c.decodeIfPresent(Date.self, forKey: .savedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Dictionary(uniqueKeysWithValues: landmarks.map { ($0.key.rawValue, $0.value) }), forKey: .landmarks)
        try c.encodeIfPresent(savedAt, forKey: .savedAt)
    }

    public func validate() throws(ScanLibraryError) {
        for (landmark, picks) in landmarks where !picks.allSatisfy(\.isValid) {
            throw .invalidDocument(
                file: Self.fileName,
                reason: "\(landmark.rawValue) needs finite values: a frame index from 0 with a pixel [x, y], or a point [x, y, z]")
        }
    }
}

/// A landmark's value on disk: a list of picks (version 2) or the single pick of version 1.
private struct PicksOrOne: Decodable {
    var picks: [LandmarkPick]

    init(from decoder: any Decoder) throws {
        if let list = try? [LandmarkPick](from: decoder) {
            picks = list
        } else {
            picks = [try LandmarkPick(from: decoder)]
        }
    }
}

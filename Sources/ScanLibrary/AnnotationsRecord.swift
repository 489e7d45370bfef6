import Cephalometry
import Foundation

/// One of the four landmarks annotated in a replay.
public enum Landmark: String, Sendable, Codable, CaseIterable {
    case noseTip, nasion, leftTragion, rightTragion
}

/// Where a landmark was placed: a pixel of a recorded frame's colour image, its point in
/// space, or both.
///
/// In the replay the operator places a dot on a paused frame (`frameIndex`, `pixel`);
/// `HeadLandmarks.lift` turns that into a point once the frame's pose is known. A tool that
/// knows the points directly (a simulation, a mesh viewer) stores `point` alone.
public struct LandmarkAnnotation: Sendable, Codable, Equatable {
    /// Index of the frame the dot was placed on.
    public var frameIndex: Int?
    /// The dot in that frame's colour image, pixels (x right, y down).
    public var pixel: SIMD2<Double>?
    /// The landmark in the reconstruction's frame, metres.
    public var point: SIMD3<Double>?

    /// A dot on a frame.
    public init(frameIndex: Int, pixel: SIMD2<Double>) {
        self.frameIndex = frameIndex
        self.pixel = pixel
    }

    /// A point in the reconstruction's frame (metres), with the dot it came from if any.
    public init(point: SIMD3<Double>, frameIndex: Int? = nil, pixel: SIMD2<Double>? = nil) {
        self.point = point
        self.frameIndex = frameIndex
        self.pixel = pixel
    }

    /// Whether the annotation says where the landmark is.
    public var isPlaced: Bool { point != nil || (frameIndex != nil && pixel != nil) }
}

/// `annotations.json`: nose tip, nasion and both tragions as annotated in the replay.
public struct AnnotationsRecord: LibraryDocument {
    public static let fileName = "annotations.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = ["landmarks", "savedAt"]

    /// The placed landmarks.
    public var landmarks: [Landmark: LandmarkAnnotation]
    /// When the annotations were last saved.
    public var savedAt: Date?

    /// Annotations from their placed landmarks.
    public init(landmarks: [Landmark: LandmarkAnnotation] = [:], savedAt: Date? = nil) {
        self.landmarks = landmarks
        self.savedAt = savedAt
    }

    /// Annotations holding all four points of `head` (metres, the mesh's frame).
    public init(_ head: HeadLandmarks, savedAt: Date? = nil) {
        self.init(
            landmarks: [
                .noseTip: LandmarkAnnotation(point: head.noseTip), .nasion: LandmarkAnnotation(point: head.nasion),
                .leftTragion: LandmarkAnnotation(point: head.leftTragion),
                .rightTragion: LandmarkAnnotation(point: head.rightTragion),
            ], savedAt: savedAt)
    }

    /// Whether all four landmarks are placed ("all set" rather than "to do").
    public var isComplete: Bool { Landmark.allCases.allSatisfy { landmarks[$0]?.isPlaced == true } }

    /// The four points for a measurement, when every landmark has one.
    public var headLandmarks: HeadLandmarks? {
        guard let n = landmarks[.nasion]?.point, let t = landmarks[.noseTip]?.point,
            let l = landmarks[.leftTragion]?.point, let r = landmarks[.rightTragion]?.point
        else { return nil }
        return HeadLandmarks(nasion: n, noseTip: t, leftTragion: l, rightTragion: r)
    }

    private enum CodingKeys: String, CodingKey { case landmarks, savedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try c.decodeIfPresent([String: LandmarkAnnotation].self, forKey: .landmarks) ?? [:]
        var landmarks: [Landmark: LandmarkAnnotation] = [:]
        for (key, value) in raw {
            guard let landmark = Landmark(rawValue: key) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .landmarks, in: c,
                    debugDescription: "unknown landmark \"\(key)\"; known: \(Landmark.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            landmarks[landmark] = value
        }
        self.init(landmarks: landmarks, savedAt: try c.decodeIfPresent(Date.self, forKey: .savedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Dictionary(uniqueKeysWithValues: landmarks.map { ($0.key.rawValue, $0.value) }), forKey: .landmarks)
        try c.encodeIfPresent(savedAt, forKey: .savedAt)
    }

    public func validate() throws(ScanLibraryError) {
        for (landmark, a) in landmarks {
            let finite = (a.point.map { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } ?? true)
                && (a.pixel.map { $0.x.isFinite && $0.y.isFinite } ?? true)
            guard finite, a.isPlaced, (a.frameIndex ?? 0) >= 0 else {
                throw .invalidDocument(file: Self.fileName, reason: "\(landmark.rawValue) needs finite values and a point or a frame with a pixel")
            }
        }
    }
}

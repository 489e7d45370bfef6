import Foundation
import Geometry

/// Roughly how a head lies in a mesh, known before its landmarks (from the cap's markers):
/// enough to know where to look for the face and the ears.
public struct HeadOrientation: Sendable, Equatable {
    /// Maps mesh coordinates into a rough head frame: x toward the infant's right, y forward,
    /// z up, origin near the middle of the head.
    public var headFromMesh: RigidTransform
    /// Height of the cap's lower edge in that frame, metres: the face and ears lie below it.
    public var capRim: Double

    public init(headFromMesh: RigidTransform, capRim: Double) {
        self.headFromMesh = headFromMesh
        self.capRim = capRim
    }
}

/// One landmark found on the mesh, with how sure the search is.
public struct DetectedLandmark: Sendable, Codable, Equatable {
    /// Where it is, metres, in the mesh's frame.
    public var point: SIMD3<Double>
    /// Outward direction of the skin there, in the mesh's frame: a camera looking against it
    /// sees the landmark best.
    public var normal: SIMD3<Double>
    /// 0 (a guess) … 1 (a clear feature): how distinct the feature was.
    public var confidence: Double
    /// What the search found, in words.
    public var evidence: String
    /// Frames that show the landmark best (filled in by whoever knows the frames).
    public var bestFrames: [Int] = []

    public init(point: SIMD3<Double>, normal: SIMD3<Double>, confidence: Double, evidence: String, bestFrames: [Int] = []) {
        self.point = point
        self.normal = normal
        self.confidence = confidence
        self.evidence = evidence
        self.bestFrames = bestFrames
    }

    /// Below this confidence the therapist should check the landmark.
    public static let doubtfulConfidence = 0.5
}

/// The four landmarks found on a reconstructed head without picks.
public typealias AutomaticLandmarks = LandmarkSet<DetectedLandmark>

extension DetectedLandmark: LandmarkValue {}

extension LandmarkSet where Value == DetectedLandmark {
    /// The points as landmarks to measure with.
    public var landmarks: HeadLandmarks {
        HeadLandmarks(nasion: nasion.point, noseTip: noseTip.point, leftTragion: leftTragion.point, rightTragion: rightTragion.point)
    }

    /// The landmarks moved into another frame.
    public func transformed(by t: RigidTransform) -> AutomaticLandmarks {
        map { _, found in
            var moved = found
            moved.point = t.apply(found.point)
            moved.normal = t.applyToVector(found.normal)
            return moved
        }
    }
}

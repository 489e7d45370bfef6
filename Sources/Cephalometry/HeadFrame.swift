import Foundation
import Geometry

/// The head's anatomical frame, built from the landmarks so a mesh may come in any pose.
///
/// Origin at the tragion midpoint, z normal to the reference plane through both tragions and
/// the nasion (up), y forward along the mid-sagittal axis, x toward the infant's right.
///
/// The mid-sagittal axis has three cues: the normal to the ear line, and the directions from
/// the tragion midpoint to the nasion and to the nose tip (both on the midline). Any one alone
/// turns by about 0.8° when one landmark moves 2 mm, which turns the ±30° diagonals enough to
/// move CVAI by 0.8 points. The axis is their blend weighted by inverse angular variance
/// (equal, isotropic landmark error), which halves that; on a well annotated head the cues agree.
public struct HeadFrame: Sendable, Equatable {
    /// Maps mesh coordinates into the head frame.
    public let headFromMesh: RigidTransform

    /// Tragions or nasion closer than this (metres) leave the frame undefined.
    static let degenerateDistance = 0.001

    /// The frame of `landmarks`; throws when the points are too close or in line to define it.
    public init(_ landmarks: HeadLandmarks) throws(CephalometryError) {
        let all = [landmarks.nasion, landmarks.noseTip, landmarks.leftTragion, landmarks.rightTragion]
        guard all.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
            throw .unusableLandmarks("a landmark has a non-finite coordinate")
        }
        let ears = landmarks.rightTragion - landmarks.leftTragion
        guard length(ears) > Self.degenerateDistance else {
            throw .unusableLandmarks("the left and right tragion coincide; place one on each ear")
        }
        let origin = (landmarks.leftTragion + landmarks.rightTragion) / 2
        let toNasion = landmarks.nasion - origin
        let up = cross(ears, toNasion)
        guard length(up) > Self.degenerateDistance * length(ears) else {
            throw .unusableLandmarks("the nasion lies on the line through the tragions; place it between the eyes")
        }
        let z = normalized(up)
        let fromEars = cross(z, normalized(ears))
        // Angular variance of each cue (unit landmark error): the ear line's grows with both
        // tragions' errors over their distance; a midline point's direction from the tragion
        // midpoint grows with its own error and half of each tragion's over its distance.
        var sumWeights = dot(ears, ears) / 2
        var sumAngles = 0.0
        for point in [landmarks.nasion, landmarks.noseTip] {
            var v = point - origin
            v -= z * dot(v, z)
            guard length(v) > Self.degenerateDistance else { continue }
            let weight = dot(v, v) / 1.5
            sumAngles += weight * atan2(dot(cross(fromEars, v), z), dot(fromEars, v))
            sumWeights += weight
        }
        let y = Rotation3(axis: z, angle: sumAngles / sumWeights).apply(fromEars)
        let x = cross(y, z)
        let meshFromHead = RigidTransform(rotation: Rotation3(columns: (x, y, z)), translation: origin)
        headFromMesh = meshFromHead.inverse
    }
}

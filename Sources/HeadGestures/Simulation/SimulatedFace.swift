import Foundation
import Geometry

/// Where the head is and how it is turned. Angles in radians, as the person sees them:
/// positive yaw turns to one's own left, positive pitch looks down, positive roll tilts the
/// head toward the right shoulder.
public struct HeadPose: Sendable, Hashable {
    /// Turn to one's own left.
    public var yaw: Double
    /// Look down.
    public var pitch: Double
    /// Tilt.
    public var roll: Double
    /// The point the head turns about, in the camera frame (x right, y down, z forward), metres.
    public var pivot: SIMD3<Double>

    /// A pose from its parts.
    public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0, pivot: SIMD3<Double>) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
        self.pivot = pivot
    }
}

/// The eyes and mouth of a face on a head, relative to the point the head turns about
/// (roughly the middle of the head); the camera looks at the face.
public struct SimulatedFace: Sendable, Hashable {
    /// Distance between the eye centres, metres.
    public var eyeSpacing = 0.063
    /// Eyes above the pivot, metres.
    public var eyeHeight = 0.03
    /// Mouth below the pivot, metres.
    public var mouthDrop = 0.04
    /// Eyes in front of the pivot, metres.
    public var eyeDepth = 0.09
    /// Mouth in front of the pivot, metres.
    public var mouthDepth = 0.092

    /// An average adult face.
    public init() {}

    /// A face of plausible but varied proportions.
    public static func random(using random: inout SplitMix64) -> SimulatedFace {
        var face = SimulatedFace()
        face.eyeSpacing = random.uniform(0.057...0.069)
        face.eyeHeight = random.uniform(0.02...0.04)
        face.mouthDrop = random.uniform(0.03...0.05)
        face.eyeDepth = random.uniform(0.08...0.1)
        face.mouthDepth = face.eyeDepth + random.uniform(-0.005...0.01)
        return face
    }

    /// The person's left eye, right eye and mouth in the camera frame for `pose`.
    public func points(_ pose: HeadPose) -> (leftEye: SIMD3<Double>, rightEye: SIMD3<Double>, mouth: SIMD3<Double>) {
        // Facing the camera, the face lies toward −z and the person's left appears at +x.
        // Turning to one's left swings the face toward +x: a rotation by −yaw about y.
        let rotation =
            Rotation3(axis: SIMD3(0, 1, 0), angle: -pose.yaw) * Rotation3(axis: SIMD3(1, 0, 0), angle: pose.pitch)
            * Rotation3(axis: SIMD3(0, 0, 1), angle: pose.roll)
        func place(_ p: SIMD3<Double>) -> SIMD3<Double> { pose.pivot + rotation.apply(p) }
        return (
            place(SIMD3(eyeSpacing / 2, -eyeHeight, -eyeDepth)),
            place(SIMD3(-eyeSpacing / 2, -eyeHeight, -eyeDepth)),
            place(SIMD3(0, mouthDrop, -mouthDepth))
        )
    }

    /// The landmarks the camera sees for `pose`, without noise, upright; nil when a point is
    /// behind the camera or outside the picture.
    public func landmarks(_ pose: HeadPose, camera: CameraIntrinsics) -> FaceLandmarks? {
        let (l, r, m) = points(pose)
        guard let a = camera.project(l), let b = camera.project(r), let c = camera.project(m) else { return nil }
        let inside = { (p: SIMD2<Double>) in
            p.x >= 0 && p.y >= 0 && p.x <= Double(camera.width - 1) && p.y <= Double(camera.height - 1)
        }
        guard inside(a), inside(b), inside(c) else { return nil }
        return FaceLandmarks(leftEye: a, rightEye: b, mouth: c)
    }

    /// The simulator's camera: VGA, about 65° across, as the seed's 640×480 front camera.
    public static let camera = CameraIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)
}

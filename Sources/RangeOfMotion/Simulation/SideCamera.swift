import Foundation
import Geometry

/// A phone on a stand looking horizontally at the measured leg, from the patient's side or
/// turned toward their front by `viewDegrees`.
public struct SideCamera: Sendable, Equatable {
    /// 0 looks straight at the patient's side; 90 would look at their front.
    public var viewDegrees = 0.0
    /// Metres from the measured hip, horizontally.
    public var distance = 2.5
    /// Height of the lens above the floor, metres.
    public var height = 0.55
    /// How far the patient stands right of the picture's centre, metres.
    public var offCentre = 0.2
    /// How far in front of the hip the camera is aimed, metres: at the hip for a standing
    /// patient, at the knee's reach for a leg held out in front.
    public var aimForward = 0.0
    /// Portrait video, 1080 x 1920, about 69° vertical field of view.
    public var intrinsics = CameraIntrinsics(fx: 1400, fy: 1400, cx: 539.5, cy: 959.5, width: 1080, height: 1920)

    public init(viewDegrees: Double = 0) { self.viewDegrees = viewDegrees }

    /// A camera placed for `posture`: portrait at knee height for a standing patient; for a
    /// patient lying on a couch or sitting, landscape, a little above the hip or below the
    /// seat, centred on the knee in front of the hip.
    public init(filming posture: KneePosture, viewDegrees: Double = 0) {
        self.viewDegrees = viewDegrees
        guard posture != .standing else { return }
        intrinsics = CameraIntrinsics(fx: 1400, fy: 1400, cx: 959.5, cy: 539.5, width: 1920, height: 1080)
        height = posture == .lying ? 0.9 : 0.35
        offCentre = 0
        aimForward = 0.45
    }

    /// The camera's pose in the world for a leg on `side` whose hip is at `hip`.
    func worldFromCamera(hip: SIMD3<Double>, side: BodySide) -> RigidTransform {
        let lateral = side == .left ? 1.0 : -1.0
        let a = viewDegrees * .pi / 180
        let outward = SIMD3(sin(a), lateral * cos(a), 0)
        let forward = -outward
        let down = SIMD3<Double>(0, 0, -1)
        let right = cross(down, forward)
        let eye = SIMD3(hip.x + aimForward, hip.y, height) + distance * outward - offCentre * right
        return RigidTransform(rotation: Rotation3(columns: (right, down, forward)), translation: eye)
    }

    /// The pixel where a world point appears.
    func project(_ point: SIMD3<Double>, cameraFromWorld: RigidTransform) -> SIMD2<Double> {
        intrinsics.project(cameraFromWorld.apply(point)) ?? SIMD2(-1e6, -1e6)
    }
}

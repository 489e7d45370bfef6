import Foundation

/// A rotation followed by a translation: maps points of one frame into another.
///
/// Name values by the frames they connect, e.g. `worldFromCamera.apply(pointInCamera)`.
public struct RigidTransform: Sendable, Hashable {
    /// The rotation part.
    public var rotation: Rotation3
    /// The translation part (where the source origin lands).
    public var translation: SIMD3<Double>

    /// A transform from its parts.
    public init(rotation: Rotation3 = .identity, translation: SIMD3<Double> = .zero) {
        self.rotation = rotation
        self.translation = translation
    }

    /// The identity.
    public static let identity = RigidTransform()

    /// Maps a point.
    @inlinable
    public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { rotation.apply(p) + translation }

    /// Maps a direction (no translation).
    @inlinable
    public func applyToVector(_ v: SIMD3<Double>) -> SIMD3<Double> { rotation.apply(v) }

    /// The inverse transform.
    public var inverse: RigidTransform {
        let r = rotation.inverse
        return RigidTransform(rotation: r, translation: -r.apply(translation))
    }

    /// Composition: `(a * b).apply(p) == a.apply(b.apply(p))`.
    public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: a.rotation * b.rotation, translation: a.apply(b.translation))
    }

    /// The 4x4 homogeneous matrix, 16 numbers row after row.
    public var matrixRowMajor: [Double] {
        let r = rotation.rowMajor
        return [
            r[0], r[1], r[2], translation.x, r[3], r[4], r[5], translation.y,
            r[6], r[7], r[8], translation.z, 0, 0, 0, 1,
        ]
    }

    /// A camera pose at `eye` looking at `target`, in HeadScan's sensor convention: camera z
    /// forward, camera y toward the operator's right, camera x toward the phone's top, which is
    /// `up` when the phone is held upright in portrait (the TrueDepth sensor is landscape).
    public static func camera(
        at eye: SIMD3<Double>, lookingAt target: SIMD3<Double>, up: SIMD3<Double>
    )
        -> RigidTransform
    {
        let forward = normalized(target - eye)
        let right = normalized(cross(forward, up))
        let top = cross(right, forward)
        return RigidTransform(rotation: Rotation3(columns: (top, right, forward)), translation: eye)
    }
}

/// The cross product.
@inlinable
public func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// The dot product.
@inlinable
public func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

/// Euclidean length.
@inlinable
public func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }

/// The vector scaled to unit length.
@inlinable
public func normalized(_ a: SIMD3<Double>) -> SIMD3<Double> { a / length(a) }

extension RigidTransform {
    /// The transform a share `t` (0...1) of the way from `self` to `other`: the rotation
    /// turned that share of the way about the axis between the two, the translation moved
    /// that share along the line between them.
    public func interpolated(to other: RigidTransform, _ t: Double) -> RigidTransform {
        let relative = rotation.inverse * other.rotation
        let q = relative.quaternion
        let half = SIMD3(q.x, q.y, q.z)
        let sine = (half * half).sum().squareRoot()
        let turn = sine > 1e-12 ? Rotation3(axis: half / sine, angle: 2 * atan2(sine, q.w) * t) : Rotation3.identity
        return RigidTransform(rotation: rotation * turn, translation: translation + (other.translation - translation) * t)
    }
}

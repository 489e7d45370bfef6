import Geometry

/// A head surface the cap can be fitted onto: points and normals by outline angle `phi` and
/// elevation `psi` (radians) seen from the head frame's origin, the tragion midpoint.
public protocol CapSurface: Sendable {
    /// The outermost surface point toward (`phi`, `psi`), head frame, metres.
    func surfacePoint(phi: Double, psi: Double) -> SIMD3<Double>
    /// The outward unit normal there.
    func surfaceNormal(phi: Double, psi: Double) -> SIMD3<Double>
    /// Whether a sticker can lie flat there (not over an ear or a hole in the surface).
    func holdsSticker(phi: Double, psi: Double) -> Bool
    /// How far flat paper laid on the tangent plane at `skin` must rise along `normal` to rest
    /// on the surface rather than sink into it: the highest the surface stands above that
    /// plane within the square of half-width `halfWidth` spanned by `right` and `up` (paper
    /// bridges a hollow and rests on the bumps around it). 0 on a convex surface.
    func restingLift(at skin: SIMD3<Double>, normal: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>, halfWidth: Double) -> Double
}

extension HeadModel: CapSurface {
    /// The drawn head's vault is smooth wherever the cap's spots are.
    public func holdsSticker(phi: Double, psi: Double) -> Bool { true }

    /// The drawn vault is convex under every spot: paper touches it at its centre.
    public func restingLift(
        at skin: SIMD3<Double>, normal: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>, halfWidth: Double
    ) -> Double { 0 }
}

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
}

extension HeadModel: CapSurface {
    /// The drawn head's vault is smooth wherever the cap's spots are.
    public func holdsSticker(phi: Double, psi: Double) -> Bool { true }
}

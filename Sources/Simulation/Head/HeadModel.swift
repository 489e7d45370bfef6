import Cephalometry
import Foundation
import Geometry

/// A simulated infant head: its outline solved for the requested measures, its surface, its
/// landmarks and the exact measurements of the model.
public struct HeadModel: Sendable {
    /// What was asked for.
    public let parameters: HeadParameters
    /// The solved outline at the widest height.
    public let outline: HeadOutline
    /// Height of the widest outline above the reference plane, metres.
    public let widestHeight: Double
    /// Crown height above the widest outline, metres.
    public let crownHeight: Double
    /// Face depth below the widest outline, metres.
    public let faceDepth: Double
    /// Nasion, nose tip and both tragions in the head frame, metres.
    public private(set) var landmarks: HeadLandmarks
    /// The measures of the model itself (from the analytic outline).
    public let measurements: TrueHeadMeasures

    /// Builds a head meeting `parameters`.
    public init(_ parameters: HeadParameters) throws(SimulationError) {
        try parameters.validate()
        self.parameters = parameters
        widestHeight = parameters.widestOutlineHeightMM / 1000
        crownHeight = parameters.crownHeightMM / 1000
        faceDepth = parameters.faceDepthMM / 1000
        outline = Self.solveOutline(parameters, referenceScale: Self.scale(atHeight: 0, widest: widestHeight, crown: crownHeight, face: faceDepth))
        measurements = Self.measure(outline)
        let (outline, widest, crown, face) = (outline, widestHeight, crownHeight, faceDepth)
        let profile = { (z: Double) in outline.reach(along: Double.pi / 2, scale: Self.scale(atHeight: z, widest: widest, crown: crown, face: face)) }
        let e = 1e-5
        faceSlope = (profile(e) - profile(-e)) / (2 * e)
        landmarks = HeadLandmarks(nasion: .zero, noseTip: .zero, leftTragion: .zero, rightTragion: .zero)
        landmarks = HeadLandmarks(self)
    }

    /// How far the face's midline moves forward per metre up at the reference plane, before
    /// the nasion's hollow (which cancels it there).
    let faceSlope: Double

    /// How much the outline is scaled at height `z` (1 at the widest outline, 0 at crown and chin).
    public func scale(atHeight z: Double) -> Double {
        Self.scale(atHeight: z, widest: widestHeight, crown: crownHeight, face: faceDepth)
    }

    private static func scale(atHeight z: Double, widest: Double, crown: Double, face: Double) -> Double {
        let h = z - widest
        let u = h / (h >= 0 ? crown : face)
        return u >= 1 || u <= -1 ? 0 : (1 - u * u).squareRoot()
    }

    /// The surface point at outline angle `phi` and elevation `psi` (−π/2 chin … π/2 crown),
    /// with the nasion's hollow.
    public func surfacePoint(phi: Double, psi: Double) -> SIMD3<Double> {
        var p = smoothPoint(phi: phi, psi: psi)
        if p.y > 0 { p.y += FaceRelief.hollow(x: p.x, z: p.z, slope: faceSlope) }
        return p
    }

    /// The smooth head without the face's relief.
    private func smoothPoint(phi: Double, psi: Double) -> SIMD3<Double> {
        let extent = psi >= 0 ? crownHeight : faceDepth
        let r = outline.radius(at: phi) * cos(psi)
        return SIMD3(r * cos(phi) + outline.lateralOffset, r * sin(phi) + outline.centreOffset, widestHeight + extent * sin(psi))
    }

    /// The elevation of height `z`.
    func elevation(atHeight z: Double) -> Double {
        let h = z - widestHeight
        return asin(min(1, max(-1, h / (h >= 0 ? crownHeight : faceDepth))))
    }

    /// The face's surface point at `x` sideways and `z` up (the front half of the head).
    func frontPoint(x: Double, z: Double) -> SIMD3<Double> {
        let psi = elevation(atHeight: z)
        // x falls as the angle turns from the right (45°) to the left (135°).
        var low = Double.pi / 4, high = 3 * Double.pi / 4
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if smoothPoint(phi: mid, psi: psi).x > x { low = mid } else { high = mid }
        }
        return surfacePoint(phi: (low + high) / 2, psi: psi)
    }

    /// The side's surface point `y` forward and `z` up, on the right (`side` 1) or left (−1).
    func sidePoint(y: Double, z: Double, side: Double) -> SIMD3<Double> {
        let psi = elevation(atHeight: z)
        // On the right y grows with the angle from −60° to 60°; on the left it falls from 120° to 240°.
        var low = side > 0 ? -Double.pi / 3 : 2 * Double.pi / 3
        var high = side > 0 ? Double.pi / 3 : 4 * Double.pi / 3
        for _ in 0..<60 {
            let mid = (low + high) / 2
            let grows = smoothPoint(phi: mid, psi: psi).y < y
            if grows == (side > 0) { low = mid } else { high = mid }
        }
        return surfacePoint(phi: (low + high) / 2, psi: psi)
    }

    /// Outward unit normal at outline angle `phi` and elevation `psi`.
    public func surfaceNormal(phi: Double, psi: Double) -> SIMD3<Double> {
        // Every outline shrinks to a point at crown and chin, where the surface is level.
        if cos(psi) < 1e-9 { return SIMD3(0, 0, psi > 0 ? 1 : -1) }
        let e = 1e-6
        let dPhi = surfacePoint(phi: phi + e, psi: psi) - surfacePoint(phi: phi - e, psi: psi)
        let dPsi = surfacePoint(phi: phi, psi: psi + e) - surfacePoint(phi: phi, psi: psi - e)
        return normalized(cross(dPhi, dPsi))
    }

    /// Measures an outline analytically: exact diagonals by bisection, dense perimeter.
    static func measure(_ outline: HeadOutline) -> TrueHeadMeasures {
        let polygon = Polygon2(outline.polygon())
        let deg = Double.pi / 180
        return TrueHeadMeasures(
            diagonalA: outline.reach(along: 120 * deg) + outline.reach(along: 300 * deg),
            diagonalB: outline.reach(along: 60 * deg) + outline.reach(along: 240 * deg),
            length: polygon.extent(along: SIMD2(0, 1)), width: polygon.extent(along: SIMD2(1, 0)),
            perimeter: polygon.perimeter)
    }

    /// Finds semi-axes, flattening and sideways shift so that length, cranial index and CVAI
    /// hit their targets with the diagonals through the tragion midpoint.
    static func solveOutline(_ p: HeadParameters, referenceScale: Double) -> HeadOutline {
        let length = p.lengthMM / 1000
        var outline = HeadOutline(
            halfWidth: length * p.cranialIndex / 200, halfLength: length / 2, flattening: 0,
            flatSide: p.flatSide, eggness: p.eggness, centreOffset: p.centreOffsetMM / 1000)
        for _ in 0..<8 {
            outline.flattening = solveFlattening(outline, cvai: p.cvai)
            centreBetweenTragions(&outline, scale: referenceScale)
            let m = measure(outline)
            outline.halfLength *= p.lengthMM / m.lengthMM
            outline.halfWidth *= (p.lengthMM * p.cranialIndex / 100) / m.widthMM
        }
        outline.flattening = solveFlattening(outline, cvai: p.cvai)
        return outline
    }

    /// Shifts the outline sideways until the tragions, on the outline at the reference
    /// plane, lie symmetrically about the origin.
    private static func centreBetweenTragions(_ outline: inout HeadOutline, scale: Double) {
        for _ in 0..<6 {
            let right = outline.reach(along: 0, scale: scale), left = outline.reach(along: Double.pi, scale: scale)
            outline.lateralOffset -= (right - left) / 2
        }
    }

    /// The flattening that gives `cvai`; CVAI grows monotonically with flattening.
    private static func solveFlattening(_ outline: HeadOutline, cvai: Double) -> Double {
        guard cvai > 0 else { return 0 }
        var low = 0.0, high = 0.6
        var trial = outline
        for _ in 0..<50 {
            trial.flattening = (low + high) / 2
            let a = trial.reach(along: 2 * Double.pi / 3) + trial.reach(along: 5 * Double.pi / 3)
            let b = trial.reach(along: Double.pi / 3) + trial.reach(along: 4 * Double.pi / 3)
            if abs(a - b) / max(a, b) * 100 < cvai { low = trial.flattening } else { high = trial.flattening }
        }
        return (low + high) / 2
    }
}

/// The simulated head's landmarks, in the head frame (metres): the nasion and both tragions
/// on the reference plane.
extension LandmarkSet where Value == SIMD3<Double> {

    /// The landmarks of `head` as anthropometry defines them: the nasion deepest in the hollow
    /// between forehead and nose, the nose tip where the nose stands out furthest from the face,
    /// each tragion in the notch above its tragus (where the ear is built around it).
    init(_ head: HeadModel) {
        let scaleAtReference = head.scale(atHeight: 0)
        let deg = Double.pi / 180
        self.init(
            nasion: SIMD3(0, head.outline.reach(along: 90 * deg, scale: scaleAtReference) - FaceRelief.nasionDepth, 0),
            noseTip: Self.mostForward(head),
            leftTragion: SIMD3(-head.outline.reach(along: 180 * deg, scale: scaleAtReference), 0, 0),
            rightTragion: SIMD3(head.outline.reach(along: 0, scale: scaleAtReference), 0, 0))
    }

    /// The nose's tip (pronasale): where it stands out furthest from the face, the top of its
    /// ridge, on the midline.
    static func mostForward(_ head: HeadModel) -> SIMD3<Double> {
        head.frontPoint(x: 0, z: FaceRelief.noseTipHeight) + SIMD3(0, FaceRelief.noseProtrusion - HeadMesh.reliefSink, 0)
    }
}

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
    public let landmarks: Landmarks
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
        landmarks = Landmarks(outline: outline, widestHeight: widestHeight, faceDepth: faceDepth)
    }

    /// How much the outline is scaled at height `z` (1 at the widest outline, 0 at crown and chin).
    public func scale(atHeight z: Double) -> Double {
        Self.scale(atHeight: z, widest: widestHeight, crown: crownHeight, face: faceDepth)
    }

    private static func scale(atHeight z: Double, widest: Double, crown: Double, face: Double) -> Double {
        let h = z - widest
        let u = h / (h >= 0 ? crown : face)
        return u >= 1 || u <= -1 ? 0 : (1 - u * u).squareRoot()
    }

    /// The surface point at outline angle `phi` and elevation `psi` (−π/2 chin … π/2 crown).
    public func surfacePoint(phi: Double, psi: Double) -> SIMD3<Double> {
        let extent = psi >= 0 ? crownHeight : faceDepth
        let r = outline.radius(at: phi) * cos(psi)
        return SIMD3(r * cos(phi) + outline.lateralOffset, r * sin(phi) + outline.centreOffset, widestHeight + extent * sin(psi))
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

/// The four landmarks measurement needs, in the head frame (metres).
public struct Landmarks: Sendable, Codable, Equatable {
    /// Deepest point between forehead and nose, on the reference plane.
    public var nasion: SIMD3<Double>
    /// Most forward point of the nose.
    public var noseTip: SIMD3<Double>
    /// The notch in front of the left ear, on the reference plane.
    public var leftTragion: SIMD3<Double>
    /// The notch in front of the right ear.
    public var rightTragion: SIMD3<Double>

    /// The nose's half-extents (sideways, forward, up) and its centre's depth below the nasion.
    static let noseHalfSize = SIMD3<Double>(0.008, 0.009, 0.011)
    static let noseDrop = 0.016

    init(outline: HeadOutline, widestHeight: Double, faceDepth: Double) {
        let u = -widestHeight / faceDepth
        let scaleAtReference = (1 - u * u).squareRoot()
        let deg = Double.pi / 180
        nasion = SIMD3(0, outline.reach(along: 90 * deg, scale: scaleAtReference), 0)
        leftTragion = SIMD3(-outline.reach(along: 180 * deg, scale: scaleAtReference), 0, 0)
        rightTragion = SIMD3(outline.reach(along: 0, scale: scaleAtReference), 0, 0)
        let noseCentre = Self.noseCentre(outline: outline, widestHeight: widestHeight, faceDepth: faceDepth)
        noseTip = noseCentre + SIMD3(0, Self.noseHalfSize.y, 0)
    }

    /// The nose sits on the face below the nasion, sunk 40 % into the face.
    static func noseCentre(outline: HeadOutline, widestHeight: Double, faceDepth: Double) -> SIMD3<Double> {
        let z = -noseDrop
        let u = (z - widestHeight) / faceDepth
        let face = outline.reach(along: Double.pi / 2, scale: (1 - u * u).squareRoot())
        return SIMD3(0, face + 0.2 * noseHalfSize.y, z)
    }
}

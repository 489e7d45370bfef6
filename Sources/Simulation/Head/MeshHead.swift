import Cephalometry
import Foundation
import Geometry

/// A head given as a surface mesh with its landmarks (a real person's head from an MRI, a
/// template, a scan), so that the whole pipeline runs on shapes its own simulator did not draw.
///
/// The mesh is moved into the head frame its landmarks define (origin at the tragion midpoint,
/// x right, y forward, z up; see `HeadFrame`) and, when asked, scaled about that origin to an
/// infant's circumference (scaling changes no ratio: CVAI and CI stay). A coarse mesh (edges
/// longer than `smoothEdge` on average) is refined by Loop's subdivision until it is not, so
/// that the camera and the cap meet a smooth head rather than facets. Its truth is what
/// `Cephalometer` measures on it with the same landmarks, so a scan of it is judged against the
/// measure of the source mesh, not against a formula.
public struct MeshHead: Sendable {
    /// The surface in the head frame, metres.
    public let mesh: TriangleMesh
    /// The landmarks in the head frame.
    public let landmarks: HeadLandmarks
    /// What `Cephalometer` measures on `mesh` with `landmarks`.
    public let measurements: TrueHeadMeasures
    /// The factor the mesh was scaled by (1 when kept at its size).
    public let scale: Double
    /// Where the cap's directions are taken from, head frame: above the tragion midpoint, at
    /// the height of the longest outline. A drawn head's cap is laid out about its widest
    /// outline (30 mm up); laid out about the tragion midpoint instead, the same cap sat 27 mm
    /// lower on a given head, its lowest ring 11 mm below the nasion, over brows and ears.
    public let capCentre: SIMD3<Double>
    /// The surface seen from `capCentre`.
    let radial: RadialSurface

    /// Most vertices and faces a mesh head may have.
    public static let maximumFaces = 2_000_000
    /// Mean edge length, metres, above which the mesh is subdivided.
    public static let smoothEdge = 0.002
    /// Most rounds of subdivision (each halves the edges: a scalp of 2 000 vertices needs two).
    public static let maximumSubdivisions = 3
    /// How many times the given mesh was subdivided.
    public let subdivisions: Int
    /// What `Cephalometer` measures on the given mesh, before any subdivision (placed and
    /// scaled alike), to show what the smoothing changed.
    public let givenMeasurements: TrueHeadMeasures

    /// Builds the head from `mesh` and `landmarks` in the mesh's own frame (metres), scaled so
    /// that its circumference becomes `circumferenceMM` when given.
    public init(mesh: TriangleMesh, landmarks: HeadLandmarks, circumferenceMM: Double? = nil) throws(SimulationError) {
        try self.init(mesh: mesh, landmarks: landmarks, circumferenceMM: circumferenceMM, gridDegrees: 0.5)
    }

    /// `gridDegrees` is the step of the directions in which the surface is looked up (0.5°:
    /// 0.6 mm on an infant's vault); tests take a coarser one.
    init(mesh: TriangleMesh, landmarks: HeadLandmarks, circumferenceMM: Double?, gridDegrees: Double) throws(SimulationError) {
        guard !mesh.faces.isEmpty, mesh.isValid else { throw .invalidHead("the mesh has no faces, or a face points past its vertices") }
        guard mesh.faces.count <= Self.maximumFaces else {
            throw .invalidHead("the mesh has \(mesh.faces.count) faces; at most \(Self.maximumFaces) are read (decimate it first)")
        }
        guard mesh.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
            throw .invalidHead("a vertex of the mesh is not a finite number")
        }
        if let circumferenceMM, !(100...700).contains(circumferenceMM) {
            throw .invalidHead("a circumference of \(circumferenceMM) mm is not a head's (give 100–700 mm)")
        }
        let frame: HeadFrame
        do { frame = try HeadFrame(landmarks) } catch { throw .invalidHead("the landmarks define no head frame: \(error)") }
        var placed = mesh.transformed(by: frame.headFromMesh)
        var points = landmarks.transformed(by: frame.headFromMesh)
        var (measured, height) = try Self.measure(placed, points)
        var scale = 1.0
        if let circumferenceMM {
            scale = circumferenceMM / measured.circumferenceMM
            placed.vertices = placed.vertices.map { $0 * scale }
            points = points.map { $1 * scale }
            (measured, height) = try Self.measure(placed, points)
        }
        givenMeasurements = measured
        var subdivisions = 0
        while LoopSubdivision.meanEdge(placed) > Self.smoothEdge, subdivisions < Self.maximumSubdivisions,
            placed.faces.count * 4 <= Self.maximumFaces
        {
            placed = LoopSubdivision.subdivide(placed)
            subdivisions += 1
        }
        if subdivisions > 0 { (measured, height) = try Self.measure(placed, points) }
        self.subdivisions = subdivisions
        self.mesh = placed
        self.landmarks = points
        self.measurements = measured
        self.scale = scale
        capCentre = SIMD3(0, 0, height)
        radial = RadialSurface(
            placed.transformed(by: RigidTransform(rotation: .identity, translation: -capCentre)), stepDegrees: gridDegrees)
        guard radial.distance(phi: Double.pi / 2, psi: 0.3) != nil, radial.distance(phi: -Double.pi / 2, psi: 0.3) != nil else {
            throw .invalidHead("the mesh does not enclose the point above the tragion midpoint at its widest: no surface in front of or behind it")
        }
    }

    /// The measures and the height of the measured slice (metres).
    private static func measure(_ mesh: TriangleMesh, _ landmarks: HeadLandmarks) throws(SimulationError) -> (TrueHeadMeasures, Double) {
        let m: HeadMeasurement
        do { m = try Cephalometer.measure(mesh, landmarks: landmarks).measurement } catch {
            throw .invalidHead("the mesh cannot be measured with its landmarks: \(error)")
        }
        let measures = TrueHeadMeasures(
            diagonalA: m.diagonalAMM / 1000, diagonalB: m.diagonalBMM / 1000, length: m.lengthMM / 1000, width: m.widthMM / 1000,
            perimeter: m.circumferenceMM / 1000)
        return (measures, m.sliceHeightMM / 1000)
    }
}

extension MeshHead: CapSurface {
    /// The cap's direction (`phi`, `psi`) toward `point`, head frame.
    public func direction(toward point: SIMD3<Double>) -> (phi: Double, psi: Double) {
        let q = point - capCentre
        return (atan2(q.y, q.x), asin(min(1, max(-1, q.z / length(q)))))
    }

    public func surfacePoint(phi: Double, psi: Double) -> SIMD3<Double> {
        let r = radial.distance(phi: phi, psi: psi) ?? .nan
        return capCentre + SIMD3(cos(psi) * cos(phi), cos(psi) * sin(phi), sin(psi)) * r
    }

    public func surfaceNormal(phi: Double, psi: Double) -> SIMD3<Double> {
        let e = radial.step / 2
        let dPhi = surfacePoint(phi: phi + e, psi: psi) - surfacePoint(phi: phi - e, psi: psi)
        let dPsi = surfacePoint(phi: phi, psi: psi + e) - surfacePoint(phi: phi, psi: psi - e)
        let n = cross(dPhi, dPsi)
        let outward = SIMD3(cos(psi) * cos(phi), cos(psi) * sin(phi), sin(psi))
        guard length(n) > 0, length(n).isFinite else { return outward }
        return normalized(dot(n, outward) >= 0 ? n : -n)
    }

    public func restingLift(
        at skin: SIMD3<Double>, normal: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>, halfWidth: Double
    ) -> Double {
        var highest = 0.0
        for i in -3...3 {
            for j in -3...3 {
                let q = skin + (right * Double(i) + up * Double(j)) * (halfWidth / 3) - capCentre
                let n = length(q)
                guard n > 0 else { continue }
                let p = surfacePoint(phi: atan2(q.y, q.x), psi: asin(min(1, max(-1, q.z / n))))
                guard p.x.isFinite else { continue }
                highest = max(highest, dot(p - skin, normal))
            }
        }
        return highest
    }

    /// A sticker lies flat where the surface within its reach (a sticker's half-diagonal,
    /// 12 mm) stays within 2.5 mm of the tangent plane and behind it: an infant's skull bends
    /// away by about 1 mm there, an ear or a hole does not.
    public func holdsSticker(phi: Double, psi: Double) -> Bool {
        let centre = surfacePoint(phi: phi, psi: psi)
        let normal = surfaceNormal(phi: phi, psi: psi)
        guard centre.x.isFinite, let r = radial.distance(phi: phi, psi: psi), r > 0 else { return false }
        let reach = 0.012 / r
        for k in 0..<12 {
            let a = Double(k) * Double.pi / 6
            let p = surfacePoint(phi: phi + reach * cos(a) / max(0.2, cos(psi)), psi: psi + reach * sin(a))
            guard p.x.isFinite else { return false }
            let height = dot(p - centre, normal)
            if height > 0.001 || height < -0.0025 { return false }
        }
        return true
    }
}

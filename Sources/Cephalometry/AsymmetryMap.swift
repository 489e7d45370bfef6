import Foundation
import Geometry

/// How far every point of the head lies from the head's own mirror image, in mm.
///
/// The head is mirrored across the mid-sagittal plane of its landmark frame, and the mirror
/// image is registered to the head by trimmed ICP (the best-fitting 70 % of points decide, so
/// a flattened patch and its mirrored twin do not drag the fit); the plane of symmetry is the
/// registration's fixed plane. Positive values lie outside the mirror image (bulging),
/// negative ones inside it (flattened).
public struct AsymmetryMap: Sendable {
    /// Per vertex of the measured mesh, mm; NaN where the mirror image has no surface within
    /// `AsymmetryOptions.coverage` (an open scan's edge).
    public var valuesMM: [Double]
    /// The figures a report gives.
    public var summary: AsymmetrySummary
    /// The mesh's vertices in the head frame (x right, y forward, z up), metres, for drawing.
    public var headPoints: [SIMD3<Double>]
}

/// The asymmetry map's key figures.
public struct AsymmetrySummary: Sendable, Codable, Equatable {
    /// The largest bulge beyond the mirror image, mm (≥ 0).
    public var maximumOutwardMM: Double
    /// The deepest flattening inside the mirror image, mm (≤ 0).
    public var maximumInwardMM: Double
    /// Where the deepest flattening is, head frame [x, y, z] in mm.
    public var deepestPointMM: [Double]
    /// Root mean square of the map above the reference plane, mm.
    public var rmsAboveReferenceMM: Double
    /// Angle between the plane of symmetry and the landmarks' mid-sagittal plane, degrees.
    public var planeTurnDegrees: Double
    /// Distance of the plane of symmetry from the tragion midpoint, mm (positive: to the right).
    public var planeOffsetMM: Double
    /// Share of vertices with a value (the rest lie beyond the mirror image's edge).
    public var coverage: Double
}

/// How the asymmetry map is computed.
public struct AsymmetryOptions: Sendable, Equatable {
    /// Points used for the registration.
    public var samples = 6000
    /// The share of best-matching pairs that decide each registration step.
    public var keptFraction = 0.7
    /// Registration steps at most.
    public var iterations = 40
    /// A vertex farther than this from the mirror image has no value (metres).
    public var coverage = 0.010

    public init() {}
}

extension AsymmetryMap {
    /// The map of `mesh` (metres, any pose) with its landmarks in the same frame.
    public static func compute(
        _ mesh: TriangleMesh, landmarks: HeadLandmarks, options: AsymmetryOptions = .init()
    ) throws(CephalometryError) -> AsymmetryMap {
        try Cephalometer.validate(mesh)
        let frame = try HeadFrame(landmarks)
        let head = mesh.transformed(by: frame.headFromMesh)
        guard let headGrid = ClosestPointGrid(head, cellSize: 0.004) else {
            throw .unusableMesh("it has no usable triangles for the asymmetry map")
        }
        let fit = try register(head, grid: headGrid, options: options)
        let mirror = mirrored(head, by: fit)
        guard let mirrorGrid = ClosestPointGrid(mirror, cellSize: 0.004) else {
            throw .unusableMesh("its mirror image has no usable triangles")
        }
        let centre = head.vertices.reduce(SIMD3<Double>.zero, +) / Double(head.vertices.count)
        let values = head.vertices.map { v -> Double in
            guard let hit = mirrorGrid.closest(to: v, maximumDistance: options.coverage) else { return .nan }
            let (a, b, c) = mirror.corners(of: hit.face)
            var normal = cross(b - a, c - a)
            if dot(normal, hit.point - centre) < 0 { normal = -normal }
            return (dot(v - hit.point, normal) < 0 ? -hit.distance : hit.distance) * 1000
        }
        return AsymmetryMap(valuesMM: values, summary: summarize(values, points: head.vertices, fit: fit), headPoints: head.vertices)
    }

    /// Trimmed point-to-plane ICP of the mirrored samples onto the head: on a smooth, nearly
    /// round surface point-to-point ICP slides for hundreds of steps, point-to-plane converges
    /// in a few.
    static func register(_ head: TriangleMesh, grid: ClosestPointGrid, options: AsymmetryOptions) throws(CephalometryError) -> RigidTransform {
        // The vault and face, not a neck or cap rim below the ears.
        let candidates = head.vertices.filter { $0.z > -0.02 }
        guard candidates.count >= 6 else { throw .noContour("too little surface above the ears to find the plane of symmetry") }
        let stride = max(1, candidates.count / options.samples)
        let sources = Swift.stride(from: 0, to: candidates.count, by: stride).map { i in
            SIMD3(-candidates[i].x, candidates[i].y, candidates[i].z)
        }
        var transform = RigidTransform.identity
        for _ in 0..<options.iterations {
            var pairs: [(point: SIMD3<Double>, target: SIMD3<Double>, normal: SIMD3<Double>, distance: Double)] = []
            for s in sources {
                let p = transform.apply(s)
                guard let hit = grid.closest(to: p, maximumDistance: 0.03) else { continue }
                let (a, b, c) = head.corners(of: hit.face)
                let normal = cross(b - a, c - a)
                guard length(normal) > 0 else { continue }
                pairs.append((p, hit.point, normalized(normal), hit.distance))
            }
            pairs.sort { $0.distance < $1.distance }
            let kept = pairs.prefix(Int(Double(pairs.count) * options.keptFraction))
            guard let step = pointToPlaneStep(kept) else {
                throw .noContour("the head and its mirror image could not be registered; check the landmarks belong to this mesh")
            }
            transform = step * transform
            if length(step.translation) < 1e-8, rotationAngle(step.rotation) < 1e-8 { break }
        }
        return transform
    }

    /// The small motion (rotation vector ω, translation t) minimising Σ ((p + ω × p + t − q)·n)².
    static func pointToPlaneStep<C: Collection>(_ pairs: C) -> RigidTransform?
    where C.Element == (point: SIMD3<Double>, target: SIMD3<Double>, normal: SIMD3<Double>, distance: Double) {
        guard pairs.count >= 6 else { return nil }
        var a = [Double](repeating: 0, count: 36), b = [Double](repeating: 0, count: 6)
        for pair in pairs {
            let c = cross(pair.point, pair.normal)
            let j = [c.x, c.y, c.z, pair.normal.x, pair.normal.y, pair.normal.z]
            let r = dot(pair.target - pair.point, pair.normal)
            for row in 0..<6 {
                b[row] += j[row] * r
                for column in 0..<6 { a[row * 6 + column] += j[row] * j[column] }
            }
        }
        guard let x = try? LinearSolver.solve(a, b), x.allSatisfy(\.isFinite) else { return nil }
        let omega = SIMD3(x[0], x[1], x[2])
        let angle = length(omega)
        let rotation = angle > 0 ? Rotation3(axis: omega / angle, angle: angle) : .identity
        return RigidTransform(rotation: rotation, translation: SIMD3(x[3], x[4], x[5]))
    }

    /// The angle of a rotation, radians.
    static func rotationAngle(_ r: Rotation3) -> Double {
        let trace = r.columns.0.x + r.columns.1.y + r.columns.2.z
        return acos(max(-1, min(1, (trace - 1) / 2)))
    }

    /// The head mirrored across x = 0 and moved by `fit`, wound so its normals still point out.
    static func mirrored(_ head: TriangleMesh, by fit: RigidTransform) -> TriangleMesh {
        TriangleMesh(
            vertices: head.vertices.map { fit.apply(SIMD3(-$0.x, $0.y, $0.z)) },
            faces: head.faces.map { SIMD3($0.x, $0.z, $0.y) })
    }

    static func summarize(_ values: [Double], points: [SIMD3<Double>], fit: RigidTransform) -> AsymmetrySummary {
        var outward = 0.0, inward = 0.0, deepest = SIMD3<Double>.zero
        var sumSquares = 0.0, above = 0, covered = 0
        for (v, p) in zip(values, points) where !v.isNaN {
            covered += 1
            if v > outward { outward = v }
            if v < inward { inward = v; deepest = p }
            if p.z > 0 { sumSquares += v * v; above += 1 }
        }
        // The registration maps a mirrored point m to R·m + t; with the mirror M = diag(−1,1,1),
        // A = R·M is a reflection whose normal is the dominant column of I − A.
        let r = fit.rotation.columns
        let a = (SIMD3(-r.0.x, -r.0.y, -r.0.z), r.1, r.2)
        let columns = [SIMD3<Double>(1, 0, 0) - a.0, SIMD3(0, 1, 0) - a.1, SIMD3(0, 0, 1) - a.2]
        var normal = normalized(columns.max { length($0) < length($1) } ?? SIMD3(1, 0, 0))
        if normal.x < 0 { normal = -normal }
        return AsymmetrySummary(
            maximumOutwardMM: outward, maximumInwardMM: inward, deepestPointMM: [deepest.x, deepest.y, deepest.z].map { $0 * 1000 },
            rmsAboveReferenceMM: above > 0 ? (sumSquares / Double(above)).squareRoot() : 0,
            planeTurnDegrees: acos(min(1, normal.x)) * 180 / Double.pi,
            planeOffsetMM: dot(normal, fit.translation) / 2 * 1000,
            coverage: values.isEmpty ? 0 : Double(covered) / Double(values.count))
    }
}

import Foundation
import Geometry

/// How far every point of the head lies from the head's own mirror image, in mm.
///
/// The head is mirrored across its mid-sagittal plane. By default that is the landmarks'
/// plane (through the nasion and the tragion midpoint, upright on the reference plane), the
/// plane the CVAI's diagonals hang on and clinical scanners use. The head's own best plane of
/// symmetry is found too, by registering the mirror image to the head with trimmed
/// point-to-plane ICP (the best-fitting 70 % of points decide), and reported; it can be the
/// mirror plane instead (`AsymmetryPlane.registered`). Positive values lie outside the mirror
/// image (fuller), negative ones inside it (flatter).
///
/// Why the landmarks' plane by default: a positional head is deformed all round (flat behind
/// on one side, bossed in front on the same side), so any fitted plane moves toward the flat
/// side and tilts with it; on the simulator's heads that overstates a 4 mm flattening as
/// 5.4 mm and a 13 mm one as 18 mm, while the landmarks' plane gives 4.1 and 12.6. The fit
/// never turns the plane about the vertical either: a positional head is close to an ellipse
/// turned on its axis, and a free turn would follow it until the asymmetry had vanished.
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
    /// The plane the head was mirrored across.
    public var plane: AsymmetryPlane
    /// The largest bulge beyond the mirror image above the reference plane, mm (≥ 0).
    public var maximumOutwardMM: Double
    /// The deepest flattening inside the mirror image above the reference plane, mm (≤ 0).
    public var maximumInwardMM: Double
    /// Where the deepest flattening is, head frame [x, y, z] in mm.
    public var deepestPointMM: [Double]
    /// Root mean square of the map above the reference plane, mm.
    public var rmsAboveReferenceMM: Double
    /// Tilt of the head's best plane of symmetry from the landmarks' mid-sagittal plane,
    /// degrees (its turn about the vertical is the landmarks').
    public var planeTiltDegrees: Double
    /// Distance of the head's best plane of symmetry from the tragion midpoint, mm (positive:
    /// to the right).
    public var planeOffsetMM: Double
    /// Share of vertices with a value (the rest lie beyond the mirror image's edge).
    public var coverage: Double
}

/// Which plane the head is mirrored across.
public enum AsymmetryPlane: String, Sendable, Codable, CaseIterable {
    /// The landmarks' mid-sagittal plane.
    case landmarks
    /// The head's best plane of symmetry, tilted and shifted from the landmarks' by registration.
    case registered
}

/// How the asymmetry map is computed.
public struct AsymmetryOptions: Sendable, Equatable {
    /// The mirror plane.
    public var plane = AsymmetryPlane.landmarks
    /// Points used for the registration.
    public var samples = 1500
    /// The share of best-matching pairs that decide each registration step.
    public var keptFraction = 0.7
    /// Registration steps at most.
    public var iterations = 15
    /// A vertex farther than this from the mirror image has no value (metres).
    public var coverage = 0.020

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
        guard let headGrid = ClosestPointGrid(head, cellSize: 0.0025) else {
            throw .unusableMesh("it has no usable triangles for the asymmetry map")
        }
        let fit = try register(head, grid: headGrid, options: options)
        let mirror = mirrored(head, by: options.plane == .registered ? fit : .identity)
        guard let mirrorGrid = ClosestPointGrid(mirror, cellSize: 0.0025) else {
            throw .unusableMesh("its mirror image has no usable triangles")
        }
        let centre = head.vertices.reduce(SIMD3<Double>.zero, +) / Double(head.vertices.count)
        let edges = EdgeUse(head)
        let values = concurrentMap(Array(head.vertices.indices)) { i -> Double in
            let v = head.vertices[i]
            // A point off the surface, or one whose mirror partner would lie in a hole of the
            // scan (its nearest mirror point is on the hole's rim), has no value.
            guard edges.isUsed(vertex: i), let hit = mirrorGrid.closest(to: v, maximumDistance: options.coverage),
                !edges.liesOnBoundary(hit.point, face: mirror.faces[hit.face], of: mirror)
            else { return .nan }
            let (a, b, c) = mirror.corners(of: hit.face)
            var normal = cross(b - a, c - a)
            if dot(normal, hit.point - centre) < 0 { normal = -normal }
            return (dot(v - hit.point, normal) < 0 ? -hit.distance : hit.distance) * 1000
        }
        var summary = summarize(values, points: head.vertices, fit: fit)
        summary.plane = options.plane
        return AsymmetryMap(valuesMM: values, summary: summary, headPoints: head.vertices)
    }

    /// `transform` of every element, in chunks across the processor's cores; each result
    /// depends on its element alone, so the order of work never changes them.
    static func concurrentMap<T: Sendable>(_ items: [T], _ transform: (T) -> Double) -> [Double] {
        let chunk = 4096
        let chunks = (items.count + chunk - 1) / chunk
        return [Double](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            nonisolated(unsafe) let output = buffer  // Sendable on Apple platforms, not on Linux
            withoutActuallyEscaping(transform) { transform in
                nonisolated(unsafe) let transform = transform
                DispatchQueue.concurrentPerform(iterations: chunks) { c in
                    for i in (c * chunk)..<min(items.count, (c + 1) * chunk) {
                        (output.baseAddress! + i).initialize(to: transform(items[i]))
                    }
                }
            }
            initialized = items.count
        }
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
            // The trimmed set changes a little from step to step, so the steps settle at a few
            // hundredths of a millimetre rather than at zero; that moves no value of the map.
            if length(step.translation) < 5e-5, rotationAngle(step.rotation) < 5e-4 { break }
        }
        return transform
    }

    /// The small motion (rotation vector ω with no vertical part, translation t) minimising
    /// Σ ((p + ω × p + t − q)·n)².
    static func pointToPlaneStep<C: Collection>(_ pairs: C) -> RigidTransform?
    where C.Element == (point: SIMD3<Double>, target: SIMD3<Double>, normal: SIMD3<Double>, distance: Double) {
        guard pairs.count >= 5 else { return nil }
        var a = [Double](repeating: 0, count: 25), b = [Double](repeating: 0, count: 5)
        for pair in pairs {
            let c = cross(pair.point, pair.normal)
            let j = [c.x, c.y, pair.normal.x, pair.normal.y, pair.normal.z]
            let r = dot(pair.target - pair.point, pair.normal)
            for row in 0..<5 {
                b[row] += j[row] * r
                for column in 0..<5 { a[row * 5 + column] += j[row] * j[column] }
            }
        }
        guard let solved = try? LinearSolver.solve(a, b), solved.allSatisfy(\.isFinite) else { return nil }
        let x = [solved[0], solved[1], 0, solved[2], solved[3], solved[4]]
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
        // The figures are the vault's, above the reference plane: below it a scan ends in a
        // neck or a cap's rim whose edges have no meaningful mirror partner.
        for (v, p) in zip(values, points) where !v.isNaN {
            covered += 1
            guard p.z > 0 else { continue }
            if v > outward { outward = v }
            if v < inward { inward = v; deepest = p }
            sumSquares += v * v
            above += 1
        }
        // The registration maps a mirrored point m to R·m + t; with the mirror M = diag(−1,1,1),
        // A = R·M is a reflection whose normal is the dominant column of I − A.
        let r = fit.rotation.columns
        let a = (SIMD3(-r.0.x, -r.0.y, -r.0.z), r.1, r.2)
        let columns = [SIMD3<Double>(1, 0, 0) - a.0, SIMD3(0, 1, 0) - a.1, SIMD3(0, 0, 1) - a.2]
        var normal = normalized(columns.max { length($0) < length($1) } ?? SIMD3(1, 0, 0))
        if normal.x < 0 { normal = -normal }
        return AsymmetrySummary(
            plane: .landmarks, maximumOutwardMM: outward, maximumInwardMM: inward,
            deepestPointMM: [deepest.x, deepest.y, deepest.z].map { $0 * 1000 },
            rmsAboveReferenceMM: above > 0 ? (sumSquares / Double(above)).squareRoot() : 0,
            planeTiltDegrees: acos(min(1, normal.x)) * 180 / Double.pi,
            planeOffsetMM: dot(normal, fit.translation) / 2 * 1000,
            coverage: values.isEmpty ? 0 : Double(covered) / Double(values.count))
    }
}

extension AsymmetryMap {
    /// Colours saturate at ± this many mm, the same in every report and file so visits compare
    /// at a glance.
    public static let colorRange = 5.0

    /// The colour of a value (red, green, blue in 0...1): blue inside the mirror image
    /// (flatter), white where symmetric, red outside (fuller), light grey without a value.
    public static func color(mm: Double) -> SIMD3<Double> {
        guard !mm.isNaN else { return SIMD3(repeating: 0xDD / 255.0) }
        let t = min(1, abs(mm) / colorRange)
        let end = mm < 0 ? SIMD3<Double>(0x21, 0x66, 0xAC) / 255 : SIMD3<Double>(0xB2, 0x18, 0x2B) / 255
        return SIMD3(repeating: 1) + (end - SIMD3(repeating: 1)) * t
    }

    /// `mesh` (the one measured, in its own frame) with every vertex coloured by its value,
    /// for a PLY viewer.
    public func colored(_ mesh: TriangleMesh) -> TriangleMesh {
        var colored = mesh
        colored.colors = valuesMM.map { v in
            let c = Self.color(mm: v) * 255
            return SIMD3(UInt8(c.x.rounded()), UInt8(c.y.rounded()), UInt8(c.z.rounded()))
        }
        return colored
    }
}

/// Which vertices the faces use, and which edges bound a hole or the scan's edge (one face).
struct EdgeUse: Sendable {
    private let used: [Bool]
    private let boundary: Set<UInt64>

    init(_ mesh: TriangleMesh) {
        var used = [Bool](repeating: false, count: mesh.vertices.count)
        var count: [UInt64: Int] = [:]
        for f in mesh.faces {
            for (a, b) in [(f.x, f.y), (f.y, f.z), (f.z, f.x)] {
                used[Int(a)] = true
                count[Self.key(a, b), default: 0] += 1
            }
        }
        self.used = used
        boundary = Set(count.filter { $0.value == 1 }.keys)
    }

    static func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))) }

    func isUsed(vertex: Int) -> Bool { used[vertex] }

    /// Whether `p`, a nearest point on `face` of `mesh` (same topology), lies on one of the
    /// face's boundary edges.
    func liesOnBoundary(_ p: SIMD3<Double>, face: SIMD3<Int32>, of mesh: TriangleMesh) -> Bool {
        guard !boundary.isEmpty else { return false }
        for (a, b) in [(face.x, face.y), (face.y, face.z), (face.z, face.x)] where boundary.contains(Self.key(a, b)) {
            let pa = mesh.vertices[Int(a)], pb = mesh.vertices[Int(b)]
            let e = pb - pa
            let t = max(0, min(1, dot(p - pa, e) / max(dot(e, e), 1e-30)))
            if length(p - (pa + e * t)) < 1e-9 { return true }
        }
        return false
    }
}

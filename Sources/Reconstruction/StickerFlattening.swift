import Foundation
import Geometry

/// Lowers the fused surface where marker stickers stand proud of the head.
///
/// A flat sticker on a curved cap touches it near its centre and stands off towards its
/// edges (about 1.3 mm at the corners of an 19 mm label on an infant's head), and the depth
/// camera sees the paper, not the head: left alone, every slice through the stickers comes
/// out a little too long (circumference about 0.9 % with the standard cap). The marker map
/// says exactly where each sticker is, so the head under it is interpolated from the surface
/// around it: a cubic height field over the sticker's plane, fitted robustly to the
/// uncovered ring around the paper, replaces whatever stands above it. Stickers on a surface
/// that does not curve away under them (a board, a printed cap's flat patch), as the markers
/// around each tell, are left alone: there is nothing for paper to stand off.
public struct StickerFlattening: Sendable {
    /// White paper around the black square on each side, in the marker's cells (HeadScan's
    /// sheets print one).
    public var marginCells = 1.0
    /// How far fusion spreads a sticker's edge beyond the paper, in voxels of the fusion: the
    /// step from paper to head is averaged over about a voxel and a half on either side.
    public var edgeBlurVoxels = 1.5
    /// Width of the ring around the paper whose surface the head is fitted to, metres.
    public var ringWidth = 0.012
    /// Surface farther than this from the sticker's plane is not the sticker or its
    /// surroundings (the other side of the head, a hand), metres.
    public var planeReach = 0.008
    /// Mapped markers within this distance of a sticker, or three of its sides when that is
    /// farther (a board of large tags), tell how the surface under it curves, metres.
    public var neighbourReach = 0.06
    /// A sticker whose own centre and the centres of the mapped markers around it lie on one
    /// plane within this RMS is taken to lie flat and left alone, metres: paper on a board has
    /// nothing to stand off. (Fitting a head under paper that touches it everywhere only adds
    /// the fit's noise: 4.9 mm on a simulated board, 4.5 mm on a real one.) On an infant's
    /// head the markers within reach spread 18 mm or more off any plane; on a board, the
    /// map's noise, a few tenths.
    public var flatSurfaceSpread = 0.001

    /// Defaults for printed label stickers.
    public init() {}

    /// What the flattening did.
    public struct Report: Sendable, Equatable, Codable {
        /// Stickers whose surroundings held enough surface to fit.
        public var stickersFlattened = 0
        /// Stickers left as they are (too little uncovered surface around them).
        public var stickersSkipped = 0
        /// Stickers left as they are because the markers around them lie on a surface too flat
        /// for paper to stand off it (nil in reports written before this was counted).
        public var stickersLyingFlat: Int?
        /// Stickers whose code no frame read, placed by their outlines and flattened (counted
        /// among `stickersFlattened`; nil in reports written before they were).
        public var unreadStickersPlaced: Int?
        /// Vertices lowered, and their mean and largest lift above the fitted head, metres.
        public var verticesLowered = 0
        public var meanLift = 0.0
        public var maxLift = 0.0
    }

    /// `mesh` with every mapped sticker, and every `unread` one (corners of stickers whose
    /// code was never read, placed by their outlines), flattened onto the head around it;
    /// `headCentre` tells outside from inside, `cellsPerSide` is the markers' cells across,
    /// border included (6 for 4×4 markers), and `voxelSize` the fusion's voxel (metres).
    public func apply(
        to mesh: inout TriangleMesh, map: MarkerMap, unread: [[SIMD3<Double>]] = [], headCentre: SIMD3<Double>, cellsPerSide: Int,
        voxelSize: Double
    ) -> Report {
        let margin = marginCells / Double(max(1, cellsPerSide))
        let blur = edgeBlurVoxels * voxelSize
        func sticker(_ corners: [SIMD3<Double>]) -> Sticker? {
            Sticker(corners: corners, headCentre: headCentre, marginFraction: margin, edgeBlur: blur, flattening: self)
        }
        let read = map.ids.compactMap { map.corners[$0] }.compactMap(sticker)
        let stickers = read + unread.compactMap(sticker)
        var report = Report()
        report.unreadStickersPlaced = 0
        var liftSum = 0.0
        let centres = stickers.map(\.centre)
        for (index, sticker) in stickers.enumerated() {
            // Without mapped neighbours (a lone marker) only the fitted head can tell.
            let reach = neighbourReach > 0 ? max(neighbourReach, 3 * sticker.side) : 0
            if let spread = sticker.offPlaneSpread(neighbours: centres, reach: reach), spread < flatSurfaceSpread {
                report.stickersLyingFlat = (report.stickersLyingFlat ?? 0) + 1
                continue
            }
            let curvature = sticker.curvature(neighbours: centres, reach: reach)
            let near = mesh.vertices.indices.filter { sticker.isNear(mesh.vertices[$0]) }
            let ring = near.filter { i in
                sticker.isInRing(mesh.vertices[i]) && !stickers.contains { $0.covers(mesh.vertices[i]) }
            }
            guard let head = sticker.fitHead(to: ring.map { mesh.vertices[$0] }) else {
                report.stickersSkipped += 1
                continue
            }
            report.stickersFlattened += 1
            if index >= read.count { report.unreadStickersPlaced = (report.unreadStickersPlaced ?? 0) + 1 }
            for i in near where sticker.covers(mesh.vertices[i]) {
                let local = sticker.local(mesh.vertices[i])
                // Never more than paper on this curvature could stand off (twice that, and
                // the edge's blur): a poor fit must not cut into the head.
                let possible = curvature.map { 2 * sticker.standoff(curvature: $0, at: local.x, local.y) + blur } ?? .infinity
                let lift = min(local.z - head.height(local.x, local.y), possible)
                guard lift > 0 else { continue }
                mesh.vertices[i] -= sticker.normal * lift
                report.verticesLowered += 1
                liftSum += lift
                report.maxLift = max(report.maxLift, lift)
            }
        }
        report.meanLift = report.verticesLowered > 0 ? liftSum / Double(report.verticesLowered) : 0
        return report
    }
}

/// One mapped sticker's frame: centre, in-plane axes and outward normal, and the extents of
/// its paper and of the ring around it.
private struct Sticker {
    let centre: SIMD3<Double>
    let right: SIMD3<Double>
    let up: SIMD3<Double>
    let normal: SIMD3<Double>
    /// The marker's printed side, metres.
    let side: Double
    /// Half-width of the paper plus the edge blur (Chebyshev distance in the plane).
    let covered: Double
    let ringOuter: Double
    let reach: Double

    init?(
        corners: [SIMD3<Double>], headCentre: SIMD3<Double>, marginFraction: Double, edgeBlur: Double, flattening: StickerFlattening
    ) {
        guard corners.count == 4 else { return nil }
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        let alongTop = corners[1] - corners[0] + corners[2] - corners[3]
        let towardTop = corners[0] - corners[3] + corners[1] - corners[2]
        let side = (length(corners[1] - corners[0]) + length(corners[2] - corners[3])) / 2
        guard side > 0, length(alongTop) > 0 else { return nil }
        let right = normalized(alongTop)
        var normal = cross(right, towardTop)
        guard length(normal) > 0 else { return nil }
        normal = normalized(normal)
        if dot(normal, centre - headCentre) < 0 { normal = -normal }
        self.centre = centre
        self.right = right
        self.up = cross(normal, right)
        self.normal = normal
        self.side = side
        covered = side / 2 * (1 + 2 * marginFraction) + edgeBlur
        ringOuter = covered + flattening.ringWidth
        reach = flattening.planeReach
    }

    /// `p` in the sticker's frame: x right, y up, z out of the head.
    func local(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let d = p - centre
        return SIMD3(dot(d, right), dot(d, up), dot(d, normal))
    }

    /// The mapped markers' centres within `reach` along this sticker's plane (its own among
    /// them): how far they spread off the plane that fits them best (RMS, metres). Nil with
    /// fewer than four.
    func offPlaneSpread(neighbours: [SIMD3<Double>], reach: Double) -> Double? {
        let points = neighbours.filter { p in
            let q = local(p)
            return q.x * q.x + q.y * q.y < reach * reach && abs(q.z) < reach
        }
        guard points.count >= 4 else { return nil }
        let mean = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        var scatter = [Double](repeating: 0, count: 9)
        for p in points {
            let d = p - mean
            for i in 0..<3 { for j in 0..<3 { scatter[i * 3 + j] += d[i] * d[j] / Double(points.count) } }
        }
        guard let smallest = SymmetricEigen.decompose(scatter, size: 3).values.first, smallest.isFinite else { return nil }
        return max(0, smallest).squareRoot()
    }

    /// How the surface the markers lie on curves under this sticker (1/metres, positive
    /// where it falls away from the paper as a head does): the median over mapped markers
    /// within `reach` of 2·drop/distance², each marker's centre below the sticker's plane by
    /// `drop` at `distance` along it. Nil with fewer than three such markers.
    func curvature(neighbours: [SIMD3<Double>], reach: Double) -> Double? {
        let estimates = neighbours.compactMap { centre -> Double? in
            let q = local(centre)
            let along = q.x * q.x + q.y * q.y
            guard along > 1e-6, along < reach * reach else { return nil }
            return -2 * q.z / along
        }
        guard estimates.count >= 3 else { return nil }
        return Statistics.upperMedian(estimates)
    }

    /// How far flat paper touching at its centre stands off a surface of this curvature at
    /// (`x`, `y`) in its plane, metres (the sagitta; zero where the surface does not fall away).
    func standoff(curvature: Double, at x: Double, _ y: Double) -> Double {
        max(0, curvature) * (x * x + y * y) / 2
    }

    func isNear(_ p: SIMD3<Double>) -> Bool {
        let q = local(p)
        return abs(q.z) < reach && max(abs(q.x), abs(q.y)) < ringOuter
    }

    func covers(_ p: SIMD3<Double>) -> Bool {
        let q = local(p)
        return abs(q.z) < reach && max(abs(q.x), abs(q.y)) <= covered
    }

    func isInRing(_ p: SIMD3<Double>) -> Bool {
        let q = local(p)
        let d = max(abs(q.x), abs(q.y))
        return abs(q.z) < reach && d > covered && d < ringOuter
    }

    /// The head around the sticker as a height field over its plane, fitted with Huber
    /// weights so that an ear's rim or a neighbour's edge does not pull it: cubic where the
    /// ring surrounds the label on every side, a quadric where it is patchy (a cubic fitted to
    /// a ring with gaps swings far under the paper: 8-11 mm in a twelve-frame scan); nil when
    /// the ring is too thin or open on a side (no surface to interpolate across).
    func fitHead(to points: [SIMD3<Double>]) -> HeightField? {
        let q = points.map(local)
        let sides = [
            q.contains { $0.x < -covered }, q.contains { $0.x > covered },
            q.contains { $0.y < -covered }, q.contains { $0.y > covered },
        ]
        guard q.count >= 24, sides.allSatisfy({ $0 }) else { return nil }
        return robustFit(q, degree: surroundsEveryWay(q) ? 3 : 2)
    }

    /// Whether every eighth of the way around the label holds a share of the ring's points.
    private func surroundsEveryWay(_ q: [SIMD3<Double>]) -> Bool {
        var sectors = [Int](repeating: 0, count: 8)
        for p in q {
            let angle = atan2(p.y, p.x) + Double.pi
            sectors[min(7, Int(angle / (Double.pi / 4)))] += 1
        }
        return sectors.allSatisfy { $0 >= 3 }
    }

    private func robustFit(_ q: [SIMD3<Double>], degree: Int) -> HeightField? {
        var weights = [Double](repeating: 1, count: q.count)
        var fit: HeightField?
        for _ in 0..<4 {
            guard let next = HeightField(fitting: q, weights: weights, degree: degree, scale: ringOuter) else { return fit }
            fit = next
            let residuals = q.map { abs($0.z - next.height($0.x, $0.y)) }
            // Huber at 1.5 robust sigmas (MAD), with a floor of a tenth of a millimetre.
            let mad = (Statistics.upperMedian(residuals) ?? 0) * 1.4826
            let k = 1.5 * max(mad, 0.0001)
            weights = residuals.map { $0 <= k ? 1 : k / $0 }
        }
        return fit
    }
}

/// A height field z = Σ c·xⁱyʲ (i + j ≤ degree). Cubic where the ring allows: a quadric
/// cannot follow a head whose curvature changes across the label, as at the rim of a
/// flattened patch, and there it cut up to a millimetre into the head (the slice's diagonal
/// through it came out short).
struct HeightField {
    let coefficients: [Double]
    let degree: Int
    /// Coordinates are divided by this (the ring's outer half-width) so that the normal
    /// equations of the higher terms stay well conditioned.
    let scale: Double

    init?(fitting points: [SIMD3<Double>], weights: [Double], degree: Int, scale: Double) {
        guard scale > 0, degree == 2 || degree == 3 else { return nil }
        let columns = degree == 3 ? 10 : 6
        var a: [Double] = [], b: [Double] = []
        a.reserveCapacity(points.count * columns)
        for (p, w) in zip(points, weights) {
            let s = w.squareRoot()
            a += Self.terms(p.x / scale, p.y / scale, degree: degree).map { $0 * s }
            b.append(p.z * s)
        }
        guard let x = try? LinearSolver.leastSquares(a, b, columns: columns), x.allSatisfy(\.isFinite) else { return nil }
        coefficients = x
        self.degree = degree
        self.scale = scale
    }

    private static func terms(_ x: Double, _ y: Double, degree: Int) -> [Double] {
        let quadric = [1, x, y, x * x, x * y, y * y]
        return degree == 3 ? quadric + [x * x * x, x * x * y, x * y * y, y * y * y] : quadric
    }

    func height(_ x: Double, _ y: Double) -> Double {
        zip(coefficients, Self.terms(x / scale, y / scale, degree: degree)).reduce(0) { $0 + $1.0 * $1.1 }
    }
}

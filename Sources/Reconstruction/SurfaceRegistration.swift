import Foundation
import Geometry
import Imaging
import Recording

/// Places a depth frame on the surface fused so far: the pose that puts its points on the
/// volume's zero crossing (Gauss–Newton on the interpolated signed distance, as in tracking
/// against a signed distance function), robust to points that do not belong (Huber), and held to
/// the predicted pose in the directions the surface does not fix (the back of a round head turns
/// about its centre without changing shape), so that the answer never wanders where the
/// geometry says nothing.
struct SurfaceRegistration: Sendable {
    /// Every how many pixels, across and down, a depth point is taken.
    var pixelStep = 4
    var iterations = 10
    /// Residual at which a point's weight starts to fall, metres (about the sensor's noise).
    var huber = 0.0015
    /// How far the prediction may be off: the prior's scale in rotation (radians) and
    /// translation (metres). Where the surface fixes a direction it outweighs the prior by far.
    var priorRotation = 3.0 * Double.pi / 180
    var priorTranslation = 0.004
    /// Fewest points that must land on the surface for an answer.
    var minimumPoints = 400
    /// The iterations stop when a step turns less than this (radians) and shifts less than
    /// `stopShift` (metres).
    var stopTurn = 1e-5
    var stopShift = 1e-5
    /// The colour term, where the frame's points carry a chroma and the volume fuses colour:
    /// the chroma's noise (a chroma residual of this size weighs as a depth residual of
    /// `huber`) and where its weight starts to fall. On a round vault a turn about the head's
    /// centre leaves the depth unchanged but moves a printed pattern, which this term sees.
    var chromaNoise = 0.04
    var chromaHuber = 0.08

    struct Result: Sendable {
        /// The frame's pose, camera to volume.
        var worldFromCamera: RigidTransform
        /// Points on the surface at the end.
        var points: Int
        /// Root mean square of their distances to the surface, metres.
        var rms: Double
        /// The same two at the predicted pose.
        var predictedPoints: Int
        var predictedRMS: Double

        /// Whether the surface fits the frame clearly better where it placed it than where it
        /// was predicted.
        var improves: Bool { SurfaceRegistration.improves(points, rms, over: predictedPoints, predictedRMS) }
    }

    /// Registers `depth` (a pinhole frame) starting from `predicted`, using only points inside
    /// `region`; nil when too few points meet the fused surface.
    func register(
        depth: DepthImage, intrinsics k: CameraIntrinsics, predicted: RigidTransform, volume: TSDFVolume, region: FusionRegion
    ) -> Result? {
        register(points: samples(depth, intrinsics: k, near: predicted, region: region), predicted: predicted, volume: volume, about: region.centre)
    }

    /// Registers `points` (in the frame `predicted` maps from) on the volume's surface,
    /// starting from `predicted`, the turns taken about `centre`; with `chroma` (one per point,
    /// NaN where the colour picture has none) and a volume that fuses colour, the points' colour
    /// is matched to the surface's too.
    func register(
        points: [SIMD3<Double>], chroma: [Double]? = nil, predicted: RigidTransform, volume: TSDFVolume, about centre: SIMD3<Double>
    ) -> Result? {
        guard points.count >= minimumPoints else { return nil }
        let colours = volume.fusesColor ? chroma.flatMap { $0.count == points.count ? $0 : nil } : nil
        let chromaScale = (huber / chromaNoise) * (huber / chromaNoise)
        var pose = predicted
        // The increment from the prediction: rotation vector about `centre`, then translation.
        var total = [Double](repeating: 0, count: 6)
        var last: (points: Int, rms: Double) = (0, .infinity)
        var first: (points: Int, rms: Double)?
        let sampler = volume.sampler
        for _ in 0..<iterations {
            var equations = NormalEquations6()
            var used = 0, squares = 0.0
            for (i, p) in points.enumerated() {
                let w = pose.apply(p)
                let colour = colours?[i] ?? .nan
                // Read together when the point has a colour: one walk over the voxels around it.
                let sample: (distance: Double, gradient: SIMD3<Double>, chroma: (value: Double, gradient: SIMD3<Double>)?)?
                if colour.isFinite {
                    sample = sampler.surfaceAndChroma(at: w)
                } else {
                    sample = sampler.signedDistance(at: w).map { ($0.distance, $0.gradient, nil) }
                }
                guard let (r, g, chroma) = sample, (g * g).sum() > 0.25 else { continue }
                let q = w - centre
                equations.add(cross(q, g), g, residual: r, weight: abs(r) <= huber ? 1 : huber / abs(r))
                used += 1
                squares += r * r
                // The colour near where the point meets the surface (within the band, the colour
                // seen along the view through it), and how it changes along the surface (a
                // motion along the normal is the depth's to fix).
                guard let (c, gradient) = chroma else { continue }
                let n = g / (g * g).sum().squareRoot()
                let along = gradient - n * dot(gradient, n)
                let rc = c - colour
                equations.add(cross(q, along), along, residual: rc, weight: chromaScale * (abs(rc) <= chromaHuber ? 1 : chromaHuber / abs(rc)))
            }
            guard used >= minimumPoints else { return nil }
            last = (used, (squares / Double(used)).squareRoot())
            if first == nil { first = last }
            var (h, b) = equations.arrays
            // The data in units of the sensor's noise; the prior pulls the total increment back.
            let noise = 1 / (huber * huber)
            for row in 0..<6 {
                b[row] *= noise
                for column in row..<6 { h[row * 6 + column] *= noise }
                for column in 0..<row { h[row * 6 + column] = h[column * 6 + row] }
                let prior = row < 3 ? 1 / (priorRotation * priorRotation) : 1 / (priorTranslation * priorTranslation)
                h[row * 6 + row] += prior
                b[row] += prior * total[row]
            }
            guard let step = Cholesky.solve(&h, b.map { -$0 }, 6), step.allSatisfy(\.isFinite) else { return nil }
            for i in 0..<6 { total[i] += step[i] }
            pose = Self.moved(pose, by: step, about: centre)
            let rotation = (step[0] * step[0] + step[1] * step[1] + step[2] * step[2]).squareRoot()
            let translation = (step[3] * step[3] + step[4] * step[4] + step[5] * step[5]).squareRoot()
            if rotation < stopTurn, translation < stopShift { break }
        }
        return Result(
            worldFromCamera: pose, points: last.points, rms: last.rms, predictedPoints: first?.points ?? 0, predictedRMS: first?.rms ?? .infinity)
    }

    /// Whether a fit with `points` on the surface at `rms` is clearly better than one with
    /// `otherPoints` at `otherRMS`: more points on it, or closer by more than the
    /// interpolation's own scatter (0.2 mm).
    static func improves(_ points: Int, _ rms: Double, over otherPoints: Int, _ otherRMS: Double) -> Bool {
        Double(points) > 1.1 * Double(otherPoints) || (rms < 0.8 * otherRMS && otherRMS - rms > 0.0002)
    }

    /// How well the frame lies on the surface at `pose`: the points within reach of it and
    /// their root mean square distance, metres.
    func agreement(
        depth: DepthImage, intrinsics k: CameraIntrinsics, pose: RigidTransform, volume: TSDFVolume, region: FusionRegion
    )
        -> (points: Int, rms: Double)
    {
        var used = 0, squares = 0.0
        let sampler = volume.sampler
        for p in samples(depth, intrinsics: k, near: pose, region: region) {
            guard let (r, _) = sampler.signedDistance(at: pose.apply(p)) else { continue }
            used += 1
            squares += r * r
        }
        return (used, used > 0 ? (squares / Double(used)).squareRoot() : .infinity)
    }

    /// The frame's depth points (camera frame) that the prediction puts inside the region,
    /// each with the chroma of the colour picture where it falls (bilinear; NaN off the
    /// picture).
    func colouredSamples(
        _ frame: RGBDFrame, near predicted: RigidTransform, region: FusionRegion
    ) -> (
        points: [SIMD3<Double>], chroma: [Double]
    ) {
        let points = samples(frame.depth, intrinsics: frame.depthIntrinsics, near: predicted, region: region)
        let picture = frame.color, k = frame.colorIntrinsics
        let chroma = points.map { p -> Double in
            guard p.z > 0 else { return .nan }
            let x = k.fx * p.x / p.z + k.cx, y = k.fy * p.y / p.z + k.cy
            guard x >= 0, y >= 0, x < Double(picture.width - 1), y < Double(picture.height - 1) else { return .nan }
            let x0 = Int(x), y0 = Int(y)
            let fx = x - Double(x0), fy = y - Double(y0)
            func at(_ u: Int, _ v: Int) -> SIMD3<Float> {
                let c = picture.pixels[v * picture.width + u]
                return SIMD3(Float(c.r), Float(c.g), Float(c.b))
            }
            let top = at(x0, y0) * Float(1 - fx) + at(x0 + 1, y0) * Float(fx)
            let bottom = at(x0, y0 + 1) * Float(1 - fx) + at(x0 + 1, y0 + 1) * Float(fx)
            return TSDFVolume.chroma(top * Float(1 - fy) + bottom * Float(fy))
        }
        return (points, chroma)
    }

    /// The frame's depth points (camera frame) that the prediction puts inside the region.
    func samples(
        _ depth: DepthImage, intrinsics k: CameraIntrinsics, near predicted: RigidTransform, region: FusionRegion
    )
        -> [SIMD3<Double>]
    {
        var points: [SIMD3<Double>] = []
        points.reserveCapacity(depth.width * depth.height / (pixelStep * pixelStep))
        depth.forEachPoint(step: pixelStep, intrinsics: k) { _, _, p in
            if region.contains(predicted.apply(p)) { points.append(p) }
        }
        return points
    }

    /// `pose` turned by the rotation vector `step[0..<3]` about `centre`, then shifted by
    /// `step[3..<6]`.
    static func moved(_ pose: RigidTransform, by step: [Double], about centre: SIMD3<Double>) -> RigidTransform {
        let omega = SIMD3(step[0], step[1], step[2])
        let angle = length(omega)
        let turn = angle > 0 ? Rotation3(axis: omega / angle, angle: angle) : .identity
        let about = RigidTransform(rotation: turn, translation: centre - turn.apply(centre) + SIMD3(step[3], step[4], step[5]))
        return about * pose
    }
}

/// The Gauss–Newton normal equations of a six-parameter pose (turn, then shift), summed point
/// by point in registers: each row of `JᵀWJ` a SIMD8 (lanes 6 and 7 unused), `JᵀWr` another.
/// Only the upper triangle is read (`arrays`); each entry is summed exactly as an entry of a
/// 6×6 array would be, term by term in the same order.
struct NormalEquations6 {
    private var rows = (SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>())
    private var b = SIMD8<Double>()

    /// One residual `r` with Jacobian (`turn`, `shift`) and weight `w`.
    @inline(__always)
    mutating func add(_ turn: SIMD3<Double>, _ shift: SIMD3<Double>, residual r: Double, weight w: Double) {
        let j = SIMD8(turn.x, turn.y, turn.z, shift.x, shift.y, shift.z, 0, 0)
        let wj = w * j
        b += wj * r
        rows.0 += wj[0] * j
        rows.1 += wj[1] * j
        rows.2 += wj[2] * j
        rows.3 += wj[3] * j
        rows.4 += wj[4] * j
        rows.5 += wj[5] * j
    }

    /// `JᵀWJ` row-major (its upper triangle; the lower as summed) and `JᵀWr`.
    var arrays: (h: [Double], b: [Double]) {
        var h = [Double](repeating: 0, count: 36)
        for column in 0..<6 {
            h[column] = rows.0[column]
            h[6 + column] = rows.1[column]
            h[12 + column] = rows.2[column]
            h[18 + column] = rows.3[column]
            h[24 + column] = rows.4[column]
            h[30 + column] = rows.5[column]
        }
        return (h, (0..<6).map { b[$0] })
    }
}

import Foundation
import Geometry

/// Undoes the slant of a camera that does not look exactly at the leg's side. The leg moves
/// in one plane; seen at a slant, the picture shows that plane foreshortened and in
/// perspective, so angles in the picture are not the knee's. The thigh and the shank keep
/// their lengths in every frame, which fixes the plane: of all planes through which the
/// camera could see the joints, the one on which every frame's thigh and shank come out
/// equally long. Where the knee bends little the lengths say little, and a turn toward the
/// patient's front and one toward the back fit about equally; the other hip settles both,
/// since it lies behind the measured one along the plane's normal. The search assumes a
/// phone's usual field of view; the angles are then read in that plane, as if filmed square on.
struct SlantCorrection {
    /// The plane's unit normal in camera coordinates (x right, y down, z forward), at unit
    /// distance from the camera.
    let normal: SIMD3<Double>
    /// Focal length and principal point assumed, pixels.
    let focal: Double
    let centre: SIMD2<Double>
    /// How far off square the camera looked at the plane, degrees, and the standard error.
    let viewDegrees: Double
    let uncertaintyDegrees: Double
    /// The plane's turn about the picture's vertical and horizontal, degrees, and the standard
    /// error of each, for how far the angles read on it could move.
    let yaw: Double, pitch: Double
    let yawError: Double, pitchError: Double
    /// Whether the lengths and hips show a slant clearly (else the plane is the square view,
    /// kept for how far a slant too small to show could move the angles).
    let found: Bool
    /// The plane found again with the focal length a standard deviation shorter and longer
    /// (`focalSpread`), when a slant was found: how far the angles move with the phone's own
    /// field of view.
    var refocused: [SlantCorrection] = []

    /// Fewer frames than this give no estimate.
    static let minimumFrames = 10
    /// A segment's relative length misfit counts at most this much, so that a frame with
    /// swapped joints cannot pull the plane.
    static let misfitCap = 0.06
    /// The search's reach: yaw about the picture's vertical, pitch about its horizontal.
    static let yawLimit = 75.0, pitchLimit = 40.0
    /// The prior's spread of slants, degrees.
    static let priorDegrees = 20.0
    /// The F statistic above which a slant counts as found (2 and about 100 degrees of
    /// freedom: 10 is a chance of about 1 in 10 000 that noise alone fits that much better).
    static let significance = 10.0

    /// The plane from each frame's hip, knee and ankle in pixels, and where the pose model
    /// put the other hip in that frame when it found it; nil when too few frames.
    /// `fieldOfView` spans the picture's longer side, degrees.
    static func estimate(
        frames: [[SIMD2<Double>]], otherHips: [SIMD2<Double>?], width: Double, height: Double, fieldOfView: Double
    ) -> SlantCorrection? {
        guard frames.count >= minimumFrames else { return nil }
        let focal = max(width, height) / 2 / tan(fieldOfView / 2 * .pi / 180)
        let centre = SIMD2(width / 2, height / 2)
        let problem = PlaneProblem(frames: frames, otherHips: otherHips, focal: focal, centre: centre)
        // A bent knee seen turned by +a and by -a differs only in perspective, so the lengths
        // alone often fit both about equally: the best plane is found on each side, and the
        // side of the measured hip the other one lies on tells them apart.
        let sides = bestPlanes(problem.objective)
        let evidence = sides.map { side in
            problem.hipLine.map { HipEvidence(normal: PlaneCost.normal(yaw: side.yaw, pitch: side.pitch), line: $0) }
        }
        let best = chooseSide(sides, evidence: evidence)
        // Kept only when it explains the lengths and the hips clearly better than filming
        // square on: an F test on the two added unknowns.
        let slanted = problem.cost(yaw: best.yaw, pitch: best.pitch)
        let f =
            ((problem.square - slanted) / (slanted / Double(problem.observations - 4)) + problem.hipMisfit(0, 0)
                - problem.hipMisfit(best.yaw, best.pitch)) / 2
        let found = f > significance
        var plane = problem.correction(yaw: found ? best.yaw : 0, pitch: found ? best.pitch : 0, found: found)
        // The phone's field of view is assumed, not known: the plane found again, from the
        // best one, with the focal length that much shorter and longer.
        if found {
            plane.refocused = [1 - focalSpread, 1 + focalSpread].map { factor in
                let other = PlaneProblem(frames: frames, otherHips: otherHips, focal: focal * factor, centre: centre)
                let again = refine(best, side: best.yaw >= 0 ? 0 : 1, other.objective)
                return other.correction(yaw: again.yaw, pitch: again.pitch, found: true)
            }
        }
        return plane
    }

    /// The standard deviation of phones' focal lengths about the one the field of view gives,
    /// as a share: their main cameras span about 23-30 mm equivalent, ±15 % about the 26 mm of
    /// the assumed 69°, which as a uniform spread is a standard deviation of 0.15/√3.
    static let focalSpread = 0.15 / 3.0.squareRoot()

    /// The same camera's view of the plane turned by `yaw` and `pitch` degrees.
    func turned(yaw dy: Double, pitch dp: Double) -> SlantCorrection {
        let normal = PlaneCost.normal(yaw: yaw + dy, pitch: pitch + dp)
        return SlantCorrection(
            normal: normal, focal: focal, centre: centre, viewDegrees: acos(min(1, normal.z)) * 180 / .pi,
            uncertaintyDegrees: uncertaintyDegrees, yaw: yaw + dy, pitch: pitch + dp, yawError: yawError,
            pitchError: pitchError, found: found)
    }

    /// The largest turn of the plane, in each direction, that the error propagation tries:
    /// past it the lengths said nothing, and the angle's spread is no longer the plane's.
    static let largestTurn = 15.0

    /// The standard error that the plane's own errors give an angle read on it: `angle` is
    /// read with the joints mapped onto the plane turned by one standard error either way,
    /// in yaw and in pitch, and onto the planes found with the focal length a standard
    /// deviation off, and the half-differences are added in quadrature. A slant moves
    /// a bent knee's angle far more than a straight one's, and a square view's angles only to
    /// second order, which the differences keep and a derivative at the plane would not.
    func angleError(_ angle: ((SIMD2<Double>) -> SIMD2<Double>) -> Double?) -> Double {
        let dy = min(yawError, Self.largestTurn), dp = min(pitchError, Self.largestTurn)
        func spread(_ a: SlantCorrection, _ b: SlantCorrection) -> Double {
            guard let x = angle(a.apply), let y = angle(b.apply), let here = angle(apply) else { return 0 }
            // Either side's move from here, the larger: at a square view both move one way.
            return max(abs(x - here), abs(y - here), abs(x - y) / 2)
        }
        let yawPart = spread(turned(yaw: dy, pitch: 0), turned(yaw: -dy, pitch: 0))
        let pitchPart = spread(turned(yaw: 0, pitch: dp), turned(yaw: 0, pitch: -dp))
        let focalPart = refocused.count == 2 ? spread(refocused[0], refocused[1]) : 0
        return (yawPart * yawPart + pitchPart * pitchPart + focalPart * focalPart).squareRoot()
    }

    typealias Plane = (yaw: Double, pitch: Double, value: Double)

    /// The plane with the smallest objective turned right (yaw ≥ 0) and turned left: a grid
    /// over the whole reach, then finer grids around each side's best.
    private static func bestPlanes(_ objective: (Double, Double) -> Double) -> [Plane] {
        var sides: [Plane] = [(0, 0, objective(0, 0)), (0, 0, objective(0, 0))]
        for yaw in stride(from: -yawLimit, through: yawLimit, by: 3) {
            for pitch in stride(from: -pitchLimit + 1, through: pitchLimit - 1, by: 3) {
                let value = objective(yaw, pitch), side = yaw >= 0 ? 0 : 1
                if value < sides[side].value { sides[side] = (yaw, pitch, value) }
            }
        }
        return sides.indices.map { side in refine(sides[side], side: side, objective) }
    }

    /// The plane of smallest objective near `start`, on its side (0: yaw ≥ 0), by ever finer grids.
    private static func refine(_ start: Plane, side: Int, _ objective: (Double, Double) -> Double) -> Plane {
        var best = (start.yaw, start.pitch, objective(start.yaw, start.pitch))
        for step in [0.75, 0.2, 0.05] {
            let around = best
            for yaw in stride(from: around.0 - 4 * step, through: around.0 + 4 * step, by: step)
            where abs(yaw) <= yawLimit && (side == 0 ? yaw >= 0 : yaw <= 0) {
                for pitch in stride(from: around.1 - 4 * step, through: around.1 + 4 * step, by: step) where abs(pitch) <= pitchLimit {
                    let value = objective(yaw, pitch)
                    if value < best.2 { best = (yaw, pitch, value) }
                }
            }
        }
        return best
    }

    /// The side whose plane puts the other hip where the picture shows it, when the hips
    /// say so clearly; otherwise the side that fits better.
    private static func chooseSide(_ sides: [Plane], evidence: [HipEvidence?]) -> Plane {
        let lengths = sides[0].value <= sides[1].value ? 0 : 1
        guard let a = evidence[0], let b = evidence[1] else { return sides[lengths] }
        if a.agrees && b.disagrees { return sides[0] }
        if b.agrees && a.disagrees { return sides[1] }
        return sides[lengths]
    }

    /// Where the picture point `p` lies in the plane, in pixels of a camera square on to it
    /// at the same distance: x along the plane's picture-right direction, y down.
    func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let ray = SIMD3((p.x - centre.x) / focal, (p.y - centre.y) / focal, 1)
        let point = ray / max(PlaneCost.dot(normal, ray), 1e-9)
        let right = PlaneCost.normalised(SIMD3(1, 0, 0) - normal.x * normal)
        let down = PlaneCost.cross(normal, right)
        return centre + focal * SIMD2(PlaneCost.dot(point, right), PlaneCost.dot(point, down))
    }
}

/// What the plane search minimises for one focal length: the segments' length misfit, a
/// prior toward the square view scaled by the misfit filmed square on, and the other hip's
/// misfit.
private struct PlaneProblem {
    let cost: PlaneCost
    let hipLine: HipLine?
    let focal: Double
    let centre: SIMD2<Double>
    /// Two lengths per frame.
    let observations: Int
    /// The cost filmed square on.
    let square: Double
    /// The misfit per segment filmed square on.
    let noise: Double

    init(frames: [[SIMD2<Double>]], otherHips: [SIMD2<Double>?], focal: Double, centre: SIMD2<Double>) {
        self.focal = focal
        self.centre = centre
        let rays = frames.map { $0.map { SIMD3(($0.x - centre.x) / focal, ($0.y - centre.y) / focal, 1) } }
        cost = PlaneCost(rays: rays)
        observations = rays.count * 2
        square = cost(yaw: 0, pitch: 0)
        // The misfit per segment when filmed square on sets the scale of the prior that
        // prefers the smaller slant among planes the lengths cannot tell apart.
        noise = square / Double(observations - 4)
        // The other hip lies behind the measured one along the plane's normal, so the line
        // through the hips in the picture passes through the normal's vanishing point.
        let hips = zip(frames, otherHips).compactMap { joints, other in other.map { (joints[0], $0) } }
        let knees = zip(frames, otherHips).compactMap { joints, other in other.map { _ in joints[1] } }
        hipLine = HipLine(hips: hips, knees: knees, focal: focal, centre: centre)
    }

    func hipMisfit(_ yaw: Double, _ pitch: Double) -> Double {
        hipLine.map { $0.chiSquare(HipEvidence(normal: PlaneCost.normal(yaw: yaw, pitch: pitch), line: $0)) } ?? 0
    }

    func objective(_ yaw: Double, _ pitch: Double) -> Double {
        let prior = (yaw * yaw + pitch * pitch) / (SlantCorrection.priorDegrees * SlantCorrection.priorDegrees)
        return cost(yaw: yaw, pitch: pitch) + noise * (prior + hipMisfit(yaw, pitch))
    }

    /// The correction onto the plane turned by `yaw` and `pitch`, with its errors.
    func correction(yaw: Double, pitch: Double, found: Bool) -> SlantCorrection {
        let normal = PlaneCost.normal(yaw: yaw, pitch: pitch)
        let errors = cost.errors(yaw: yaw, pitch: pitch, observations: observations)
        return SlantCorrection(
            normal: normal, focal: focal, centre: centre, viewDegrees: acos(min(1, normal.z)) * 180 / .pi,
            uncertaintyDegrees: min(90, (errors.yaw * errors.yaw + errors.pitch * errors.pitch).squareRoot()),
            yaw: yaw, pitch: pitch, yawError: errors.yaw, pitchError: errors.pitch, found: found)
    }
}

/// Each frame's measured and other hip in pixels, and how far the pose model's hips scatter.
private struct HipLine {
    let hips: [(SIMD2<Double>, SIMD2<Double>)]
    /// The measured leg's knee in the same frames, for the thigh's length on a plane.
    let knees: [SIMD2<Double>]
    let focal: Double
    let centre: SIMD2<Double>
    /// The scatter of one frame's other hip across the line, pixels.
    let scatter: Double

    /// Fewer frames with both hips give no evidence.
    static let minimumFrames = 8
    /// How far the line through the hips may turn from the plane's normal: the pelvis turns a
    /// little against the moving leg, and the pose model's hips are not the joints' centres.
    static let misalignmentDegrees = 5.0
    /// The hips lie this many thigh lengths apart (typical adults: about 18 over 43 cm), give
    /// or take this share (people differ, and the pose model's hips are not the joints).
    static let spacingPerThigh = 0.42, spacingSpread = 0.3

    init?(hips: [(SIMD2<Double>, SIMD2<Double>)], knees: [SIMD2<Double>], focal: Double, centre: SIMD2<Double>) {
        guard hips.count >= Self.minimumFrames, knees.count == hips.count else { return nil }
        self.hips = hips
        self.knees = knees
        self.focal = focal
        self.centre = centre
        // The scatter about the median does not depend on the plane; the square view's
        // vanishing point (the picture's centre) serves.
        scatter = max(0.5, Statistics.robustSigma(HipEvidence.parts(hips, toward: centre).map(\.y)))
    }

    /// The squared offsets of the other hip across the line the plane predicts and along it
    /// from where the plane puts it, each in units of its expected spread: the median's
    /// scatter, a steady offset of the pose model's hips as large as one frame's scatter
    /// (which no number of frames averages away), and across, the allowed misalignment,
    /// along, the spread of people's hip spacing.
    func chiSquare(_ evidence: HipEvidence) -> Double {
        guard evidence.expectedOffset.isFinite else { return .infinity }
        let medianError = 1.2533 * scatter / Double(hips.count).squareRoot()
        let noise = medianError * medianError + scatter * scatter
        let turn = evidence.offset * tan(Self.misalignmentDegrees * .pi / 180)
        let spacing = evidence.expectedOffset * Self.spacingSpread
        let along = evidence.offset - evidence.expectedOffset
        return evidence.across * evidence.across / (noise + turn * turn) + along * along / (noise + spacing * spacing)
    }

    /// The median over frames of how far, in pixels, the other hip would lie from the
    /// measured one on the plane with `normal`: behind it along the normal by the usual
    /// spacing, in thigh lengths measured on that plane. Infinite when a joint's ray misses
    /// the plane.
    func expectedOffset(normal: SIMD3<Double>) -> Double {
        func ray(_ p: SIMD2<Double>) -> SIMD3<Double> { SIMD3((p.x - centre.x) / focal, (p.y - centre.y) / focal, 1) }
        var thighs: [Double] = [], hipPoints: [SIMD3<Double>] = []
        for ((hip, _), knee) in zip(hips, knees) {
            let h = ray(hip), k = ray(knee)
            let hipDepth = PlaneCost.dot(normal, h), kneeDepth = PlaneCost.dot(normal, k)
            guard hipDepth > 0.05, kneeDepth > 0.05 else { return .infinity }
            hipPoints.append(h / hipDepth)
            thighs.append(PlaneCost.length(k / kneeDepth - h / hipDepth))
        }
        let behind = Self.spacingPerThigh * Statistics.selectedMedian(thighs) * normal
        let offsets = zip(hips, hipPoints).map { pair, point in
            let other = point + behind
            let seen = centre + focal * SIMD2(other.x, other.y) / other.z
            let d = seen - pair.0
            return (d * d).sum().squareRoot()
        }
        return Statistics.selectedMedian(offsets)
    }
}

/// Where the other hip lies from the measured one, against where a plane says it should:
/// the other one is the farther from the camera, so in the picture it lies from the measured
/// hip toward the point where lines along the normal meet (the normal's vanishing point).
private struct HipEvidence {
    /// The median over frames of the other hip's offset toward the vanishing point, pixels.
    let offset: Double
    /// The median offset across that direction, pixels: 0 when the plane is right.
    let across: Double
    /// Where the plane says the other hip should lie along that direction, pixels.
    let expectedOffset: Double
    /// Each frame's offset toward the vanishing point, for the standard error.
    private let along: [Double]

    /// How many standard errors make the hips' word clear.
    static let clear = 3.0

    init(normal: SIMD3<Double>, line: HipLine) {
        // A normal at right angles to the optical axis has its vanishing point at infinity.
        let z = max(normal.z, 1e-6)
        let parts = Self.parts(line.hips, toward: line.centre + line.focal * SIMD2(normal.x, normal.y) / z)
        along = parts.map(\.x)
        offset = Statistics.selectedMedian(along)
        across = Statistics.selectedMedian(parts.map(\.y))
        expectedOffset = line.expectedOffset(normal: normal)
    }

    /// The standard error of `offset`: the median's is about 1.25 times the mean's. Only the
    /// choice of side needs it, so the plane search does not pay for it.
    var standardError: Double { max(1e-9, 1.2533 * Statistics.robustSigma(along) / Double(along.count).squareRoot()) }

    /// Each frame's other-hip offset along and across the direction from the measured hip to
    /// `point`.
    static func parts(_ hips: [(SIMD2<Double>, SIMD2<Double>)], toward point: SIMD2<Double>) -> [SIMD2<Double>] {
        hips.map { hip, other in
            let toward = point - hip, length = (toward * toward).sum().squareRoot()
            guard length > 0 else { return .zero }
            let d = other - hip, u = toward / length
            return SIMD2((d * u).sum(), d.y * u.x - d.x * u.y)
        }
    }

    var agrees: Bool { offset > Self.clear * standardError }
    var disagrees: Bool { offset < -Self.clear * standardError }
}

/// How unequal the thigh's and shank's lengths come out on a candidate plane.
private struct PlaneCost {
    /// Each frame's hip, knee and ankle rays.
    let rays: [[SIMD3<Double>]]

    /// The sum over frames of the capped squared relative misfit of the thigh's and shank's
    /// lengths from their medians; infinite when a joint's ray misses the plane.
    func callAsFunction(yaw: Double, pitch: Double) -> Double {
        let n = Self.normal(yaw: yaw, pitch: pitch)
        var thighs: [Double] = [], shanks: [Double] = []
        thighs.reserveCapacity(rays.count)
        shanks.reserveCapacity(rays.count)
        for joints in rays {
            let depths = joints.map { Self.dot(n, $0) }
            guard depths.allSatisfy({ $0 > 0.05 }) else { return .infinity }
            let hip = joints[0] / depths[0], knee = joints[1] / depths[1], ankle = joints[2] / depths[2]
            thighs.append(Self.length(knee - hip))
            shanks.append(Self.length(ankle - knee))
        }
        return Self.misfit(thighs) + Self.misfit(shanks)
    }

    /// The standard errors of the plane's yaw and pitch, degrees, from the cost's curvature
    /// and the misfit left at the minimum; 90 where the cost does not curve up.
    func errors(yaw: Double, pitch: Double, observations: Int) -> (yaw: Double, pitch: Double) {
        let h = 0.5, c0 = self(yaw: yaw, pitch: pitch)
        let cyy = (self(yaw: yaw + h, pitch: pitch) - 2 * c0 + self(yaw: yaw - h, pitch: pitch)) / (h * h)
        let cpp = (self(yaw: yaw, pitch: pitch + h) - 2 * c0 + self(yaw: yaw, pitch: pitch - h)) / (h * h)
        let variance = c0 / Double(max(1, observations - 4))
        // Cost = Σ r², so its Hessian is 2 JᵀJ and the covariance variance · 2 H⁻¹.
        func error(_ curvature: Double) -> Double {
            guard curvature > 0, variance.isFinite else { return 90 }
            return min(90, (2 * variance / curvature).squareRoot())
        }
        return (error(cyy), error(cpp))
    }

    private static func misfit(_ lengths: [Double]) -> Double {
        let median = Statistics.selectedMedian(lengths)
        guard median > 0 else { return .infinity }
        return lengths.reduce(0) { sum, l in
            let r = l / median - 1
            return sum + min(r * r, SlantCorrection.misfitCap * SlantCorrection.misfitCap)
        }
    }

    /// The plane's normal turned from the optical axis by `yaw` about the picture's vertical
    /// and `pitch` about its horizontal, degrees.
    static func normal(yaw: Double, pitch: Double) -> SIMD3<Double> {
        let a = yaw * .pi / 180, b = pitch * .pi / 180
        return SIMD3(sin(a) * cos(b), sin(b), cos(a) * cos(b))
    }

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
    static func length(_ v: SIMD3<Double>) -> Double { dot(v, v).squareRoot() }
    static func normalised(_ v: SIMD3<Double>) -> SIMD3<Double> { v / length(v) }
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}

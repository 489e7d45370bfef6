import Foundation

/// Undoes the slant of a camera that does not look exactly at the leg's side. The leg moves
/// in one plane; seen at a slant, the picture shows that plane foreshortened and in
/// perspective, so angles in the picture are not the knee's. The thigh and the shank keep
/// their lengths in every frame, which fixes the plane: of all planes through which the
/// camera could see the joints, the one on which every frame's thigh and shank come out
/// equally long. The search assumes a phone's usual field of view; the angles are then read
/// in that plane, as if filmed square on.
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

    /// The plane from each frame's hip, knee and ankle in pixels; nil when too few frames.
    /// `fieldOfView` spans the picture's longer side, degrees.
    static func estimate(frames: [[SIMD2<Double>]], width: Double, height: Double, fieldOfView: Double) -> SlantCorrection? {
        guard frames.count >= minimumFrames else { return nil }
        let focal = max(width, height) / 2 / tan(fieldOfView / 2 * .pi / 180)
        let centre = SIMD2(width / 2, height / 2)
        let rays = frames.map { $0.map { SIMD3(($0.x - centre.x) / focal, ($0.y - centre.y) / focal, 1) } }
        let cost = PlaneCost(rays: rays)
        let observations = rays.count * 2
        let square = cost(yaw: 0, pitch: 0)
        // The misfit per segment when filmed square on sets the scale of the prior that
        // prefers the smaller slant among planes the lengths cannot tell apart (a bent knee
        // seen at +a and -a differs only in perspective).
        let noise = square / Double(observations - 4)
        func objective(_ yaw: Double, _ pitch: Double) -> Double {
            cost(yaw: yaw, pitch: pitch) + noise * (yaw * yaw + pitch * pitch) / (priorDegrees * priorDegrees)
        }
        var best = (yaw: 0.0, pitch: 0.0, value: objective(0, 0))
        for step in [3.0, 0.75, 0.2, 0.05] {
            let reach = step == 3 ? yawLimit : step * 4
            let around = best
            for yaw in stride(from: around.yaw - reach, through: around.yaw + reach, by: step) where abs(yaw) <= yawLimit {
                for pitch in stride(from: around.pitch - min(reach, pitchLimit), through: around.pitch + min(reach, pitchLimit), by: step)
                where abs(pitch) <= pitchLimit {
                    let value = objective(yaw, pitch)
                    if value < best.value { best = (yaw, pitch, value) }
                }
            }
        }
        // Kept only when it explains the lengths clearly better than filming square on: an
        // F test on the two added unknowns.
        let slanted = cost(yaw: best.yaw, pitch: best.pitch)
        let f = (square - slanted) / 2 / (slanted / Double(observations - 4))
        guard f > significance else { return nil }
        let normal = PlaneCost.normal(yaw: best.yaw, pitch: best.pitch)
        return SlantCorrection(
            normal: normal, focal: focal, centre: centre, viewDegrees: acos(min(1, normal.z)) * 180 / .pi,
            uncertaintyDegrees: cost.uncertainty(yaw: best.yaw, pitch: best.pitch, observations: observations))
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

    /// The standard error of the plane's angle, degrees, from the cost's curvature and the
    /// misfit left at the minimum.
    func uncertainty(yaw: Double, pitch: Double, observations: Int) -> Double {
        let h = 0.5, c0 = self(yaw: yaw, pitch: pitch)
        let cyy = (self(yaw: yaw + h, pitch: pitch) - 2 * c0 + self(yaw: yaw - h, pitch: pitch)) / (h * h)
        let cpp = (self(yaw: yaw, pitch: pitch + h) - 2 * c0 + self(yaw: yaw, pitch: pitch - h)) / (h * h)
        let variance = c0 / Double(max(1, observations - 4))
        guard cyy > 0, cpp > 0, variance.isFinite else { return 90 }
        // Cost = Σ r², so its Hessian is 2 JᵀJ and the covariance variance · 2 H⁻¹.
        return min(90, (2 * variance / cyy + 2 * variance / cpp).squareRoot())
    }

    private static func misfit(_ lengths: [Double]) -> Double {
        let median = RunningMedian.median(lengths)
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

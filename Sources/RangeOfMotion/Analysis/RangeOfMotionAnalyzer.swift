import Geometry

/// Measures a knee's range of motion from the poses of one video: gates each frame, reads
/// the knee angle, smooths it over time and takes its smallest and largest value.
public struct RangeOfMotionAnalyzer: Sendable {
    public let settings: RangeOfMotionSettings

    /// An analyser with checked settings.
    public init(settings: RangeOfMotionSettings = RangeOfMotionSettings()) throws(RangeOfMotionError) {
        try settings.validate()
        self.settings = settings
    }

    /// The measurement of `side`'s knee. A video with too few good frames is not an error
    /// here: the analysis says so (`accepted`), so that its reasons can be shown.
    public func analyze(_ poses: PoseSequence, side: BodySide) throws(RangeOfMotionError) -> RangeOfMotionAnalysis {
        try poses.validate()
        let gates = FrameGates(settings: settings, width: poses.width, height: poses.height, side: side)
        let legs = poses.frames.map { FrameLegs($0, side: side) }
        var reasons = legs.map(gates.basicReason)
        let sense = FlexionSense.estimate(reasons.indices.compactMap { reasons[$0] == nil ? legs[$0] : nil })
        for i in reasons.indices where reasons[i] == nil {
            reasons[i] = gates.orderReason(legs[i]!, flexionSense: sense)
        }
        let posture = reasons
        applySwapGate(legs, &reasons, flexionSense: sense)
        applyLengthGate(legs, &reasons)
        // The slant is found from the frames that pass in the picture; the gates then judge
        // every frame again with the slant undone.
        let plane = settings.correctSlant ? slantCorrection(legs, reasons, poses) : nil
        let slant = plane.flatMap { $0.found ? $0 : nil }
        let measured = slant.map { c in legs.map { $0?.mapped(c.apply) } } ?? legs
        if slant != nil {
            reasons = posture
            applySwapGate(measured, &reasons, flexionSense: sense)
            applyLengthGate(measured, &reasons)
        }
        let reading = settings.detectHyperextension ? sense : nil
        let angles = measured.map { leg in
            leg.flatMap { KneeAngle.onFlexionSide(hip: $0.hip.position, knee: $0.knee.position, ankle: $0.ankle.position, flexionSense: reading) }
        }
        applyAngleSpeedGate(poses, angles, &reasons)
        let frames = frameResults(poses, angles: angles, reasons: reasons)
        let quality = QualitySummary(
            framesTotal: frames.count, framesPassed: frames.filter(\.passed).count,
            requiredShare: settings.minimumPassedShare, rejections: Self.count(reasons))
        let extremes = extremes(frames, legs: legs, plane: plane, flexionSense: reading)
        var analysis = RangeOfMotionAnalysis(
            side: side, width: poses.width, height: poses.height, settings: settings, frames: frames, quality: quality,
            minimum: extremes?.minimum, maximum: extremes?.maximum, flexionSense: sense,
            slant: slant.map { SlantEstimate(viewDegrees: $0.viewDegrees, uncertaintyDegrees: $0.uncertaintyDegrees) }, warnings: [])
        analysis.warnings = WarningRules(settings: settings, gates: gates).warnings(analysis, legs: legs)
        return analysis
    }

    /// The slant from the frames that passed every gate so far.
    private func slantCorrection(_ legs: [FrameLegs?], _ reasons: [RejectionReason?], _ poses: PoseSequence) -> SlantCorrection? {
        let candidates = legs.indices.compactMap { reasons[$0] == nil ? legs[$0] : nil }
        return SlantCorrection.estimate(
            frames: candidates.map { $0.measured.map(\.position) },
            otherHips: candidates.map { $0.otherHip.flatMap { $0.confidence > (settings.minimumConfidence ?? 0) ? $0.position : nil } },
            width: poses.width, height: poses.height,
            fieldOfView: settings.fieldOfView)
    }

    /// Marks frames whose legs fit better exchanged, among those that passed so far.
    private func applySwapGate(_ legs: [FrameLegs?], _ reasons: inout [RejectionReason?], flexionSense: Int?) {
        guard let margin = settings.legSwapMargin else { return }
        let candidates = reasons.indices.filter { reasons[$0] == nil }
        let passes = LegSwapGate(margin: margin, byStillLeg: settings.legSwapByStillLeg).passes(
            candidates.map { legs[$0]!.pose(minimumConfidence: settings.minimumConfidence) }, flexionSense: flexionSense)
        for (i, pass) in zip(candidates, passes) where !pass { reasons[i] = .legsSwapped }
    }

    /// Marks frames whose thigh or shank jumps, among those that passed every other gate.
    private func applyLengthGate(_ legs: [FrameLegs?], _ reasons: inout [RejectionReason?]) {
        guard let tolerance = settings.segmentLengthTolerance else { return }
        let candidates = reasons.indices.filter { reasons[$0] == nil }
        let gate = SegmentLengthGate(tolerance: tolerance, window: settings.segmentLengthWindow)
        let passes = gate.passes(candidates.map { legs[$0]!.pose(minimumConfidence: nil) })
        for (i, pass) in zip(candidates, passes) where !pass { reasons[i] = .segmentLength }
    }

    /// Marks frames whose angle lies too far from both neighbouring passed frames, on the same
    /// side of both: a spike no knee makes.
    private func applyAngleSpeedGate(_ poses: PoseSequence, _ angles: [Double?], _ reasons: inout [RejectionReason?]) {
        guard let speed = settings.maximumAngularSpeed else { return }
        let candidates = reasons.indices.filter { reasons[$0] == nil && angles[$0] != nil }
        let spikes = AngleSpeedGate(maximumSpeed: speed).spikes(
            times: candidates.map { poses.frames[$0].time }, angles: candidates.map { angles[$0]! })
        for (i, spike) in zip(candidates, spikes) where spike { reasons[i] = .angleJump }
    }

    /// Per-frame results, the passed frames' angles smoothed by a running median.
    private func frameResults(_ poses: PoseSequence, angles: [Double?], reasons: [RejectionReason?]) -> [FrameResult] {
        var frames = poses.frames.indices.map { i in
            FrameResult(index: i, time: poses.frames[i].time, angle: angles[i], passed: reasons[i] == nil, reason: reasons[i])
        }
        let passed = frames.indices.filter { frames[$0].passed }
        let smoothed = RunningMedian.centred(passed.map { angles[$0]! }, window: settings.smoothingWindow)
        for (i, value) in zip(passed, smoothed) { frames[i].smoothedAngle = value }
        return frames
    }

    /// The fewest frames the held angle is averaged over, when the video has them.
    static let fewestHeldFrames = 4

    /// The first frames with the smallest and the largest smoothed angle, each with the
    /// angle of the end there: fitted over time, or held within the band. A fitted end's
    /// uncertainty is its frames' scatter and the plane's: every frame of the end is read on
    /// the one plane, so an error of it moves them all alike, which no number of frames
    /// averages away.
    private func extremes(
        _ frames: [FrameResult], legs: [FrameLegs?], plane: SlantCorrection?, flexionSense: Int?
    ) -> (minimum: ExtremeFrame, maximum: ExtremeFrame)? {
        let passed = frames.filter(\.passed)
        guard let low = passed.min(by: { $0.smoothedAngle! < $1.smoothedAngle! }),
            let high = passed.max(by: { $0.smoothedAngle! < $1.smoothedAngle! })
        else { return nil }
        func extreme(_ f: FrameResult, sign: Double) -> ExtremeFrame {
            var result = ExtremeFrame(
                index: f.index, time: f.time, angle: f.smoothedAngle!, frameAngle: f.smoothedAngle!, heldFrames: 1,
                pose: legs[f.index]!.pose(minimumConfidence: settings.minimumConfidence))
            guard settings.extremeBand > 0 else { return result }
            if settings.extremeFit, let fitted = fitted(passed, sign: sign) {
                result.angle = fitted.peak
                let slanted = plane.map { slantError(legs[f.index]!, on: $0, flexionSense: flexionSense) } ?? 0
                result.uncertainty = (fitted.uncertainty * fitted.uncertainty + slanted * slanted).squareRoot()
                result.heldFrames = fitted.frames
            } else {
                (result.angle, result.heldFrames) = held(passed, at: f)
            }
            return result
        }
        // `max(by:)` returns the last of equal maxima; the report names the first.
        let firstHigh = passed.first { $0.smoothedAngle! == high.smoothedAngle! }!
        return (extreme(low, sign: -1), extreme(firstHigh, sign: 1))
    }

    /// How far the plane's own error could move the angle of `legs`, degrees.
    private func slantError(_ legs: FrameLegs, on plane: SlantCorrection, flexionSense: Int?) -> Double {
        plane.angleError { map in
            KneeAngle.onFlexionSide(
                hip: map(legs.hip.position), knee: map(legs.knee.position), ankle: map(legs.ankle.position), flexionSense: flexionSense)
        }
    }

    /// The end fitted over time, the angles turned by `sign` so that it is a largest one.
    private func fitted(_ passed: [FrameResult], sign: Double) -> ExtremeFit.Result? {
        let samples = passed.map { ExtremeFit.Sample(time: $0.time, angle: sign * $0.angle!, smoothed: sign * $0.smoothedAngle!) }
        return ExtremeFit(band: settings.extremeBand).fit(samples).map {
            ExtremeFit.Result(peak: sign * $0.peak, uncertainty: $0.uncertainty, frames: $0.frames)
        }
    }

    /// The angle held within the band about `f`'s smoothed angle, and how many frames hold it.
    private func held(_ passed: [FrameResult], at f: FrameResult) -> (angle: Double, frames: Int) {
        func distance(_ g: FrameResult) -> Double { abs(g.smoothedAngle! - f.smoothedAngle!) }
        var held = passed.filter { distance($0) <= settings.extremeBand }
        // Two noisy frames alone can hold the band (the extreme is where noise overshoots
        // most): the middle half needs four frames to leave any out, so the band takes in
        // the frames nearest the extreme until it has four.
        if settings.extremeMiddleMean, held.count < Self.fewestHeldFrames {
            held = Array(passed.sorted { distance($0) < distance($1) }.prefix(Self.fewestHeldFrames))
        }
        let angles = held.map { $0.angle! }
        return (settings.extremeMiddleMean ? InterquartileMean.of(angles) : Statistics.median(angles), held.count)
    }

    private static func count(_ reasons: [RejectionReason?]) -> [RejectionReason: Int] {
        var counts: [RejectionReason: Int] = [:]
        for reason in reasons.compactMap({ $0 }) { counts[reason, default: 0] += 1 }
        return counts
    }
}

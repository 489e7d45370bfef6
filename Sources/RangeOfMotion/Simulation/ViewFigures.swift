import Geometry

/// The benchmark's figures for one posture and view angle. Angles in degrees, shares in 0...1.
public struct ViewFigures: Sendable, Equatable, Codable {
    public var posture: KneePosture
    public var viewDegrees: Double
    /// Keypoint noise and per-video joint offset of the simulation, pixels.
    public var noisePixels: Double
    public var offsetPixels: Double
    public var videos: Int
    /// Videos mirrored left to right.
    public var mirroredVideos: Int
    /// Videos with enough good frames.
    public var acceptedVideos: Int
    /// |smoothed angle − true 3D angle| over the passed frames of accepted videos.
    public var medianError: Double
    public var p95Error: Double
    /// The same before smoothing.
    public var medianRawError: Double
    public var p95RawError: Double
    /// |measured − true| of the smallest and largest angle, over accepted videos.
    public var minAngleMedianError: Double
    public var minAngleWorstError: Double
    public var maxAngleMedianError: Double
    public var maxAngleWorstError: Double
    /// Accepted videos whose smallest and largest angle are both within 3° (2°) of the truth.
    public var extremesWithin3Degrees: Double
    public var extremesWithin2Degrees: Double
    /// Clean frames that passed every gate.
    public var cleanPassShare: Double
    /// Corrupted frames rejected, all of them and only those whose mistake moves the angle
    /// by more than the harmful threshold.
    public var corruptedRejectedShare: Double
    public var harmfulRejectedShare: Double
    public var corruptedFrames: Int
    public var harmfulFrames: Int
    /// Rejected share by kind of mistake.
    public var rejectedShareByCorruption: [String: Double]
    /// Videos warned that the camera is not at the patient's side.
    public var notSideOnWarnings: Int
    /// Analysis time per video (median), seconds.
    public var secondsPerVideo: Double
    /// Whether the knee turned straight back at its ends instead of holding them.
    public var turningEnds = false
    /// The median of (measured − true) turned so that positive lies inside the true range: a
    /// reading of the ends that falls short of them (or overshoots, negative).
    public var minAngleMedianInward = 0.0
    public var maxAngleMedianInward = 0.0
    /// The share of the ends (both of every accepted video) whose error lies within twice the
    /// uncertainty the analysis states for them (an honest 95 % interval: about 0.95).
    public var extremesWithinTwoUncertainties = 0.0
    /// Videos warned that the leg left the picture at an end, and the worst error of the
    /// smallest and largest angle over the ends not so warned.
    public var endLeftPictureWarnings = 0
    public var minAngleWorstUnwarned = 0.0
    public var maxAngleWorstUnwarned = 0.0
    /// Ends given as bounds (not seen: "at least"), and how many of them hold within 2° (the
    /// true end at or beyond the reading, less 2°).
    public var boundEnds = 0
    public var boundEndsHeld = 0
    /// The frames' own limit: the share of accepted videos whose ends an estimator that knew
    /// the motion's true shape would read both within 2°, by the mean error of the passed
    /// frames whose true angle lies within a quarter of the motion of each end. What is left
    /// past it comes from the frames (their noise, the slant, wrong frames let through), not
    /// from how the ends are read.
    public var shapeKnownWithin2Degrees = 0.0
}

/// Collects one view's videos.
struct ViewTally {
    var videos = 0, mirrored = 0, accepted = 0, sideWarnings = 0
    var errors: [Double] = [], rawErrors: [Double] = []
    var minErrors: [Double] = [], maxErrors: [Double] = []
    var minInward: [Double] = [], maxInward: [Double] = []
    var ends = 0, endsCovered = 0
    var endWarnings = 0, minUnwarned: [Double] = [], maxUnwarned: [Double] = []
    var bounds = 0, boundsHeld = 0
    var shapeKnownWithin2 = 0
    var clean = 0, cleanPassed = 0, corrupted = 0, corruptedRejected = 0, harmful = 0, harmfulRejected = 0
    var byKind: [PoseCorruption: (count: Int, rejected: Int)] = [:]
    var seconds: [Double] = []

    mutating func add(_ video: SimulatedVideo, _ analysis: RangeOfMotionAnalysis, seconds time: Double, harmfulDegrees: Double) {
        videos += 1
        if video.mirrored { mirrored += 1 }
        seconds.append(time)
        if analysis.warnings.contains(where: { if case .notSideOn = $0 { true } else { false } }) { sideWarnings += 1 }
        for (frame, mark) in zip(analysis.frames, video.corruptions) {
            countGate(frame, mark, cleanAngle: video.cleanImageAngles[frame.index], harmfulDegrees: harmfulDegrees)
        }
        guard analysis.accepted, let low = analysis.minimum, let high = analysis.maximum else { return }
        accepted += 1
        for frame in analysis.frames where frame.passed {
            errors.append(abs(frame.smoothedAngle! - video.trueAngles[frame.index]))
            rawErrors.append(abs(frame.angle! - video.trueAngles[frame.index]))
        }
        minErrors.append(abs(low.angle - video.trueMinimum))
        maxErrors.append(abs(high.angle - video.trueMaximum))
        minInward.append(low.angle - video.trueMinimum)
        maxInward.append(video.trueMaximum - high.angle)
        let bentWarned = analysis.warnings.contains(.endLeftPicture(mostBent: true))
        let straightWarned = analysis.warnings.contains(.endLeftPicture(mostBent: false))
        if bentWarned || straightWarned { endWarnings += 1 }
        if !bentWarned { minUnwarned.append(abs(low.angle - video.trueMinimum)) }
        if !straightWarned { maxUnwarned.append(abs(high.angle - video.trueMaximum)) }
        if bentWarned {
            bounds += 1
            if video.trueMinimum <= low.angle + 2 { boundsHeld += 1 }
        }
        if straightWarned {
            bounds += 1
            if video.trueMaximum >= high.angle - 2 { boundsHeld += 1 }
        }
        if Self.shapeKnownError(video, analysis, end: -1) <= 2, Self.shapeKnownError(video, analysis, end: 1) <= 2 { shapeKnownWithin2 += 1 }
        for (end, truth) in [(low, video.trueMinimum), (high, video.trueMaximum)] {
            ends += 1
            if abs(end.angle - truth) <= 2 * (end.uncertainty ?? 0) { endsCovered += 1 }
        }
    }

    /// |error| of the smallest (`end` −1) or largest (+1) angle read by an estimator that
    /// knows the true motion: the end plus the mean error of the passed frames near it.
    static func shapeKnownError(_ video: SimulatedVideo, _ analysis: RangeOfMotionAnalysis, end: Double) -> Double {
        let truth = end < 0 ? video.trueMinimum : video.trueMaximum
        let depth = 0.25 * (video.trueMaximum - video.trueMinimum)
        let errors = analysis.frames.compactMap { frame -> Double? in
            guard frame.passed, let angle = frame.angle, end * (video.trueAngles[frame.index] - truth) >= -depth else { return nil }
            return angle - video.trueAngles[frame.index]
        }
        guard !errors.isEmpty else { return .infinity }
        return abs(errors.reduce(0, +) / Double(errors.count))
    }

    private mutating func countGate(_ frame: FrameResult, _ mark: PoseCorruption?, cleanAngle: Double, harmfulDegrees: Double) {
        guard let mark else {
            clean += 1
            if frame.passed { cleanPassed += 1 }
            return
        }
        corrupted += 1
        if !frame.passed { corruptedRejected += 1 }
        var kind = byKind[mark] ?? (0, 0)
        kind.count += 1
        if !frame.passed { kind.rejected += 1 }
        byKind[mark] = kind
        let moved = frame.angle.map { abs($0 - cleanAngle) } ?? .infinity
        if mark == .lowConfidence || moved > harmfulDegrees {
            harmful += 1
            if !frame.passed { harmfulRejected += 1 }
        }
    }

    func figures(posture: KneePosture, view: Double, noisePixels: Double, offsetPixels: Double) -> ViewFigures {
        func share(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }
        func within(_ limit: Double) -> Int { zip(minErrors, maxErrors).filter { $0 <= limit && $1 <= limit }.count }
        var figures = ViewFigures(
            posture: posture, viewDegrees: view, noisePixels: noisePixels, offsetPixels: offsetPixels, videos: videos,
            mirroredVideos: mirrored, acceptedVideos: accepted,
            medianError: Statistics.quantile(errors, 0.5), p95Error: Statistics.quantile(errors, 0.95),
            medianRawError: Statistics.quantile(rawErrors, 0.5), p95RawError: Statistics.quantile(rawErrors, 0.95),
            minAngleMedianError: Statistics.quantile(minErrors, 0.5), minAngleWorstError: minErrors.max() ?? 0,
            maxAngleMedianError: Statistics.quantile(maxErrors, 0.5), maxAngleWorstError: maxErrors.max() ?? 0,
            extremesWithin3Degrees: share(within(3), minErrors.count), extremesWithin2Degrees: share(within(2), minErrors.count),
            cleanPassShare: share(cleanPassed, clean),
            corruptedRejectedShare: share(corruptedRejected, corrupted), harmfulRejectedShare: share(harmfulRejected, harmful),
            corruptedFrames: corrupted, harmfulFrames: harmful,
            rejectedShareByCorruption: Dictionary(uniqueKeysWithValues: byKind.map { ($0.key.rawValue, share($0.value.rejected, $0.value.count)) }),
            notSideOnWarnings: sideWarnings, secondsPerVideo: Statistics.quantile(seconds, 0.5),
            minAngleMedianInward: Statistics.quantile(minInward, 0.5), maxAngleMedianInward: Statistics.quantile(maxInward, 0.5),
            extremesWithinTwoUncertainties: share(endsCovered, ends))
        figures.endLeftPictureWarnings = endWarnings
        figures.minAngleWorstUnwarned = minUnwarned.max() ?? 0
        figures.maxAngleWorstUnwarned = maxUnwarned.max() ?? 0
        figures.boundEnds = bounds
        figures.boundEndsHeld = boundsHeld
        figures.shapeKnownWithin2Degrees = share(shapeKnownWithin2, minErrors.count)
        return figures
    }
}

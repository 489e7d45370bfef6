/// Every setting of the knee measurement: the seed's quality gates, the gates added beyond
/// it, smoothing and warnings. A gate whose setting is nil is off.
///
/// The defaults reject a frame for what is wrong with it (low confidence, a leg swapped, a
/// thigh or shank whose length jumps, an angle that jumps and comes back, a knee bent the
/// wrong way) and never for the posture, so that lying, sitting and standing, filmed from
/// either side or mirrored, all measure the whole range. `originalGates` adds the original
/// app's posture rules (a standing patient, left and right in a fixed order in x).
public struct RangeOfMotionSettings: Sendable, Equatable, Codable {
    /// Frames sampled per second of video (the seed samples 3).
    public var framesPerSecond = 3.0
    /// The lowest confidence of the hip, knee and ankle must be above this (seed: 0.3).
    public var minimumConfidence: Double? = 0.3
    /// A frame whose hip, knee or ankle lies outside the picture is rejected.
    public var rejectOutsidePicture = true
    /// Left/right order (seed): each left joint may lie left of its right partner in x by at
    /// most this many thigh lengths. 0 is the seed's strict rule, made for a patient facing
    /// the camera; from the side the hips and knees overlap, hence the default margin.
    public var lateralOrderTolerance: Double? = nil
    /// Knee versus ankle (seed): the knee is above the ankle, or the ankle is behind the knee
    /// by at least `behindMargin` thigh lengths (deep flexion lifts the foot above the knee).
    public var kneeAnkleOrder = false
    /// How far behind the knee the ankle must be when it is above it, in thigh lengths.
    public var behindMargin = 0.25
    /// Hip versus knee and ankle (seed): the hip is above both (the patient stands).
    public var hipAboveKneeAndAnkle = false
    /// The largest bend against flexion taken as hyperextension, degrees; a frame bending
    /// further backwards is rejected.
    public var maximumHyperextension: Double? = 30
    /// Reads angles past straight as hyperextension (above 180) once the flexion sense is
    /// known; off, angles stay within 0...180 as in the seed.
    public var detectHyperextension = true
    /// Legs swapped over time: a frame is rejected when exchanging the two legs fits the
    /// running medians of both knee angles better by more than this many degrees.
    public var legSwapMargin: Double? = 5
    /// Where the other leg holds still, its shape decides a swap (the angles only where it
    /// cannot tell) and the hips' order seen at a slant refuses one; off, the shape only adds
    /// refusals to the angles', as with the original gates.
    public var legSwapByStillLeg = true
    /// Thigh or shank image length may differ from the running median of its neighbours by
    /// at most this share (a swapped joint, or the leg turning out of the picture plane).
    public var segmentLengthTolerance: Double? = 0.2
    /// Frames in the running median of the segment lengths.
    public var segmentLengthWindow = 9
    /// The fastest a knee turns, degrees per second: a frame whose angle lies further than
    /// this allows from both neighbouring passed frames, on the same side of both, is a
    /// mistake of the pose model (a knee moves there and back within a third of a second
    /// only in error).
    public var maximumAngularSpeed: Double? = 180
    /// Undo the slant of a camera not exactly at the leg's side before reading the angles:
    /// find the plane the leg moves in from the thigh's and shank's constant lengths and
    /// the other hip.
    public var correctSlant = true
    /// The camera's field of view across the picture's longer side, degrees, which the slant
    /// correction assumes (a phone's main camera filming video: about 69°).
    public var fieldOfView = 69.0
    /// Frames in the running median that smooths the angle (1 = no smoothing; odd).
    public var smoothingWindow = 3
    /// The smallest and largest angle come from the passed frames whose smoothed angle lies
    /// within this many degrees of the extreme: the angle held there, which one noisy frame
    /// cannot set (the most extreme of many noisy frames overshoots). 0 takes the single
    /// extreme frame.
    public var extremeBand = 5.0
    /// Those frames' angles are averaged over their middle half (the lowest and highest
    /// quarter left out), which wastes less of frames that scatter like measurement noise
    /// than their median does; false takes the median, as the original gates did.
    public var extremeMiddleMean = true
    /// The smallest and largest angle come from a fit of the angle over time around each
    /// visit of the extreme (a parabola with its top cut flat, see `ExtremeFit`), right for an
    /// end the patient holds and for one they turn straight back from, where the frames within
    /// the band lie inside the peak; false averages the band's frames as above, as the
    /// original gates did. Too few frames near the extreme for a fit fall back to the band.
    public var extremeFit = true
    /// Share of frames that must pass every gate, else the video is refused (seed: 0.55).
    public var minimumPassedShare = 0.55
    /// Motion smaller than this (max − min angle, degrees) gets a warning.
    public var minimumMotion = 30.0
    /// Joints closer than this share of the picture's smaller side to its edge count as
    /// leaving the picture (warning only).
    public var edgeMargin = 0.01
    /// A camera estimated this many degrees or more off the patient's side gets a warning.
    public var sideOnWarningDegrees = 25.0

    /// The defaults above.
    public init() {}

    /// The original app's gates: the defaults, and the posture rules made for a standing
    /// patient seen with the left leg to the right of the right one (left and right joints in
    /// order within 0.35 thigh lengths, the knee above the ankle unless the ankle is behind
    /// it, the hip above both), without the angle-speed gate.
    public static var originalGates: RangeOfMotionSettings {
        var settings = RangeOfMotionSettings()
        settings.lateralOrderTolerance = 0.35
        settings.kneeAnkleOrder = true
        settings.hipAboveKneeAndAnkle = true
        settings.maximumAngularSpeed = nil
        settings.correctSlant = false
        settings.extremeMiddleMean = false
        settings.extremeFit = false
        settings.legSwapByStillLeg = false
        return settings
    }

    /// Throws when a value is out of its range.
    public func validate() throws(RangeOfMotionError) {
        func require(_ ok: Bool, _ name: String, _ rule: String) throws(RangeOfMotionError) {
            if !ok { throw .invalidSetting(name: name, rule: rule) }
        }
        try require(framesPerSecond.isFinite && framesPerSecond > 0, "framesPerSecond", "above 0")
        try require(minimumConfidence.map { (0..<1).contains($0) } ?? true, "minimumConfidence", "0 up to 1 (not 1), or null for off")
        try require(lateralOrderTolerance.map { $0 >= 0 && $0.isFinite } ?? true, "lateralOrderTolerance", "0 or more thigh lengths, or null")
        try require(behindMargin >= 0 && behindMargin.isFinite, "behindMargin", "0 or more thigh lengths")
        try require(maximumHyperextension.map { (0...90).contains($0) } ?? true, "maximumHyperextension", "0 to 90 degrees, or null")
        try require(legSwapMargin.map { $0 >= 0 && $0.isFinite } ?? true, "legSwapMargin", "0 degrees or more, or null")
        try require(segmentLengthTolerance.map { $0 > 0 && $0.isFinite } ?? true, "segmentLengthTolerance", "above 0, or null")
        try require(segmentLengthWindow >= 3, "segmentLengthWindow", "3 frames or more")
        try require(maximumAngularSpeed.map { $0 > 0 && $0.isFinite } ?? true, "maximumAngularSpeed", "above 0 degrees per second, or null")
        try require(fieldOfView >= 20 && fieldOfView <= 130, "fieldOfView", "20 to 130 degrees")
        try require(smoothingWindow >= 1 && smoothingWindow % 2 == 1, "smoothingWindow", "an odd number of frames, 1 for none")
        try require(extremeBand >= 0 && extremeBand <= 30, "extremeBand", "0 to 30 degrees")
        try require((0...1).contains(minimumPassedShare), "minimumPassedShare", "0 to 1")
        try require(minimumMotion >= 0 && minimumMotion.isFinite, "minimumMotion", "0 degrees or more")
        try require((0..<0.5).contains(edgeMargin), "edgeMargin", "0 up to 0.5")
        try require((0...90).contains(sideOnWarningDegrees), "sideOnWarningDegrees", "0 to 90 degrees")
    }

    /// The setting names, for `--help` and for rejecting misspelt keys.
    public static var keys: [String] { schema.names }
}

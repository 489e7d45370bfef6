/// One frame's outcome.
public struct FrameResult: Sendable, Equatable, Codable {
    /// The frame's index in the poses (from 0).
    public var index: Int
    /// Seconds from the start of the video.
    public var time: Double
    /// The knee angle read in this frame, degrees (nil when the joints were not found).
    public var angle: Double?
    /// The angle after smoothing over neighbouring passed frames (passed frames only).
    public var smoothedAngle: Double?
    public var passed: Bool
    /// The first gate the frame failed.
    public var reason: RejectionReason?

    public init(index: Int, time: Double, angle: Double?, smoothedAngle: Double? = nil, passed: Bool, reason: RejectionReason?) {
        self.index = index
        self.time = time
        self.angle = angle
        self.smoothedAngle = smoothedAngle
        self.passed = passed
        self.reason = reason
    }
}

/// The knee's smallest or largest angle and the frame where it is reached.
public struct ExtremeFrame: Sendable, Equatable, Codable {
    /// The frame with the extreme smoothed angle (index in the poses, from 0).
    public var index: Int
    public var time: Double
    /// The result, degrees: the end of the movement fitted over time around the extreme, or
    /// the angle of the frames held there (see `RangeOfMotionSettings.extremeFit`,
    /// `extremeBand` and `extremeMiddleMean`).
    public var angle: Double
    /// The smoothed angle of the frame itself, degrees.
    public var frameAngle: Double
    /// How many passed frames the result is taken from.
    public var heldFrames: Int
    /// The legs in that frame, for the stick figure.
    public var pose: LegPose
    /// The fitted angle's standard error from the frames' scatter about the fit, degrees; nil
    /// when the angle was not fitted (and in measurements stored before it was).
    public var uncertainty: Double? = nil

    public init(index: Int, time: Double, angle: Double, frameAngle: Double, heldFrames: Int, pose: LegPose, uncertainty: Double? = nil) {
        self.index = index
        self.time = time
        self.angle = angle
        self.frameAngle = frameAngle
        self.heldFrames = heldFrames
        self.pose = pose
        self.uncertainty = uncertainty
    }
}

/// Everything one video's measurement found.
public struct RangeOfMotionAnalysis: Sendable, Equatable, Codable {
    public var side: BodySide
    /// The picture's size in pixels.
    public var width: Double
    public var height: Double
    public var settings: RangeOfMotionSettings
    public var frames: [FrameResult]
    public var quality: QualitySummary
    /// The most bent frame; nil when no frame passed.
    public var minimum: ExtremeFrame?
    /// The straightest frame; nil when no frame passed.
    public var maximum: ExtremeFrame?
    /// +1 when flexion turns clockwise on screen (the patient faces +x), -1 the other way.
    public var flexionSense: Int?
    /// The camera's slant off the leg's side found from the thigh's and shank's constant
    /// lengths and undone before the angles were read; nil when off or not found.
    public var slant: SlantEstimate? = nil
    public var warnings: [AnalysisWarning]

    /// Whether enough frames passed for the result to count.
    public var accepted: Bool { quality.accepted }

    /// Extension and flexion in the neutral-zero form; nil when no frame passed. An end the
    /// leg left the picture at is a bound there (`endLeftPicture`).
    public var neutralZero: NeutralZero? {
        guard let minimum, let maximum else { return nil }
        return NeutralZero(
            minAngle: minimum.angle, maxAngle: maximum.angle, flexionAtLeast: mostBentUnseen, extensionAtLeast: straightestUnseen)
    }

    /// Whether the leg left the picture where the knee was most bent: the knee may bend further
    /// than `minimum` says, which is then a bound, not the end.
    public var mostBentUnseen: Bool { warnings.contains(.endLeftPicture(mostBent: true)) }
    /// The same at the straightest end.
    public var straightestUnseen: Bool { warnings.contains(.endLeftPicture(mostBent: false)) }

    /// The measurement, or the reason the video was refused.
    public func requireAccepted() throws(RangeOfMotionError) -> RangeOfMotionAnalysis {
        guard accepted else { throw .videoRefused(quality) }
        return self
    }
}

/// How far off the leg's side the camera looked, as the segments' lengths tell.
public struct SlantEstimate: Sendable, Equatable, Codable {
    /// Degrees off the side.
    public var viewDegrees: Double
    /// The estimate's standard error, degrees.
    public var uncertaintyDegrees: Double
}

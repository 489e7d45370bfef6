extension RangeOfMotionSettings {
    /// What each setting does, without its value (help texts add the default from an
    /// instance, so neither can drift from the type). Tests keep it in step with `keys`.
    public static let explanations: [String: String] = [
        "framesPerSecond": "frames sampled per second of video",
        "minimumConfidence": "the lowest confidence of hip, knee and ankle must be above it",
        "rejectOutsidePicture": "reject a frame whose hip, knee or ankle lies outside the picture",
        "lateralOrderTolerance":
            "thigh lengths a left joint may lie left of its right partner (0: the strict rule for a patient facing the camera; an original-app rule, off by default)",
        "kneeAnkleOrder": "the knee lies above the ankle, or the ankle behind it by behindMargin (an original-app rule for standing, off by default)",
        "behindMargin": "thigh lengths the ankle must lie behind the knee when it is above it",
        "hipAboveKneeAndAnkle": "the hip lies above knee and ankle (an original-app rule for standing, off by default)",
        "maximumHyperextension": "degrees of bend past straight beyond which a frame is rejected",
        "detectHyperextension": "read angles past straight as hyperextension (above 180°)",
        "legSwapMargin": "degrees by which exchanged legs must fit the neighbouring frames better to reject a frame",
        "legSwapByStillLeg":
            "where the other leg holds still, its shape decides whether the legs were swapped (the angles only where it cannot tell) and the hips' order seen at a slant refuses a swap (false: the shape only adds refusals, as the original gates did)",
        "segmentLengthTolerance": "share by which thigh and shank may differ from their running median",
        "segmentLengthWindow": "frames in that running median",
        "maximumAngularSpeed":
            "degrees per second a knee can turn: a frame further than this from both neighbouring frames, on one side of both, is rejected",
        "correctSlant":
            "undo the slant of a camera off the leg's side before reading angles, finding the leg's plane from the thigh's and shank's constant lengths and, where the pose model found it, the other hip",
        "fieldOfView":
            "the camera's field of view across the picture's longer side, degrees, for the slant correction (a phone's main camera: about 69)",
        "smoothingWindow": "frames in the running median of the angle (1: none)",
        "extremeBand": "degrees within the extreme whose frames give the smallest and largest angle (0: the single frame)",
        "extremeMiddleMean": "average those frames over their middle half (false: their median, as the original gates did)",
        "extremeFit":
            "read each extreme from a fit of the angle over time around it (a parabola with its top cut flat), right for a held end and a turning one, with its uncertainty (false: the band's frames, as the original gates did)",
        "minimumPassedShare": "share of frames that must pass every gate",
        "minimumMotion": "degrees of motion below which a warning is given",
        "edgeMargin": "share of the picture's smaller side within which a joint counts as leaving it (warning)",
        "sideOnWarningDegrees": "degrees off the patient's side from which a warning is given",
    ]
}

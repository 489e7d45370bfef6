extension GestureSettings {
    /// What each setting does, without its value (help texts add the default from an
    /// instance, so neither can drift from the type). Tests keep it in step with `keys`.
    public static let explanations: [String: String] = [
        "idleZoneDiameter": "diameter of the idle zone around the calibrated centre",
        "movementThreshold": "distance from the centre at which a look starts (at least the idle radius)",
        "mode": "discrete reports one \"looked\" when the head is back; continuous reports start and stop",
        "detectionRate": "frames analysed per second at most (0: every frame)",
        "hysteresis": "share of the idle radius the pointer must come back inside to end a look",
        "calibrationSamples": "steady samples calibration collects",
        "calibrationJump": "a jump between calibration samples larger than this restarts calibration",
        "faceLossSeconds": "seconds without a face after which calibration starts again",
        "recognisesNodsAndShakes": "recognise nods and shakes",
        "quickLookSeconds": "a look shorter than this may be part of a nod or shake",
        "gestureGapSeconds": "quick looks closer than this belong to one nod or shake",
        "centreFollowSeconds": "time constant with which the centre follows a resting head (0: never)",
        "swingThreshold":
            "smallest reach of a nod's or shake's swing for a calmly resting head; it rises with the resting sway up to movementThreshold (equal to it: fixed)",
        "swayFactor": "how many times the resting sway (root mean square, per axis) a nod's or shake's swing must reach",
    ]
}

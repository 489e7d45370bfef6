import SettingsSchema

extension RangeOfMotionSettings {
    /// Every setting as it stands in a settings file, in declaration order; a gate (a number
    /// that `null` turns off) is kept when absent. `"gates"` names the preset to start from.
    public static var schema: SettingsSchema<RangeOfMotionSettings> {
        SettingsSchema(
            [
                .field("framesPerSecond", \.framesPerSecond),
                .gate("minimumConfidence", \.minimumConfidence),
                .field("rejectOutsidePicture", \.rejectOutsidePicture),
                .gate("lateralOrderTolerance", \.lateralOrderTolerance),
                .field("kneeAnkleOrder", \.kneeAnkleOrder),
                .field("behindMargin", \.behindMargin),
                .field("hipAboveKneeAndAnkle", \.hipAboveKneeAndAnkle),
                .gate("maximumHyperextension", \.maximumHyperextension),
                .field("detectHyperextension", \.detectHyperextension),
                .gate("legSwapMargin", \.legSwapMargin),
                .field("legSwapByStillLeg", \.legSwapByStillLeg),
                .gate("segmentLengthTolerance", \.segmentLengthTolerance),
                .field("segmentLengthWindow", \.segmentLengthWindow),
                .gate("maximumAngularSpeed", \.maximumAngularSpeed),
                .field("correctSlant", \.correctSlant),
                .field("fieldOfView", \.fieldOfView),
                .field("smoothingWindow", \.smoothingWindow),
                .field("extremeBand", \.extremeBand),
                .field("extremeMiddleMean", \.extremeMiddleMean),
                .field("extremeFit", \.extremeFit),
                .field("minimumPassedShare", \.minimumPassedShare),
                .field("minimumMotion", \.minimumMotion),
                .field("edgeMargin", \.edgeMargin),
                .field("sideOnWarningDegrees", \.sideOnWarningDegrees),
            ], otherNames: ["gates"])
    }

    /// Reads settings where missing keys keep their defaults, `null` turns a gate off and a
    /// key that is no setting is an error (a misspelt gate would otherwise stay on silently).
    /// `"gates": "original"` starts from the original app's gates instead of the defaults.
    public init(from decoder: any Decoder) throws {
        try Self.schema.refuseUnknownNames(in: decoder, unknown: Self.unknownSetting)
        switch try Self.schema.decodeOther(String.self, "gates", from: decoder) {
        case nil, "default": self.init()
        case "original": self = .originalGates
        case let other?:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [SettingKey("gates")],
                    debugDescription:
                        "gates \"\(other)\" is unknown: \"original\" (the original app's posture rules, for a standing patient) or \"default\""))
        }
        try Self.schema.decode(decoder, into: &self, unknown: Self.unknownSetting)
    }

    private static func unknownSetting(_ name: String) -> String {
        "\"\(name)\" is no setting; the settings are gates (\"original\" or \"default\"), \(keys.joined(separator: ", "))"
    }

    /// Writes every setting, `null` for a gate that is off.
    public func encode(to encoder: any Encoder) throws {
        try Self.schema.encode(self, to: encoder)
    }
}

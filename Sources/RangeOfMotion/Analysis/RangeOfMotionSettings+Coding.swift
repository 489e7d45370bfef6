extension RangeOfMotionSettings {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads settings where missing keys keep their defaults, `null` turns a gate off and a
    /// key that is no setting is an error (a misspelt gate would otherwise stay on silently).
    /// `"gates": "original"` starts from the original app's gates instead of the defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        if let unknown = c.allKeys.map(\.stringValue).filter({ !Self.keys.contains($0) && $0 != "gates" }).sorted().first {
            throw DecodingError.dataCorruptedError(
                forKey: Key(unknown), in: c,
                debugDescription: "\"\(unknown)\" is no setting; the settings are gates (\"original\" or \"default\"), \(Self.keys.joined(separator: ", "))")
        }
        switch try c.decodeIfPresent(String.self, forKey: Key("gates")) {
        case nil, "default": self.init()
        case "original": self = .originalGates
        case let other?:
            throw DecodingError.dataCorruptedError(
                forKey: Key("gates"), in: c,
                debugDescription: "gates \"\(other)\" is unknown: \"original\" (the original app's posture rules, for a standing patient) or \"default\"")
        }
        func read<T: Decodable>(_ name: String, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: Key(name)) { value = v }
        }
        func readGate(_ name: String, _ value: inout Double?) throws {
            guard c.contains(Key(name)) else { return }
            value = try c.decodeNil(forKey: Key(name)) ? nil : c.decode(Double.self, forKey: Key(name))
        }
        try read("framesPerSecond", &framesPerSecond)
        try readGate("minimumConfidence", &minimumConfidence)
        try read("rejectOutsidePicture", &rejectOutsidePicture)
        try readGate("lateralOrderTolerance", &lateralOrderTolerance)
        try read("kneeAnkleOrder", &kneeAnkleOrder)
        try read("behindMargin", &behindMargin)
        try read("hipAboveKneeAndAnkle", &hipAboveKneeAndAnkle)
        try readGate("maximumHyperextension", &maximumHyperextension)
        try read("detectHyperextension", &detectHyperextension)
        try readGate("legSwapMargin", &legSwapMargin)
        try readGate("segmentLengthTolerance", &segmentLengthTolerance)
        try read("segmentLengthWindow", &segmentLengthWindow)
        try readGate("maximumAngularSpeed", &maximumAngularSpeed)
        try read("correctSlant", &correctSlant)
        try read("fieldOfView", &fieldOfView)
        try read("smoothingWindow", &smoothingWindow)
        try read("extremeBand", &extremeBand)
        try read("extremeMiddleMean", &extremeMiddleMean)
        try read("minimumPassedShare", &minimumPassedShare)
        try read("minimumMotion", &minimumMotion)
        try read("edgeMargin", &edgeMargin)
        try read("sideOnWarningDegrees", &sideOnWarningDegrees)
    }

    /// Writes every setting, `null` for a gate that is off.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(framesPerSecond, forKey: Key("framesPerSecond"))
        try c.encode(minimumConfidence, forKey: Key("minimumConfidence"))
        try c.encode(rejectOutsidePicture, forKey: Key("rejectOutsidePicture"))
        try c.encode(lateralOrderTolerance, forKey: Key("lateralOrderTolerance"))
        try c.encode(kneeAnkleOrder, forKey: Key("kneeAnkleOrder"))
        try c.encode(behindMargin, forKey: Key("behindMargin"))
        try c.encode(hipAboveKneeAndAnkle, forKey: Key("hipAboveKneeAndAnkle"))
        try c.encode(maximumHyperextension, forKey: Key("maximumHyperextension"))
        try c.encode(detectHyperextension, forKey: Key("detectHyperextension"))
        try c.encode(legSwapMargin, forKey: Key("legSwapMargin"))
        try c.encode(segmentLengthTolerance, forKey: Key("segmentLengthTolerance"))
        try c.encode(segmentLengthWindow, forKey: Key("segmentLengthWindow"))
        try c.encode(maximumAngularSpeed, forKey: Key("maximumAngularSpeed"))
        try c.encode(correctSlant, forKey: Key("correctSlant"))
        try c.encode(fieldOfView, forKey: Key("fieldOfView"))
        try c.encode(smoothingWindow, forKey: Key("smoothingWindow"))
        try c.encode(extremeBand, forKey: Key("extremeBand"))
        try c.encode(extremeMiddleMean, forKey: Key("extremeMiddleMean"))
        try c.encode(minimumPassedShare, forKey: Key("minimumPassedShare"))
        try c.encode(minimumMotion, forKey: Key("minimumMotion"))
        try c.encode(edgeMargin, forKey: Key("edgeMargin"))
        try c.encode(sideOnWarningDegrees, forKey: Key("sideOnWarningDegrees"))
    }
}

import Feedback
import Testing

struct SettingLimitTests {
    /// A numeric setting added without a limit, or a limit left behind by a removed setting,
    /// fails here: the app's settings screen and the errors rely on the table.
    @Test func everyNumericSettingHasALimitAndNoOther() {
        let numeric = Set(FeedbackSettings().numericValues.keys)
        #expect(Set(FeedbackSettings.limits.map(\.key)) == numeric)
        #expect(numeric.isSubset(of: Set(FeedbackSettings.keys)))
        #expect(numeric.count == FeedbackSettings.keys.count - 7)  // four choices, three switches
        #expect(FeedbackSettings.limit(of: "language") == nil && FeedbackSettings.limit(of: "stallSeconds") == .positive)
    }

    @Test func theDefaultsLieWithinTheirLimits() throws {
        let values = FeedbackSettings().numericValues
        for (key, limit) in FeedbackSettings.limits { #expect(limit.contains(values[key]!), "\(key)") }
        try FeedbackSettings().validate()
    }

    @Test func boundsAreIncludedOrNotAsStated() {
        #expect(SettingLimit.atLeast(1).contains(1) && !SettingLimit.atLeast(1).contains(0.999))
        #expect(!SettingLimit.positive.contains(0) && SettingLimit.nonNegative.contains(0) && !SettingLimit.nonNegative.contains(-1e-9))
        #expect(SettingLimit.within(0...1).contains(1) && !SettingLimit.within(0...1).contains(1.01))
        #expect(SettingLimit.from(0, below: 0.5).contains(0) && !SettingLimit.from(0, below: 0.5).contains(0.5))
        #expect(!SettingLimit.above(0, upTo: 1).contains(0) && SettingLimit.above(0, upTo: 1).contains(1))
        #expect(!SettingLimit.positive.contains(.nan))
        #expect(SettingLimit.from(0, below: 0.5).description == "must lie in 0..<0.5")
        #expect(SettingLimit.above(0, upTo: 1).description == "must lie in (0, 1]")
        #expect(SettingLimit.atLeast(1).description == "must be at least 1")
    }

    /// Each setting pushed just past its limit is named by validation.
    @Test func validationNamesEachSettingOutOfRange() {
        let outside: [String: (inout FeedbackSettings) -> Void] = [
            "markerCount": { $0.markerCount = 0 }, "debounceFrames": { $0.debounceFrames = 0 },
            "invalidDepthRatio": { $0.invalidDepthRatio = 1.5 }, "centerBand": { $0.centerBand = 0.5 },
            "minSharedMarkers": { $0.minSharedMarkers = 0 }, "sameInstructionInterval": { $0.sameInstructionInterval = -1 },
            "instructionRepeatInterval": { $0.instructionRepeatInterval = 0 }, "regionCoverage": { $0.regionCoverage = 0 },
            "stallSeconds": { $0.stallSeconds = 0 }, "faceReach": { $0.faceReach = -0.01 }, "earReach": { $0.earReach = -0.01 },
            "featureMinMarkers": { $0.featureMinMarkers = 0 }, "reminderInterval": { $0.reminderInterval = 0 },
            "directionMemory": { $0.directionMemory = -1 }, "markerSide": { $0.markerSide = 0 },
            "surfaceCoverage": { $0.surfaceCoverage = 1.01 }, "viewAngle": { $0.viewAngle = 0 },
            "tooCloseDistance": { $0.tooCloseDistance = 0 },
        ]
        #expect(Set(outside.keys) == Set(FeedbackSettings.limits.map(\.key)))
        for (key, change) in outside {
            var settings = FeedbackSettings()
            change(&settings)
            #expect(throws: FeedbackError.invalidSetting(key, FeedbackSettings.limit(of: key)!.description)) { try settings.validate() }
        }
    }
}

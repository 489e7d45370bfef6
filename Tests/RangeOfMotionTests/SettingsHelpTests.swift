import RangeOfMotion
import Testing

/// The help text is generated from the settings type; these keep its three sources in step.
struct RangeOfMotionSettingsHelpTests {
    @Test func everyStoredSettingIsAKeyAndEveryKeyIsExplained() {
        let stored = Mirror(reflecting: RangeOfMotionSettings()).children.compactMap(\.label)
        #expect(stored == RangeOfMotionSettings.keys)
        #expect(Set(RangeOfMotionSettings.explanations.keys) == Set(RangeOfMotionSettings.keys))

    }
}

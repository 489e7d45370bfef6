import HeadGestures
import Testing

/// The help text is generated from the settings type; these keep its three sources in step.
struct GestureSettingsHelpTests {
    @Test func everyStoredSettingIsAKeyAndEveryKeyIsExplained() {
        let stored = Mirror(reflecting: GestureSettings()).children.compactMap(\.label)
        #expect(stored == GestureSettings.keys)
        #expect(Set(GestureSettings.explanations.keys) == Set(GestureSettings.keys))
    }
}

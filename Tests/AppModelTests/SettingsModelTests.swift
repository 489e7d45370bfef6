import AppModel
import AppModelTesting
import Feedback
import Foundation
import ScanLibrary
import Testing

@MainActor
struct SettingsModelTests {
    func makeModel(_ store: InMemoryKeyValueStore = InMemoryKeyValueStore(), language: Language = .en) -> SettingsModel {
        SettingsModel(store: SettingsStore(store: store), strings: strings(language))
    }

    /// The screen lists every setting of the guide, once, each in a section, with a title and
    /// a description of its own in both languages.
    @Test func everySettingIsOnTheScreenOnceWithItsTexts() {
        for language in Language.allCases {
            let model = makeModel(language: language)
            #expect(model.fields.map(\.key) == FeedbackSettings.keys)
            let shown = model.sections.flatMap { model.fields(in: $0) }.map(\.key)
            #expect(shown.sorted() == FeedbackSettings.keys.sorted())
            for field in model.fields {
                #expect(field.title != field.key && !field.title.isEmpty, "\(language) \(field.key)")
                #expect(field.detail.count > 20, "\(language) \(field.key)")
            }
            #expect(Set(model.fields.map(\.title)).count == model.fields.count)
            #expect(Set(model.sections.map(model.title)).count == model.sections.count)
        }
    }

    @Test func kindsDefaultsAndLimitsComeFromTheSettingsType() throws {
        let model = makeModel()
        let byKey = Dictionary(uniqueKeysWithValues: model.fields.map { ($0.key, $0) })
        #expect(byKey["debounceFrames"]?.kind == .wholeNumber && byKey["centerBand"]?.kind == .decimal)
        #expect(byKey["regionGuidance"]?.kind == .toggle && byKey["language"]?.kind == .choice(["de", "en"]))
        #expect(byKey["debounceFrames"]?.detail.hasSuffix("Default: 4. Allowed: at least 1.") == true)
        #expect(byKey["centerBand"]?.detail.hasSuffix("Default: 0.05. Allowed: at least 0 and below 0.5.") == true)
        #expect(byKey["regionCoverage"]?.detail.hasSuffix("Allowed: above 0 and at most 1.") == true)
        #expect(byKey["requireEarsAndFace"]?.detail.hasSuffix("Default: on.") == true)
        #expect(byKey["progressIncrement"]?.detail.hasSuffix("Default: Every 25 %.") == true)
        let german = makeModel(language: .de)
        #expect(
            german.fields.first { $0.key == "invalidDepthRatio" }?.detail.hasSuffix(
                "Standard: 0,3. Erlaubt: zwischen 0 und 1 (beide eingeschlossen).") == true)
        #expect(german.text("faceReach") == "0,045")
    }

    /// Each setting takes a new value through its control and the value is stored.
    @Test func everySettingCanBeChangedAndIsPersisted() throws {
        let store = InMemoryKeyValueStore()
        let model = makeModel(store)
        var changes = 0
        model.onChange = { _ in changes += 1 }
        let defaults = FeedbackSettings()
        for field in model.fields {
            switch field.kind {
            case .wholeNumber:
                model.setText(String(Int(defaults.numericValues[field.key]!) + 1), for: field.key)
            case .decimal:
                // Inside every limit: a little above the default, comma or point.
                let value = defaults.numericValues[field.key]! * 0.9 + 0.001
                model.setText(String(value).replacingOccurrences(of: ".", with: ","), for: field.key)
            case .toggle:
                model.setOn(!model.isOn(field.key), for: field.key)
            case .choice(let options):
                model.setChoice(options.first { $0 != model.choice(field.key) }!, for: field.key)
            }
            #expect(model.problem(field.key) == nil && model.problem == nil, "\(field.key)")
        }
        #expect(changes == FeedbackSettings.keys.count)
        let stored = try SettingsStore(store: store).load()
        #expect(stored == model.settings)
        let storedValues = stored.headerEntries
        let defaultValues = defaults.headerEntries
        for key in FeedbackSettings.keys { #expect(storedValues[key] != defaultValues[key], "\(key) unchanged") }
        #expect(stored.debounceFrames == 5 && abs(stored.centerBand - 0.046) < 1e-12 && stored.language == .en)
        // A new screen on the same store shows what was saved.
        #expect(makeModel(store).settings == stored)
    }

    @Test func outOfRangeAndGarbageAreRefusedWithTheReasonAndNothingIsSaved() throws {
        let store = InMemoryKeyValueStore()
        let model = makeModel(store)
        let cases: [(String, String, String)] = [
            ("debounceFrames", "0", "Not saved: the value must be at least 1."),
            ("debounceFrames", "2.5", "Not saved: enter a whole number, e.g. 4."),
            ("centerBand", "0,5", "Not saved: the value must be at least 0 and below 0.5."),
            ("invalidDepthRatio", "1.2", "Not saved: the value must be between 0 and 1, both included."),
            ("regionCoverage", "0", "Not saved: the value must be above 0 and at most 1."),
            ("stallSeconds", "-3", "Not saved: the value must be greater than 0."),
            ("directionMemory", "-0,5", "Not saved: the value must be 0 or more."),
            ("markerSide", "abc", "Not saved: enter a number, e.g. 0.014."),
            ("faceReach", "1,2,3", "Not saved: enter a number, e.g. 0.045."),
            ("reminderInterval", "inf", "Not saved: enter a number, e.g. 6."),
            ("markerCount", "", "Not saved: enter a whole number, e.g. 57."),
        ]
        for (key, text, message) in cases {
            model.setText(text, for: key)
            #expect(model.problem(key) == message, "\(key) \(text)")
            #expect(model.text(key) == text)  // what was typed stays, with its reason
        }
        #expect(model.settings == FeedbackSettings())
        #expect(try SettingsStore(store: store).load() == FeedbackSettings())
        // Every limit is refused just past its bound.
        for (key, limit) in FeedbackSettings.limits {
            let outside: Double =
                switch limit {
                case .atLeast(let lower): lower - 1
                case .positive: 0
                case .nonNegative: -1
                case .within(let range): range.upperBound + 1
                case .from(_, let upper): upper
                case .above(let lower, _): lower
                }
            model.setText(outside == outside.rounded() ? String(Int(outside)) : String(outside), for: key)
            #expect(model.problem(key)?.hasPrefix("Not saved: the value must be") == true, "\(key)")
        }
        #expect(try SettingsStore(store: store).load() == FeedbackSettings())
        // A good value clears the reason; ending the edit shows the value in force.
        model.setText("6", for: "debounceFrames")
        #expect(model.problem("debounceFrames") == nil && model.settings.debounceFrames == 6)
        model.setText("x", for: "stallSeconds")
        model.endEditing("stallSeconds")
        #expect(model.text("stallSeconds") == "5" && model.problem("stallSeconds") == nil)
        // In German the reasons are German.
        let german = makeModel(store, language: .de)
        german.setText("0,7", for: "centerBand")
        #expect(german.problem("centerBand") == "Nicht gespeichert: der Wert muss mindestens 0 und kleiner als 0,5 sein.")
    }

    @Test func typingKeepsTheTextAsTypedWhileSavingEachGoodStep() {
        let model = makeModel()
        for text in ["0", "0,", "0,0", "0,08"] { model.setText(text, for: "centerBand") }
        #expect(model.text("centerBand") == "0,08" && model.settings.centerBand == 0.08)
        #expect(model.problem("centerBand") == nil)
    }

    @Test func resetPutsEveryThresholdBack() throws {
        let store = InMemoryKeyValueStore()
        let model = makeModel(store)
        model.setText("9", for: "debounceFrames")
        model.setOn(false, for: "regionGuidance")
        model.setChoice("only100", for: "progressIncrement")
        model.setText("nonsense", for: "stallSeconds")
        model.resetToDefaults()
        #expect(try SettingsStore(store: store).load() == FeedbackSettings())
        #expect(model.settings == FeedbackSettings())
        #expect(model.text("debounceFrames") == "4" && model.problem("stallSeconds") == nil && model.text("stallSeconds") == "5")
    }

    @Test func changingTheLanguageRelabelsTheScreen() {
        let model = makeModel(language: .de)
        let before = model.fields.map(\.title)
        model.setChoice("en", for: "language")
        #expect(model.language == .en && model.fields.map(\.title) != before)
        #expect(model.title(.cap) == "Cap" && model.optionTitle("de", for: "language") == "German")
        model.setChoice("fr", for: "language")  // not an option
        #expect(model.language == .en)
    }
}

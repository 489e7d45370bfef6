import Feedback
import Foundation
import Testing

@Suite struct SpeechTests {
    private func scheduler() -> SpeechScheduler {
        SpeechScheduler(sameInstructionInterval: 2) { _ in 1.0 }
    }

    private func at(_ t: Double, _ e: FeedbackEvent) -> TimedFeedbackEvent { TimedFeedbackEvent(time: t, event: e) }

    @Test func newInstructionReplacesPendingOne() {
        var s = scheduler()
        var out = s.handle(at(0, .speak(.movePhone(.left), .instruction)))
        out += s.handle(at(0.2, .speak(.movePhone(.up), .instruction)))
        out += s.handle(at(0.4, .speak(.movePhone(.right), .instruction)))
        out += s.finish()
        #expect(out.map(\.phrase) == [.movePhone(.left), .movePhone(.right)])
        #expect(out[1].start == 1.0)
    }

    @Test func milestonesAreNeverDroppedAndGoFirst() {
        var s = scheduler()
        var out = s.handle(at(0, .speak(.tooClose, .instruction)))
        out += s.handle(at(0.1, .speak(.percent(25), .milestone)))
        out += s.handle(at(0.2, .speak(.movePhone(.up), .instruction)))
        out += s.handle(at(0.3, .speak(.percent(50), .milestone)))
        out += s.handle(at(0.4, .speak(.done, .milestone)))
        out += s.finish()
        #expect(out.map(\.phrase) == [.tooClose, .percent(25), .percent(50), .done, .movePhone(.up)])
        // One voice: no overlap.
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    @Test func sameInstructionAtMostEveryTwoSeconds() {
        var s = scheduler()
        var out: [Utterance] = []
        for k in 0..<40 { out += s.handle(at(Double(k) * 0.1, .speak(.tooClose, .instruction))) }
        out += s.finish()
        #expect(out.map(\.start) == [0, 2])
    }

    @Test func idealWithdrawsPendingInstruction() {
        var s = scheduler()
        var out = s.handle(at(0, .speak(.percent(25), .milestone)))
        out += s.handle(at(0.2, .speak(.movePhone(.up), .instruction)))
        out += s.handle(at(0.5, .hapticStop))
        out += s.finish()
        #expect(out.map(\.phrase) == [.percent(25)])
    }

    @Test func phrasebook() {
        let de = Phrasebook(language: .de), en = Phrasebook(language: .en)
        #expect(de.text(.movePhone(.leftUp)) == "Handy nach links oben")
        #expect(de.text(.headInPicture(.right)) == "Kopf im Bild nach rechts")
        #expect(en.text(.movePhone(.rightDown)) == "Move the phone right and down")
        #expect(en.text(.headInPicture(.up)) == "Bring the head up in the picture")
        #expect(de.text(.percent(50)) == "50 Prozent")
        #expect(en.text(.doneMissing(3)) == "Done, 3 markers missing")
        #expect(de.text(.doneMissing(1)) == "Fertig, ein Marker fehlt")
        #expect(en.text(.regionMissing(.back)) == "The back of the head is missing")
        #expect(de.text(.capture([.face, .leftEar, .rightEar])) == "Bitte noch das Gesicht, das linke Ohr und das rechte Ohr aufnehmen")
        #expect(FeedbackSettings().language == .de)
    }

    @Test func rendererPlacesClipsOnTheTimeline() throws {
        // A fake synthesizer: 0.5 s of a constant per text, so placement is visible.
        let renderer = SpeechRenderer(phrasebook: Phrasebook()) { (text: String) throws(FeedbackError) -> AudioClip in
            AudioClip(samples: Array(repeating: Int16(text.count), count: 50), sampleRate: 100)
        }
        let events = [
            TimedFeedbackEvent(time: 1, event: .speak(.tooClose, .instruction)),
            TimedFeedbackEvent(time: 1.2, event: .speak(.percent(25), .milestone)),
        ]
        let (clip, utterances) = try renderer.render(events: events, duration: 3)
        #expect(utterances.map(\.start) == [1, 1.5])
        #expect(clip.samples.count == 301)
        #expect(clip.samples[99] == 0 && clip.samples[100] == Int16("Zu nah".count))
        #expect(clip.samples[150] == Int16("25 Prozent".count) && clip.samples[200] == 0)
        let back = try AudioClip(wav: clip.wav())
        #expect(back == clip)
    }

    @Test func settingsJSON() throws {
        let json = #"{"markerCount": 60, "phrasing": "headInPicture", "language": "en", "invalidDepthRatio": 0.25}"#
        let s = try JSONDecoder().decode(FeedbackSettings.self, from: Data(json.utf8))
        #expect(s.markerCount == 60 && s.phrasing == .headInPicture && s.language == .en && s.invalidDepthRatio == 0.25)
        #expect(s.debounceFrames == 4 && s.centerBand == 0.05 && s.minSharedMarkers == 2)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedbackSettings.self, from: Data(#"{"debounce": 3}"#.utf8)) }
        let round = try JSONDecoder().decode(FeedbackSettings.self, from: JSONEncoder().encode(s))
        #expect(round == s)
        var bad = FeedbackSettings()
        bad.debounceFrames = 0
        #expect(throws: FeedbackError.invalidSetting("debounceFrames", "must be at least 1")) { try ScanGuide(settings: bad) }
    }

    @Test func observationJSON() throws {
        let line = #"{"t":0.033,"width":640,"height":480,"markers":[{"id":5,"corners":[[1,2],[3,4],[5,6],[7,8]],"depths":[0.31,0.31,null,0.32]}]}"#
        let o = try JSONDecoder().decode(FrameObservation.self, from: Data(line.utf8))
        #expect(o.timestamp == 0.033 && o.width == 640 && o.markers[0].id == 5)
        #expect(o.markers[0].corners[2] == SIMD2(5, 6) && o.markers[0].depths[2].isNaN && o.markers[0].hasInvalidDepth)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                FrameObservation.self, from: Data(#"{"t":0,"width":640,"height":480,"markers":[{"id":1,"corners":[[1,2]]}]}"#.utf8))
        }
    }
}

struct SettingsHelpTests {
    /// The help lists exactly the keys the settings JSON has, so it cannot drift from the type.
    @Test func documentedKeysAreTheJSONKeys() throws {
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(FeedbackSettings())) as! [String: Any]
        #expect(Set(FeedbackSettings.documentedDefaults.map(\.key)) == Set(json.keys))
        #expect(FeedbackSettings.documentedDefaults.first { $0.key == "debounceFrames" }?.value == "4")
        #expect(FeedbackSettings.documentedDefaults.first { $0.key == "language" }?.value == "de | en")
    }
}

import Feedback
import Markers
import Testing

@Suite struct ProgressTests {
    /// Shows IDs `range` two at a time around the centre, so every frame is ideal.
    private func show(_ guide: inout ScanGuide, _ ids: Range<Int>, from t0: Double) -> [GuidanceUpdate] {
        stride(from: ids.lowerBound, to: ids.upperBound, by: 2).enumerated().map { k, id in
            let ms = [marker(id, x: 300, y: 240)] + (id + 1 < ids.upperBound ? [marker(id + 1, x: 340, y: 240)] : [])
            return guide.update(frame(t0 + Double(k) / 30, ms + [marker(0, x: 320, y: 260), marker(1, x: 320, y: 220)]))
        }
    }

    @Test func colourBoundaries() throws {
        var guide = try ScanGuide(settings: plainSettings { $0.markerCount = 100 }, layout: cap(100))
        func at(_ n: Int) -> GuidanceUpdate {
            let ids = (0..<n).map { marker($0, x: 320, y: 240) }
            return guide.update(frame(Double(n), ids))
        }
        #expect(at(49).progress.colour == .red)
        let fifty = at(50)
        #expect(fifty.progress.colour == .orange && fifty.progress.percent == 50)
        #expect(fifty.events.contains(.progressColourChanged(.orange)))
        #expect(at(99).progress.colour == .orange)
        let hundred = at(100)
        #expect(hundred.progress.colour == .green && hundred.progress.fraction == 1)
        #expect(hundred.events.contains(.progressColourChanged(.green)))
        #expect(hundred.events.contains(.completed(missing: [])))
        #expect(hundred.events.contains(.speak(.done, .milestone)))
    }

    @Test(arguments: [
        (ProgressIncrement.every25, [25, 50, 75]), (.every50, [50]), (.only100, []),
    ])
    func milestones(increment: ProgressIncrement, spoken: [Int]) throws {
        var guide = try ScanGuide(
            settings: plainSettings {
                $0.markerCount = 100; $0.progressIncrement = increment
            }, layout: cap(100))
        let events = show(&guide, 0..<100, from: 0).events
        let percents = events.compactMap { if case .speak(.percent(let p), .milestone) = $0 { p } else { nil } }
        #expect(percents == spoken)
        let marks = events.compactMap { if case .milestone(let p) = $0 { p } else { nil } }
        #expect(marks == spoken + [100])
        #expect(events.contains(.speak(.done, .milestone)))
        #expect(guide.completed)
    }

    @Test func completionToleratesFallenOffMarkers() throws {
        var guide = try ScanGuide(settings: plainSettings())
        // Ten markers never show up: 0...3 of the front and 12...17 of the left side (half).
        let present = Array(4..<12) + Array(18..<57)
        var t = 0.0
        for pair in stride(from: 0, to: present.count - 1, by: 2) {
            _ = guide.update(frame(t, [marker(present[pair], x: 300, y: 240), marker(present[pair + 1], x: 340, y: 240)]))
            t += 1 / 30
        }
        _ = guide.update(frame(t, [marker(56, x: 300, y: 240), marker(55, x: 340, y: 240)]))
        #expect(!guide.completed)
        // All five regions have at least half their markers; after 5 s without news: done.
        #expect(guide.progress.regionsCovered == HeadRegion.allCases)
        var events: [FeedbackEvent] = []
        while !guide.completed && t < 10 {
            t += 1 / 30
            events += guide.update(frame(t, [marker(56, x: 300, y: 240), marker(55, x: 340, y: 240)])).events
        }
        let missing = Array(0..<4) + Array(12..<18)
        #expect(events.contains(.completed(missing: missing)))
        #expect(events.contains(.speak(.doneMissing(10), .milestone)))
        #expect(events.contains(.progressColourChanged(.green)))
        #expect(t >= 5)
        #expect(guide.decisions.last?.subject == .completion)
    }

    @Test func regionGuidanceWhenProgressStalls() throws {
        var guide = try ScanGuide(settings: plainSettings())
        // The front only, then nothing new for more than 5 s.
        var events: [FeedbackEvent] = []
        for k in 0..<200 {
            events += guide.update(frame(Double(k) / 30, [marker(k % 12, x: 300, y: 240), marker((k + 1) % 12, x: 340, y: 240)])).events
        }
        #expect(events.contains(.speak(.regionMissing(.left), .instruction)))
        #expect(!guide.completed)
    }

    @Test func incompleteRegionBlocksCompletion() throws {
        var guide = try ScanGuide(settings: plainSettings())
        // Everything but the back: the regions are not covered, so no "done" however long.
        let ids = Array(0..<36) + Array(48..<57)
        for k in 0..<600 {
            _ = guide.update(frame(Double(k) / 30, [marker(ids[k % ids.count], x: 300, y: 240), marker(ids[(k + 1) % ids.count], x: 340, y: 240)]))
        }
        #expect(!guide.completed)
        #expect(guide.decisions.contains { $0.subject == .regionGuidance && $0.to == "back" })
    }
}

@Suite struct HapticAndSpeechTests {
    private func guideOff(_ settings: FeedbackSettings) throws -> (ScanGuide, [GuidanceUpdate]) {
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        let updates = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60)], count: 6), from: 1)
        return (guide, updates)
    }

    @Test func directionSpeechInBothPhrasings() throws {
        let (_, move) = try guideOff(plainSettings { $0.markerCount = 100 })
        #expect(move.events.contains(.speak(.movePhone(.leftDown), .instruction)))
        let (_, picture) = try guideOff(
            plainSettings {
                $0.markerCount = 100; $0.phrasing = .headInPicture
            })
        // The head lies left-down: the phone goes there, the head must go right-up in the picture.
        #expect(picture.events.contains(.speak(.headInPicture(.rightUp), .instruction)))
    }

    @Test func noDirectionSpeechInTooCloseOnly() throws {
        let settings = plainSettings {
            $0.markerCount = 100; $0.positionAudio = .tooCloseOnly
        }
        let (_, off) = try guideOff(settings)
        #expect(off.events.contains(.hapticStart))
        #expect(!off.events.contains { if case .speak = $0 { true } else { false } })
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        let close = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60, invalid: true)], count: 6), from: 1)
        #expect(close.events.contains(.speak(.tooClose, .instruction)))
    }

    @Test func vibrationStopsOnStop() throws {
        var (guide, updates) = try guideOff(plainSettings { $0.markerCount = 100 })
        #expect(updates.events.filter { $0 == .hapticStart }.count == 1)
        #expect(guide.stop() == [.hapticStop])
        #expect(!guide.hapticOn)
        let later = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60)], count: 10), from: 3)
        #expect(later.events.isEmpty)
    }

    @Test func vibrationStopsOnPauseAndResumes() throws {
        var (guide, _) = try guideOff(plainSettings { $0.markerCount = 100 })
        #expect(guide.pause() == [.hapticStop])
        let paused = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60)], count: 10), from: 3)
        #expect(!paused.events.contains(.hapticStart) && !guide.hapticOn)
        guide.resume()
        #expect(feed(&guide, [[marker(2, x: 100, y: 60)]], from: 4).events.contains(.hapticStart))
    }

    @Test func vibrationStopsOnCompletion() throws {
        var guide = try ScanGuide(settings: plainSettings { $0.markerCount = 4 }, layout: cap(4))
        _ = feed(&guide, [[marker(0, x: 100, y: 60), marker(1, x: 110, y: 60)]])
        // Single new markers: never two green, so off; the vibration runs.
        var events = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60)], count: 5), from: 1).events
        #expect(events.contains(.hapticStart))
        events = feed(&guide, Array(repeating: [marker(3, x: 100, y: 60)], count: 5), from: 2).events
        #expect(events.contains(.hapticStop) && events.contains(.completed(missing: [])))
        #expect(!guide.hapticOn)
        events = feed(&guide, Array(repeating: [marker(3, x: 100, y: 60)], count: 10), from: 3).events
        #expect(!events.contains(.hapticStart))
    }

    @Test func earsAndFaceReminderBeforeDone() throws {
        var settings = FeedbackSettings()
        settings.markerCount = 4
        var guide = try ScanGuide(
            settings: settings,
            layout: CapLayout(
                dictionaryName: "4x4_100", markerSideMillimetres: 14,
                markers: [
                    CapMarker(id: 0, region: .front), CapMarker(id: 1, region: .front),
                    CapMarker(id: 2, region: .left), CapMarker(id: 3, region: .left),
                ]))
        // Markers near the bottom of the picture (printed top toward −y): the point 45 mm
        // (≈ 3.2 sides) below them is outside, so the face is not in the picture.
        let low = [marker(0, x: 300, y: 440), marker(1, x: 340, y: 440), marker(2, x: 380, y: 440), marker(3, x: 420, y: 440)]
        let first = feed(&guide, Array(repeating: low, count: 3)).events
        #expect(first.contains(.reminder([.face, .leftEar, .rightEar])))
        #expect(first.contains(.speak(.capture([.face, .leftEar, .rightEar]), .reminder)))
        #expect(!guide.completed)
        // Higher up with room below: face and left ear are in; the right ear never is.
        let high = [marker(0, x: 300, y: 100), marker(1, x: 340, y: 100), marker(2, x: 380, y: 100), marker(3, x: 420, y: 100)]
        _ = feed(&guide, [high], from: 1)
        #expect(guide.progress.featuresSeen == [.face, .leftEar])
        let later = feed(&guide, Array(repeating: high, count: 200), from: 7).events
        #expect(later.contains(.reminder([.rightEar])))
        #expect(!guide.completed)
        // Without the requirement, the same scan completes.
        var relaxed = try ScanGuide(settings: plainSettings { $0.markerCount = 4 }, layout: guide.layout)
        _ = feed(&relaxed, [low])
        #expect(relaxed.completed)
    }

    @Test func instructionRepeatsAtInterval() throws {
        var guide = try ScanGuide(settings: plainSettings { $0.markerCount = 100 }, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        let updates = feed(&guide, Array(repeating: [marker(2, x: 100, y: 60)], count: 150), from: 1)
        let times = updates.filter { $0.events.contains(.speak(.movePhone(.leftDown), .instruction)) }.map(\.time)
        #expect(times.count == 3)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 2 - 1e-9 })
    }
}

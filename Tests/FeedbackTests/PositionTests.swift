import Feedback
import Markers
import Testing

@Suite struct PositionTests {
    let settings = plainSettings { $0.markerCount = 100 }

    private func classify(_ markers: [ObservedMarker], green: Int = 0) -> Position {
        PositionClassifier.classify(markers, green: green, bootstrap: false, width: 640, height: 480, settings: settings).0
    }

    @Test func invalidDepthRatioEdges() {
        func markers(invalid: Int) -> [ObservedMarker] {
            (0..<100).map { marker($0, x: Double(100 + $0 % 10 * 44), y: Double(40 + $0 / 10 * 44), invalid: $0 < invalid) }
        }
        #expect(classify(markers(invalid: 29)).kind == .off)
        #expect(classify(markers(invalid: 30)).kind == .off)
        #expect(classify(markers(invalid: 31)).kind == .tooClose)
        // Sufficient overlap wins over missing depth.
        #expect(classify(markers(invalid: 31), green: 2).kind == .ideal)
    }

    @Test func overlapNeedsMinSharedMarkers() {
        #expect(classify(centred, green: 1).kind == .off)
        #expect(classify(centred, green: 2).kind == .ideal)
        let bootstrap = PositionClassifier.classify(centred, green: 0, bootstrap: true, width: 640, height: 480, settings: settings)
        #expect(bootstrap.0 == .ideal && bootstrap.1.bootstrap)
    }

    @Test func bandEdges() {
        // Band: x 288...352, y 216...264 for 640x480 and 5 %. A 20 px marker's box is ±10.
        #expect(classify([marker(0, x: 277.9, y: 240)]).direction == .down)  // maxX 287.9 < 288
        #expect(classify([marker(0, x: 278, y: 240)]).direction == .none)  // touches the band
        #expect(classify([marker(0, x: 362.1, y: 240)]).direction == .up)
        #expect(classify([marker(0, x: 362, y: 240)]).direction == .none)
        #expect(classify([marker(0, x: 320, y: 205.9)]).direction == .left)
        #expect(classify([marker(0, x: 320, y: 206)]).direction == .none)
        #expect(classify([marker(0, x: 320, y: 274.1)]).direction == .right)
        #expect(classify([marker(0, x: 320, y: 274)]).direction == .none)
        #expect(classify([]) == Position(.off, .none))
    }

    @Test(arguments: [
        (100.0, 240.0, Direction.down), (540, 240, .up), (320, 60, .left), (320, 420, .right),
        (540, 60, .leftUp), (100, 60, .leftDown), (540, 420, .rightUp), (100, 420, .rightDown),
    ])
    func allEightDirections(x: Double, y: Double, expected: Direction) {
        // Raw +x is the phone's top (up in portrait), raw +y the operator's right.
        #expect(classify([marker(0, x: x, y: y), marker(1, x: x + 5, y: y + 5)]) == Position(.off, expected))
    }

    @Test func directionComponents() {
        for d in Direction.allCases {
            #expect(Direction(horizontal: d.horizontal, vertical: d.vertical) == d)
        }
    }

    @Test func debounceOfExactlyFourFrames() throws {
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        let off = [marker(2, x: 100, y: 240)]
        let updates = feed(&guide, Array(repeating: off, count: 5), from: 1)
        #expect(updates.map(\.raw.kind) == Array(repeating: .off, count: 5))
        #expect(updates.map(\.published.kind) == [.ideal, .ideal, .ideal, .off, .off])
        #expect(updates[3].events.contains(.hapticStart))
        #expect(updates[3].decisions.first?.subject == .position)
        // Three ideal frames are not enough to stop the vibration; the fourth is.
        let back = feed(&guide, Array(repeating: centred, count: 4), from: 2)
        #expect(back.map(\.published.kind) == [.off, .off, .off, .ideal])
        #expect(back[3].events.contains(.hapticStop))
        #expect(back[0...2].allSatisfy { !$0.events.contains(.hapticStop) })
    }

    @Test func alternatingFramesNeverPublish() throws {
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        let off = [marker(2, x: 100, y: 240)]
        let updates = feed(&guide, (0..<20).map { $0 % 4 == 3 ? centred : off }, from: 1)
        #expect(updates.allSatisfy { $0.published == .ideal })
        #expect(!updates.events.contains(.hapticStart))
    }

    @Test func markerStates() throws {
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = guide.update(frame(0, [marker(0, x: 300, y: 240), marker(1, x: 340, y: 240)]))
        let u = guide.update(frame(0.1, [marker(1, x: 340, y: 240), marker(2, x: 360, y: 240), marker(99, x: 0, y: 0)]))
        let states = Dictionary(uniqueKeysWithValues: u.markerStates.map { ($0.id, $0.state) })
        #expect(states == [0: .blue, 1: .green, 2: .red, 99: .red])
        // An ID the cap does not carry is ignored.
        var standard = try ScanGuide(settings: settings)
        let v = standard.update(frame(0, [marker(80, x: 300, y: 240)]))
        #expect(v.markerStates.isEmpty && v.evidence.detected == 0)
    }

    @Test func directionMemoryWhenMarkersLeave() throws {
        var guide = try ScanGuide(settings: settings, layout: cap(100))
        _ = feed(&guide, Array(repeating: centred, count: 5))
        // The head drifts to the right and leaves the picture.
        _ = feed(&guide, [[marker(3, x: 320, y: 440)]], from: 1)
        let gone = feed(&guide, Array(repeating: [], count: 6), from: 1.1)
        #expect(gone[3].published == Position(.off, .right))
        #expect(gone[3].raw == Position(.off, .none))
        var strict = try ScanGuide(
            settings: plainSettings {
                $0.markerCount = 100; $0.directionMemory = 0
            }, layout: cap(100))
        _ = feed(&strict, Array(repeating: centred, count: 5))
        _ = feed(&strict, [[marker(3, x: 320, y: 440)]], from: 1)
        #expect(feed(&strict, Array(repeating: [], count: 6), from: 1.1)[3].published == Position(.off, .none))
    }
}

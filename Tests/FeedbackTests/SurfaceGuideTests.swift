import Foundation
import Markers
import Testing

@testable import Feedback

/// The guide without markers: the share of the head's surface seen, the position from the
/// head in the depth picture, and the same vibration and speech rules as with markers.
@Suite("Guiding without markers")
struct SurfaceGuideTests {
    static let degree = Double.pi / 180

    /// A camera `distance` from the head's centre at an azimuth (right ear 0°, face 90°) and
    /// an elevation, head frame.
    static func camera(azimuth: Double, elevation: Double, distance: Double = 0.34) -> SIMD3<Double> {
        let a = azimuth * degree, e = elevation * degree
        return SIMD3(cos(e) * cos(a), cos(e) * sin(a), sin(e)) * distance
    }

    /// A well-framed head 0.3 m away in a 640×480 picture, placed at `camera`.
    static func view(
        _ camera: SIMD3<Double>?, placed: Bool? = true, box: PixelBox? = PixelBox(minX: 220, minY: 140, maxX: 420, maxY: 340)
    )
        -> HeadView
    {
        HeadView(box: box, distance: box == nil ? nil : 0.3, missingDepth: 0.05, placed: placed, camera: camera)
    }

    static func surfaceSettings(_ change: (inout FeedbackSettings) -> Void = { _ in }) -> FeedbackSettings {
        var s = FeedbackSettings()
        s.withoutMarkers = true
        change(&s)
        return s
    }

    static func observe(_ t: Double, _ view: HeadView?) -> FrameObservation {
        FrameObservation(timestamp: t, width: 640, height: 480, markers: [], head: view)
    }

    // MARK: The surface seen

    @Test func aCameraOverTheCrownSeesTheCapAboveFortyDegrees() {
        // Seen from straight above within 50°: everything above 40° elevation. Of the surface
        // counted (from 15° below the ears' level up), that is the area ratio of two caps.
        var coverage = HeadCoverage(viewAngleDegrees: 50)
        coverage.see(from: SIMD3(0, 0, 0.3))
        let expected = (1 - sin(40 * Self.degree)) / (1 - sin(-15 * Self.degree))
        let share = Double(coverage.seenCount) / Double(coverage.total)
        #expect(abs(share - expected) < 0.01, "share \(share), expected \(expected)")
        #expect(coverage.share(of: .top) == 1)
        #expect(coverage.share(of: .back) < 0.35)
        #expect(coverage.features.isEmpty)
    }

    @Test func eachDirectionBelongsToTheRegionTheCapsMarkersWould() {
        let cases: [(Double, Double, HeadRegion)] = [
            (0, 10, .right), (90, 10, .front), (180, 10, .left), (270, 10, .back), (44, 0, .right), (46, 0, .front),
            (-30, 20, .right), (300, 20, .back), (90, 56, .top), (270, 54, .back),
        ]
        for (azimuth, elevation, region) in cases {
            #expect(HeadCoverage.region(of: Self.camera(azimuth: azimuth, elevation: elevation)) == region, "\(azimuth)°, \(elevation)°")
        }
    }

    @Test func aTurnRoundTheHeadAndOverTheCrownSeesEveryRegionAndFeature() {
        var coverage = HeadCoverage(viewAngleDegrees: 50)
        for azimuth in stride(from: 90.0, to: 450, by: 10) { coverage.see(from: Self.camera(azimuth: azimuth, elevation: 20)) }
        #expect(coverage.features == Set(HeadFeature.allCases))
        for region in HeadRegion.allCases where region != .top { #expect(coverage.share(of: region) > 0.95, "\(region)") }
        #expect(coverage.share(of: .top) < 0.8, "a ring at 20° leaves the crown")
        coverage.see(from: Self.camera(azimuth: 90, elevation: 80))
        #expect(coverage.share(of: .top) > 0.95)
    }

    @Test func anEarIsSeenOnlyFromItsSide() {
        var coverage = HeadCoverage(viewAngleDegrees: 50)
        coverage.see(from: Self.camera(azimuth: 30, elevation: 10))
        #expect(coverage.features == [.rightEar])
        coverage.see(from: Self.camera(azimuth: 120, elevation: 20))
        #expect(coverage.features == [.rightEar, .face])
        #expect(coverage.see(from: .zero) == 0, "a camera at the centre sees nothing")
    }

    // MARK: The position

    @Test func missingDepthIsTooCloseOnlyWhenTheHeadIsOrWasNear() {
        let settings = Self.surfaceSettings()
        var near = Self.view(nil)
        near.missingDepth = 0.6
        near.distance = 0.15
        #expect(HeadViewClassifier.classify(near, recentDistance: nil, width: 640, height: 480, settings: settings).0 == .tooClose)
        // The head lost altogether, a moment after it was near.
        let gone = HeadView(box: nil, distance: nil, missingDepth: 0.9, placed: nil, camera: nil)
        #expect(HeadViewClassifier.classify(gone, recentDistance: 0.18, width: 640, height: 480, settings: settings).0 == .tooClose)
        // The middle empty because the head is off to one side, 0.35 m away: not too close.
        var aside = Self.view(nil, box: PixelBox(minX: 10, minY: 150, maxX: 200, maxY: 330))
        aside.missingDepth = 0.9
        aside.distance = 0.35
        let (position, evidence) = HeadViewClassifier.classify(aside, recentDistance: 0.35, width: 640, height: 480, settings: settings)
        #expect(position == Position(.off, .leftUp) || position.kind == .off)
        #expect(position.direction == Direction(imageSideX: -1, imageSideY: 0))
        #expect(evidence.invalidRatio == 0.9)
        #expect(HeadViewClassifier.classify(gone, recentDistance: 0.4, width: 640, height: 480, settings: settings).0 == Position(.off, .none))
    }

    @Test func aCentredHeadIsIdealOnlyWhenPlaced() {
        let settings = Self.surfaceSettings()
        let placed = Self.view(Self.camera(azimuth: 90, elevation: 10))
        #expect(HeadViewClassifier.classify(placed, recentDistance: nil, width: 640, height: 480, settings: settings).0 == .ideal)
        let lost = Self.view(nil, placed: false)
        #expect(HeadViewClassifier.classify(lost, recentDistance: nil, width: 640, height: 480, settings: settings).0 == Position(.off, .none))
        // Before any tracking (a log of depth only) a centred head is ideal.
        let untracked = Self.view(nil, placed: nil)
        #expect(HeadViewClassifier.classify(untracked, recentDistance: nil, width: 640, height: 480, settings: settings).0 == .ideal)
    }

    // MARK: The guide

    @Test func goingRoundTheHeadCompletesWithTheEarsAndFaceAndSaysDone() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings())
        var updates: [GuidanceUpdate] = []
        var t = 0.0
        // Round from the face at 20°, then over the crown: 3 s a turn, 30 frames a second.
        for step in 0..<90 {
            updates.append(guide.update(Self.observe(t, Self.view(Self.camera(azimuth: 90 + Double(step) * 4, elevation: 20)))))
            t += 1.0 / 30
        }
        let early = guide.completed
        #expect(!early, "the crown is not seen yet")
        #expect(guide.progress.featuresSeen == HeadFeature.allCases)
        for step in 0..<20 {
            updates.append(guide.update(Self.observe(t, Self.view(Self.camera(azimuth: 90, elevation: 20 + Double(step) * 3)))))
            t += 1.0 / 30
        }
        let completed = guide.completed
        #expect(completed)
        #expect(guide.progress.regionsCovered == HeadRegion.allCases)
        #expect(guide.progress.percent >= 90)
        let events = updates.flatMap(\.events)
        #expect(events.contains(.speak(.done, .milestone)))
        #expect(events.contains(.completed(missing: [])))
        #expect(events.contains(.speak(.percent(50), .milestone)))
        #expect(!events.contains(.hapticStart))
        let completion = try #require(guide.decisions.first { $0.subject == .completion })
        #expect(completion.reason.hasPrefix("every region's surface seen to 80 %"))
    }

    @Test func withoutTheEarsTheGuideRemindsInsteadOfFinishing() throws {
        // Round the head 55° up: more than the view angle above the ears and the face, and
        // regions that need only 30 % of their surface.
        var guide = try ScanGuide(settings: Self.surfaceSettings { $0.surfaceCoverage = 0.3 })
        var events: [FeedbackEvent] = []
        var t = 0.0
        for azimuth in [90.0, 135, 180, 225, 270, 315, 360, 405, 450] {
            for _ in 0..<5 {
                events += guide.update(Self.observe(t, Self.view(Self.camera(azimuth: azimuth, elevation: 55)))).events
                t += 1.0 / 30
            }
        }
        for _ in 0..<5 {
            events += guide.update(Self.observe(t, Self.view(Self.camera(azimuth: 90, elevation: 85)))).events
            t += 1.0 / 30
        }
        let completed = guide.completed
        #expect(!completed)
        #expect(events.contains(.reminder(HeadFeature.allCases)))
    }

    @Test func aHeadThatCannotBePlacedVibratesAndAsksToGoBack() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings { $0.language = .en })
        var events: [FeedbackEvent] = []
        for i in 0..<6 { events += guide.update(Self.observe(Double(i) / 30, Self.view(Self.camera(azimuth: 90, elevation: 20)))).events }
        for i in 6..<14 { events += guide.update(Self.observe(Double(i) / 30, Self.view(nil, placed: false))).events }
        #expect(guide.published == Position(.off, .none))
        #expect(events.contains(.hapticStart))
        #expect(events.contains(.speak(.goBack, .instruction)))
        #expect(Phrasebook(language: .en).text(.goBack) == "Slowly go back to a part already scanned")
        #expect(Phrase.goBack.key == "goBack")
        // Placed again: the vibration stops.
        for i in 14..<20 { events += guide.update(Self.observe(Double(i) / 30, Self.view(Self.camera(azimuth: 100, elevation: 20)))).events }
        #expect(events.last { $0 == .hapticStart || $0 == .hapticStop } == .hapticStop)
    }

    @Test func aPictureWithoutAHeadSaysSoRatherThanAPartMissing() throws {
        // Region guidance is on: with markers, a frame without any is told the part still
        // missing; without markers the depth shows that no head is in the picture at all.
        var guide = try ScanGuide(settings: Self.surfaceSettings { $0.language = .en })
        #expect(guide.settings.regionGuidance)
        var events: [FeedbackEvent] = []
        for i in 0..<6 { events += guide.update(Self.observe(Double(i) / 30, Self.view(Self.camera(azimuth: 90, elevation: 20)))).events }
        for i in 6..<14 { events += guide.update(Self.observe(Double(i) / 30, Self.view(nil, placed: nil, box: nil))).events }
        #expect(guide.published == Position(.off, .none))
        #expect(events.contains(.speak(.noHead, .instruction)))
        #expect(!events.contains { if case .speak(.regionMissing, _) = $0 { true } else { false } })
    }

    @Test func tooCloseAndOffAreDebouncedAndSpokenAsWithMarkers() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings())
        var close = Self.view(nil, placed: false)
        close.missingDepth = 0.7
        close.distance = 0.12
        var updates: [GuidanceUpdate] = []
        for i in 0..<3 { updates.append(guide.update(Self.observe(Double(i) / 30, close))) }
        #expect(guide.published == .ideal, "three frames do not publish")
        updates.append(guide.update(Self.observe(0.1, close)))
        #expect(guide.published == .tooClose)
        #expect(updates.flatMap(\.events).contains(.speak(.tooClose, .instruction)))
        let decision = try #require(guide.decisions.last)
        #expect(decision.reason.contains("70 % of the middle without depth > 30 %"))
        // The head off to the picture's left edge (sensor x small): the phone must go down.
        let aside = Self.view(nil, placed: false, box: PixelBox(minX: 0, minY: 150, maxX: 150, maxY: 330))
        for i in 0..<4 { _ = guide.update(Self.observe(0.2 + Double(i) / 30, aside)) }
        #expect(guide.published == Position(.off, .down))
    }

    @Test func stalledProgressNamesTheRegionLeastSeen() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings())
        var events: [FeedbackEvent] = []
        var t = 0.0
        // The face and the right side only, then standing still for six seconds.
        for step in 0..<30 {
            events += guide.update(Self.observe(t, Self.view(Self.camera(azimuth: 90 - Double(step) * 3, elevation: 20)))).events
            t += 1.0 / 30
        }
        for _ in 0..<180 {
            events += guide.update(Self.observe(t, Self.view(Self.camera(azimuth: 0, elevation: 20)))).events
            t += 1.0 / 30
        }
        let said = events.compactMap { if case .speak(.regionMissing(let r), _) = $0 { r } else { nil } }
        #expect(said.first == .back || said.first == .left)
        let decision = try #require(guide.decisions.first { $0.subject == .regionGuidance })
        #expect(decision.reason.contains("surface directions seen"))
    }

    @Test func aMarkerInTheFrameIsIgnoredWithoutMarkers() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings(), layout: cap(10))
        let update = guide.update(FrameObservation(timestamp: 0, width: 640, height: 480, markers: [marker(3, x: 320, y: 240)], head: nil))
        #expect(update.markerStates.isEmpty)
        #expect(guide.progress.seenCount == 0)
        #expect(guide.followsSurface && guide.missingIDs.isEmpty, "no marker is missing from a cap that has none")
    }

    @Test func theSummarySaysTheScanWasGuidedByTheSurface() throws {
        var guide = try ScanGuide(settings: Self.surfaceSettings())
        var summary = GuideSummary()
        summary.add(guide.update(Self.observe(0, Self.view(Self.camera(azimuth: 90, elevation: 20)))), guide: guide)
        #expect(summary.withoutMarkers == true && summary.missingMarkers.isEmpty && summary.progressPercent > 0)
        let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        #expect(json.contains("\"withoutMarkers\":true"))
        // With markers the summary's JSON stays as it was.
        var markers = try ScanGuide(settings: FeedbackSettings())
        var plain = GuideSummary()
        plain.add(markers.update(frame(0, [])), guide: markers)
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("withoutMarkers"))
    }

    // MARK: The settings and the log

    @Test func theSettingsValidateAndRoundTrip() throws {
        var s = Self.surfaceSettings()
        s.viewAngle = 95
        #expect(throws: FeedbackError.self) { try s.validate() }
        s.viewAngle = 40
        s.surfaceCoverage = 0
        #expect(throws: FeedbackError.self) { try s.validate() }
        s.surfaceCoverage = 0.7
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(FeedbackSettings.self, from: data) == s)
        let partial = try JSONDecoder().decode(FeedbackSettings.self, from: Data(#"{"withoutMarkers": true}"#.utf8))
        #expect(partial.withoutMarkers && partial.surfaceCoverage == 0.8)
    }

    @Test func aHeadViewRoundTripsAndDamagedOnesAreRefused() throws {
        let view = Self.view(Self.camera(azimuth: 10, elevation: 5))
        let frame = Self.observe(1.5, view)
        let decoded = try JSONDecoder().decode(FrameObservation.self, from: JSONEncoder().encode(frame))
        #expect(decoded.head?.box == view.box)
        #expect(decoded.head?.placed == true)
        #expect(length3(decoded.head!.camera! - view.camera!) < 1e-12)
        let damaged = [
            #"{"missingDepth": 1.5}"#, #"{"missingDepth": 0.1, "camera": [1, 2]}"#, #"{"missingDepth": 0.1, "distance": -1}"#,
            #"{"missingDepth": 0.1, "box": {"minX": 5, "minY": 0, "maxX": 1, "maxY": 3}}"#, #"{"box": null}"#,
        ]
        for text in damaged {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(HeadView.self, from: Data(text.utf8)) }
        }
        // An old log without a head decodes as before.
        let old = try JSONDecoder().decode(FrameObservation.self, from: Data(#"{"t": 0, "width": 640, "height": 480}"#.utf8))
        #expect(old.head == nil)
    }

    @Test func randomHeadViewsNeverTrapTheGuide() throws {
        // Seeded fuzz: any views, in any order, give a published class and finite progress.
        var rng = SplitMix(seed: 4401)
        var guide = try ScanGuide(settings: Self.surfaceSettings())
        for i in 0..<600 {
            let box: PixelBox? =
                rng.unit() < 0.2 ? nil : PixelBox(minX: rng.unit() * 640 - 100, minY: rng.unit() * 480 - 100, maxX: 700, maxY: 500)
            let camera: SIMD3<Double>? = rng.unit() < 0.3 ? nil : SIMD3(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
            let placed: Bool? = [nil, true, false][Int(rng.unit() * 2.999)]
            let view = HeadView(box: box, distance: rng.unit() < 0.5 ? nil : rng.unit(), missingDepth: rng.unit(), placed: placed, camera: camera)
            let update = guide.update(Self.observe(Double(i) / 30, rng.unit() < 0.05 ? nil : view))
            #expect(update.progress.fraction.isFinite && (0...1).contains(update.progress.fraction))
        }
    }
}

private func length3(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

/// A small seeded generator for the fuzz test.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

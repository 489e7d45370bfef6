import Feedback
import Foundation
import Geometry
import Markers
import Scanning
import Simulation
import Testing

/// The guide in a closed loop with the simulated operator (no rendering: `advance`).
enum ClosedLoop {
    struct Result {
        var outOfPosition = 0.0
        var completed: Double?
        var summary = GuideSummary()
    }

    static func run(_ scenario: Scenario, follow: Bool, seconds: Double = 60, seed: UInt64 = 1) throws -> Result {
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds))
        let therapist = SimulatedOperator(follows: follow)
        let record = RecordSink()
        var result = Result()
        let tally = ClosureSink { guided, _ in
            if guided.update.raw.kind != .ideal { result.outOfPosition += 1 / Simulator.frameRate }
            if guided.update.completed, result.completed == nil { result.completed = guided.update.time }
        }
        let guide = try FrameGuide(layout: .standard, settings: FeedbackSettings(), sinks: [record, tally, therapist])
        while let truth = simulator.advance(steering: therapist.steering) {
            guide.guide(truth.exactObservation(intrinsics: simulator.configuration.intrinsics), index: truth.index)
        }
        result.summary = record.summary
        return result
    }
}

@Suite struct SimulatorTests {
    /// Moving the simulated phone the way the guide would announce for a head at `d` moves the
    /// head in the image toward the opposite side, i.e. back toward the centre.
    @Test(arguments: Direction.allCases.filter { $0 != .none })
    func movingAsAnnouncedCentresTheHead(_ d: Direction) throws {
        func centroid(_ steering: Steering) throws -> SIMD2<Double> {
            let sim = try Simulator(.init(scenario: .ideal, seed: 5, seconds: 60))
            var last: FrameTruth?
            // About one stroke: the operator reacts, moves for a quarter second and holds.
            for _ in 0..<25 { last = sim.advance(steering: steering) }
            let corners = last!.markers.flatMap(\.corners)
            return corners.reduce(SIMD2<Double>.zero) { $0 + SIMD2($1[0], $1[1]) } / Double(corners.count)
        }
        let still = try centroid(.none)
        let moved = try centroid(.movePhone(x: Double(d.horizontal), y: Double(d.vertical)))
        let shift = moved - still
        // The guide calls a head lying toward raw image side (sx, sy) direction
        // Direction(imageSideX: sx, imageSideY: sy); the phone's move must shift the head the
        // opposite way on each announced axis and leave the other axis nearly alone.
        // Perspective and the operator's own walk add a little on the other axis; a component
        // counts when it is at least a third of the larger one.
        let significant = max(abs(shift.x), abs(shift.y)) / 3
        #expect(significant > 10, "the phone's move must show in the image: \(shift)")
        let sideX = abs(shift.x) > significant ? (shift.x > 0 ? 1 : -1) : 0
        let sideY = abs(shift.y) > significant ? (shift.y > 0 ? 1 : -1) : 0
        #expect(Direction(imageSideX: -sideX, imageSideY: -sideY) == d, "image shift \(shift)")
    }

    /// The ear/face rule never claims a feature the camera cannot see: whenever it fires on
    /// the simulated scan, the true nose tip (tragion) projects into the picture in front of
    /// the camera; and over a whole scan it fires for all three.
    @Test func featureRuleAgreesWithTheHead() throws {
        let sim = try Simulator(.init(scenario: .ideal, seed: 2, seconds: 40))
        let k = sim.configuration.intrinsics
        let landmarks = sim.head.landmarks
        let points: [HeadFeature: SIMD3<Double>] = [.face: landmarks.noseTip, .leftEar: landmarks.leftTragion, .rightEar: landmarks.rightTragion]
        let settings = FeedbackSettings()
        var fired: Set<HeadFeature> = []
        var frames = 0
        while let truth = sim.advance(), frames < 1200 {
            frames += 1
            guard frames % 3 == 0 else { continue }
            let obs = truth.exactObservation(intrinsics: k)
            let m = truth.meshFromCamera
            for feature in HeadFeature.allCases {
                let region = FeatureRule.region(of: feature)
                let ids = Set(feature == .face ? CapLayout.standard.ids(in: region) : CapLayout.standard.earMarkers(region))
                let markers = obs.markers.filter { ids.contains($0.id) }
                guard FeatureRule.isInPicture(feature, markers: markers, width: k.width, height: k.height, settings: settings) else { continue }
                fired.insert(feature)
                // Camera coordinates of the landmark: Rᵀ (p − t) with R, t from meshFromCamera.
                let d = points[feature]! - SIMD3(m[3], m[7], m[11])
                let c = SIMD3(m[0] * d.x + m[4] * d.y + m[8] * d.z, m[1] * d.x + m[5] * d.y + m[9] * d.z, m[2] * d.x + m[6] * d.y + m[10] * d.z)
                let pixel = k.project(c)
                #expect(
                    pixel.map { $0.x >= -10 && $0.y >= -10 && $0.x <= Double(k.width) + 10 && $0.y <= Double(k.height) + 10 } == true,
                    "\(feature) claimed at t=\(truth.timestamp) but projects to \(String(describing: pixel))")
                // An ear counts only when the camera sees it from the side, not edge-on from
                // behind or in front: the line of sight within 75° of the ear's outward normal.
                if feature != .face {
                    let toCamera = SIMD3(m[3], m[7], m[11]) - points[feature]!
                    let outward = SIMD3<Double>(feature == .leftEar ? -1 : 1, 0, 0)
                    let cosine = (toCamera * outward).sum() / (toCamera * toCamera).sum().squareRoot()
                    #expect(
                        cosine >= cos(75 * Double.pi / 180),
                        "\(feature) claimed at t=\(truth.timestamp) but seen \(acos(cosine) * 180 / Double.pi)° off its side")
                }
            }
        }
        #expect(fired == Set(HeadFeature.allCases))
    }

    @Test(arguments: [Scenario.offCenter, .restless])
    func followingTheFeedbackKeepsPosition(_ scenario: Scenario) throws {
        let follower = try ClosedLoop.run(scenario, follow: true)
        let ignorer = try ClosedLoop.run(scenario, follow: false)
        // Both push markers out of the picture: a lapse of the hand, a sway of infant and parent.
        #expect(ignorer.outOfPosition > 0)
        #expect(
            follower.outOfPosition <= 0.7 * ignorer.outOfPosition,
            "follower \(follower.outOfPosition) s, ignorer \(ignorer.outOfPosition) s")
        #expect(follower.completed != nil)
    }
}

/// The simulated therapist's answers to the guide without markers, heard through the guide
/// itself.
@Suite struct OperatorAnswerTests {
    static func view(placed: Bool?, head: Bool = true) -> HeadView {
        let box = head ? PixelBox(minX: 220, minY: 140, maxX: 420, maxY: 340) : nil
        return HeadView(box: box, distance: head ? 0.3 : nil, missingDepth: 0.05, placed: placed, camera: placed == true ? SIMD3(0, 0.34, 0.1) : nil)
    }

    /// The steering after each of `views`, one frame apart, following a guide without markers.
    static func steering(_ views: [HeadView]) throws -> [Steering] {
        var settings = FeedbackSettings()
        settings.withoutMarkers = true
        var guide = try ScanGuide(settings: settings)
        let therapist = SimulatedOperator()
        return views.enumerated().map { i, view in
            therapist.hear(guide.update(FrameObservation(timestamp: Double(i) / 30, width: 640, height: 480, markers: [], head: view)))
            return therapist.steering
        }
    }

    @Test func toldTheHeadWasLostTheyWalkBackUntilItIsPlacedAgain() throws {
        let views =
            Array(repeating: Self.view(placed: true), count: 6) + Array(repeating: Self.view(placed: false), count: 20)
            + Array(repeating: Self.view(placed: true), count: 10)
        let steering = try Self.steering(views)
        #expect(steering[25] == .goBack)
        #expect(steering.last != .goBack)
    }

    @Test func theyWalkBackForThreeSecondsAtMost() throws {
        let views = Array(repeating: Self.view(placed: true), count: 6) + Array(repeating: Self.view(placed: false), count: 150)
        let steering = try Self.steering(views)
        let first = try #require(steering.firstIndex(of: .goBack))
        let stopped = try #require(steering[first...].firstIndex { $0 != .goBack })
        #expect(abs(Double(stopped - first) / 30 - SimulatedOperator.longestWalkBack) <= 2.0 / 30)
    }

    @Test func toldThereIsNoHeadTheyLookForItAndWalkNoFurther() throws {
        let views = Array(repeating: Self.view(placed: true), count: 6) + Array(repeating: Self.view(placed: nil, head: false), count: 20)
        let steering = try Self.steering(views)
        #expect(steering.last == .findHead)
        #expect(!steering.contains(.goBack))
    }

    @Test func anOperatorWhoIgnoresTheGuideCarriesOn() throws {
        var settings = FeedbackSettings()
        settings.withoutMarkers = true
        var guide = try ScanGuide(settings: settings)
        let therapist = SimulatedOperator(follows: false)
        for i in 0..<30 {
            therapist.hear(
                guide.update(FrameObservation(timestamp: Double(i) / 30, width: 640, height: 480, markers: [], head: Self.view(placed: i < 6))))
        }
        #expect(therapist.steering == Steering.none)
    }
}

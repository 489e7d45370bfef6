import Foundation
import Testing

@testable import RangeOfMotion

@Suite("Quality gates, each at its edge")
struct GateTests {
    let flexions = Poses.bending()

    @Test("a clean video passes every frame")
    func clean() throws {
        let a = try Poses.analyze(Poses.sequence(flexions))
        #expect(a.frames.allSatisfy { $0.passed })
        #expect(a.accepted && a.quality.rejections.isEmpty && a.flexionSense == -1)
    }

    @Test(
        "confidence must be above 0.3: exactly 0.3 is rejected, a hair above passes",
        arguments: [
            (0.3, false), (0.300001, true), (0.29, false),
        ])
    func confidence(value: Double, passes: Bool) throws {
        let poses = Poses.sequence(flexions) { i, points in if i == 5 { points[.leftKnee]!.confidence = value } }
        let frame = try Poses.analyze(poses).frames[5]
        #expect(frame.passed == passes)
        #expect(frame.reason == (passes ? nil : .lowConfidence))
    }

    @Test("the confidence gate turned off lets a 0.1 joint through; a missing joint never passes")
    func confidenceOffAndMissing() throws {
        var settings = RangeOfMotionSettings()
        settings.minimumConfidence = nil
        let poses = Poses.sequence(flexions) { i, points in
            if i == 5 { points[.leftKnee]!.confidence = 0.1 }
            if i == 9 { points[.leftAnkle] = nil }
        }
        let a = try Poses.analyze(poses, settings)
        #expect(a.frames[5].passed)
        #expect(a.frames[9].reason == .missingJoint)
    }

    @Test("a joint outside the picture is rejected and warned about")
    func outsidePicture() throws {
        let poses = Poses.sequence(flexions) { i, points in if i == 6 { points[.leftAnkle]!.position.x = 1200 } }
        let a = try Poses.analyze(poses)
        #expect(a.frames[6].reason == .outsidePicture)
        #expect(a.warnings.contains(.leftPicture(frames: 1)))
    }

    @Test("a leg out of the picture where the knee bends most warns that the end was not seen")
    func endOutOfPicture() throws {
        // Frames bent past 90° put the ankle beyond the picture's left edge, as a heel drawn up
        // out of a portrait picture does; one frame in mid-range alone does not warn of an end.
        let bent = try Poses.analyze(Poses.sequence(flexions) { i, points in if flexions[i] > 90 { points[.leftAnkle]!.position.x = -40 } })
        #expect(bent.warnings.contains(.endLeftPicture(mostBent: true)))
        #expect(!bent.warnings.contains(.endLeftPicture(mostBent: false)))
        // That end is a bound, not a value: the form, the summary and the report say "at least".
        let nz = try #require(bent.neutralZero)
        #expect(bent.mostBentUnseen && !bent.straightestUnseen && nz.flexionAtLeast && !nz.extensionAtLeast)
        #expect(nz.notation.hasPrefix("0-0-≥"))
        let summary = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(RangeOfMotionSummary(bent))) as? [String: Any])
        #expect(summary["flexionAtLeast"] as? Bool == true && summary["extensionAtLeast"] as? Bool == false)
        #expect((summary["neutralZero"] as? String)?.contains("≥") == true)
        let once = try Poses.analyze(Poses.sequence(flexions) { i, points in if i == 4 { points[.leftAnkle]!.position.x = -40 } })
        #expect(once.warnings.contains(.leftPicture(frames: 1)) && !once.warnings.contains { if case .endLeftPicture = $0 { true } else { false } })
        #expect(try Poses.analyze(Poses.sequence(flexions)).warnings.isEmpty)
    }

    @Test("the picture spans -0.5 … size - 0.5: the last pixel's centre is inside, a hair beyond is not")
    func pictureEdge() {
        let gates = FrameGates(settings: RangeOfMotionSettings(), width: 1080, height: 1920, side: .left)
        #expect(gates.isInside(SIMD2(1079.5, 1919.5), margin: 0) && gates.isInside(SIMD2(-0.5, -0.5), margin: 0))
        #expect(!gates.isInside(SIMD2(1079.51, 10), margin: 0) && !gates.isInside(SIMD2(10, -0.51), margin: 0))
    }

    @Test(
        "left/right order (original gates): the left joint may lie left of the right one by the tolerance, not more; off by default",
        arguments: [
            (0.35, true), (0.36, false),
        ])
    func lateralOrder(thighLengths: Double, passes: Bool) throws {
        // Frame 0 is straight (all left joints at x = 500): put the right leg to its right.
        let poses = Poses.sequence(flexions) { i, points in
            guard i == 0 else { return }
            for joint in [CocoKeypoint.rightHip, .rightKnee, .rightAnkle] { points[joint]!.position.x = Poses.hip.x + thighLengths * Poses.thigh }
        }
        let frame = try Poses.analyze(poses, .originalGates).frames[0]
        #expect(frame.passed == passes)
        if !passes { #expect(frame.reason == .lateralOrder) }
        #expect(try Poses.analyze(poses).frames[0].passed)
    }

    @Test("with tolerance 0 the order is the seed's strict rule; null turns it off")
    func lateralOrderStrictAndOff() throws {
        let poses = Poses.sequence(flexions) { i, points in if i == 0 { points[.rightHip]!.position.x = Poses.hip.x + 1 } }
        var strict = RangeOfMotionSettings.originalGates
        strict.lateralOrderTolerance = 0
        #expect(try Poses.analyze(poses, strict).frames[0].reason == .lateralOrder)
        var off = RangeOfMotionSettings.originalGates
        off.lateralOrderTolerance = nil
        #expect(try Poses.analyze(poses, off).frames[0].passed)
    }

    @Test("knee versus ankle (original gates): the ankle may rise above the knee only behind it")
    func kneeAnkleOrder() throws {
        // 150° of flexion lifts the ankle above the knee, behind it (+x): plausible.
        var bentDeep = flexions
        bentDeep[8] = 150
        let deep = try Poses.analyze(Poses.sequence(bentDeep))
        #expect(deep.frames[8].passed)
        // The same ankle mirrored in front of the knee (-x) cannot be.
        let poses = Poses.sequence(bentDeep) { i, points in
            if i == 8 { points[.leftAnkle]!.position.x = 2 * points[.leftKnee]!.position.x - points[.leftAnkle]!.position.x }
        }
        var settings = RangeOfMotionSettings.originalGates
        settings.lateralOrderTolerance = nil
        #expect(try Poses.analyze(poses, settings).frames[8].reason == .kneeAnkleOrder)
    }

    @Test("the ankle behind the knee must be behind by the margin")
    func behindMargin() throws {
        let poses = Poses.sequence(flexions) { i, points in
            if i == 8 {
                let knee = points[.leftKnee]!.position
                points[.leftAnkle]!.position = knee + SIMD2(0.2 * Poses.thigh, -10)
            }
        }
        #expect(try Poses.analyze(poses, .originalGates).frames[8].reason == .kneeAnkleOrder)
        var settings = RangeOfMotionSettings.originalGates
        settings.behindMargin = 0.15
        settings.segmentLengthTolerance = nil
        #expect(try Poses.analyze(poses, settings).frames[8].reason != .kneeAnkleOrder)
    }

    @Test("the hip must be above knee and ankle (original gates): swapping hip and knee is caught")
    func hipOrder() throws {
        let poses = Poses.sequence(flexions) { i, points in
            if i == 4 { (points[.leftHip], points[.leftKnee]) = (points[.leftKnee], points[.leftHip]) }
        }
        #expect(try Poses.analyze(poses, .originalGates).frames[4].reason == .hipOrder)
        // Without the posture rules the swap still shows: the thigh and shank lengths jump.
        #expect(try !Poses.analyze(poses).frames[4].passed)
    }

    @Test(
        "bending backwards by more than the hyperextension limit is rejected",
        arguments: [
            (-29.0, true), (-31, false),
        ])
    func bendsBackward(flexion: Double, passes: Bool) throws {
        var values = flexions
        values[1] = flexion
        var settings = RangeOfMotionSettings()
        settings.segmentLengthTolerance = nil
        settings.legSwapMargin = nil
        settings.lateralOrderTolerance = nil
        let frame = try Poses.analyze(Poses.sequence(values), settings).frames[1]
        #expect(frame.passed == passes)
        if !passes { #expect(frame.reason == .bendsBackward) }
    }

    @Test(
        "a thigh 25 % longer than its neighbours' is rejected; 15 % passes",
        arguments: [
            (1.25, false), (1.15, true),
        ])
    func segmentLength(scale: Double, passes: Bool) throws {
        let poses = Poses.sequence(flexions) { i, points in
            if i == 10 {
                points[.leftHip]!.position = points[.leftKnee]!.position + (points[.leftHip]!.position - points[.leftKnee]!.position) * scale
            }
        }
        let frame = try Poses.analyze(poses).frames[10]
        #expect(frame.passed == passes)
        if !passes { #expect(frame.reason == .segmentLength) }
    }

    @Test("legs swapped in one frame are caught over time, though they overlap in x")
    func legsSwapped() throws {
        // Frame 4 bends 72°: with the legs' labels exchanged the left knee reads straight.
        let poses = Poses.sequence(flexions) { i, points in
            guard i == 4 else { return }
            for (l, r) in [(CocoKeypoint.leftHip, CocoKeypoint.rightHip), (.leftKnee, .rightKnee), (.leftAnkle, .rightAnkle)] {
                (points[l], points[r]) = (points[r], points[l])
            }
        }
        var settings = RangeOfMotionSettings()
        settings.lateralOrderTolerance = nil
        let a = try Poses.analyze(poses, settings)
        #expect(a.frames[4].reason == .legsSwapped)
        #expect(a.frames.filter { $0.passed }.count == a.frames.count - 1)
    }

    @Test(
        "at least 55 % must pass: exactly 55 % is accepted, one frame fewer is refused",
        arguments: [
            (20, 11, true), (20, 10, false), (100, 55, true), (100, 54, false),
        ])
    func passedShare(total: Int, passing: Int, accepted: Bool) throws {
        let values = (0..<total).map { Double($0 % 12) * 10 }
        let poses = Poses.sequence(values) { i, points in if i >= passing { points[.leftHip]!.confidence = 0.2 } }
        let a = try Poses.analyze(poses)
        #expect(a.quality.framesPassed == passing)
        #expect(a.accepted == accepted)
        if accepted {
            #expect(try a.requireAccepted() == a)
        } else {
            #expect(throws: RangeOfMotionError.videoRefused(a.quality)) { try a.requireAccepted() }
            #expect(a.quality.refusalText.contains("\(total - passing) × hip, knee or ankle found with low confidence"))
            #expect(a.quality.refusalText.contains("55 % are needed"))
        }
    }

    @Test("a video with no frame passing is refused and has no result")
    func nothingPasses() throws {
        let poses = Poses.sequence(flexions) { _, points in points[.leftKnee]!.confidence = 0.05 }
        let a = try Poses.analyze(poses)
        #expect(!a.accepted && a.minimum == nil && a.neutralZero == nil)
        #expect(a.quality.rejections == [.lowConfidence: flexions.count])
    }
}

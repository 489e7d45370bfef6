import Foundation
import Testing

@testable import RangeOfMotion

@Suite("Analysis")
struct AnalyzerTests {
    @Test("smallest and largest angle and their frames come from the held extremes")
    func extremes() throws {
        let a = try Poses.analyze(Poses.sequence(Poses.bending(from: -5, to: 130)))
        let low = try #require(a.minimum), high = try #require(a.maximum)
        #expect(abs(low.angle - 50) < 1e-9 && abs(high.angle - 185) < 1e-9)
        #expect(low.index == 6 && high.index == 0)
        #expect(a.neutralZero?.notation == "5-0-130")
        #expect(low.pose.knee == Poses.leftLeg(flexion: 130).1 && low.pose.otherHip != nil)
    }

    @Test("one wild frame that passes the gates is smoothed away by the running median")
    func smoothing() throws {
        // Frame 1 of a held straight knee reads 120° for one frame.
        let values: [Double] = [0, 60, 0, 40, 80, 120, 120, 120, 80, 40, 0, 0, 0]
        // The angle-speed gate catches this one; without it the median still smooths it away.
        #expect(try Poses.analyze(Poses.sequence(values)).frames[1].reason == .angleJump)
        var settings = RangeOfMotionSettings()
        settings.legSwapMargin = nil
        settings.maximumAngularSpeed = nil
        let a = try Poses.analyze(Poses.sequence(values), settings)
        #expect(a.frames[1].passed && abs(a.frames[1].angle! - 120) < 1e-9)
        #expect(abs(a.frames[1].smoothedAngle! - 180) < 1e-9)
        settings.smoothingWindow = 1
        #expect(abs(try Poses.analyze(Poses.sequence(values), settings).frames[1].smoothedAngle! - 120) < 1e-9)
    }

    @Test("the band's extreme is the angle held there, not the noisiest frame")
    func heldExtreme() throws {
        // Held at 120° over four frames, one of them 4° deeper by noise.
        let values: [Double] = [0, 0, 40, 80, 120, 124, 120, 120, 80, 40, 0, 0]
        var settings = RangeOfMotionSettings()
        settings.smoothingWindow = 1
        settings.extremeFit = false
        let a = try Poses.analyze(Poses.sequence(values), settings)
        #expect(abs(a.minimum!.frameAngle - 56) < 1e-9 && a.minimum!.heldFrames == 4)
        #expect(abs(a.minimum!.angle - 60) < 1e-9)
        settings.extremeBand = 0
        #expect(abs(try Poses.analyze(Poses.sequence(values), settings).minimum!.angle - 56) < 1e-9)
    }

    /// The smallest angle held in a video of the given flexions, unsmoothed.
    private static func heldMinimum(_ flexions: [Double], middleMean: Bool) throws -> ExtremeFrame {
        var settings = RangeOfMotionSettings()
        settings.smoothingWindow = 1
        settings.extremeFit = false
        settings.extremeMiddleMean = middleMean
        return try #require(try Poses.analyze(Poses.sequence(flexions), settings).minimum)
    }

    @Test(
        "the held extreme averages the middle half of at least four frames; the original gates take the band's median",
        arguments: [
            // Held flexions 124, 123, 120, 120, 119: angles 56, 57, 60, 60, 61 in the 5° band.
            ([0, 0, 40, 80, 124, 123, 120, 120, 119, 80, 40, 0, 0], (frames: 5, angle: 59.0), (frames: 5, angle: 60.0)),
            // Angles 64, 64, then 70, 68, 70: the band holds three frames; the nearest 70 joins them.
            ([0, 0, 60, 110, 116, 116, 110, 112, 110, 60, 0, 0], (frames: 4, angle: 66.0), (frames: 3, angle: 64.0)),
        ] as [([Double], (frames: Int, angle: Double), (frames: Int, angle: Double))])
    func heldExtremeAverage(flexions: [Double], middleMean: (frames: Int, angle: Double), original: (frames: Int, angle: Double)) throws {
        let held = try Self.heldMinimum(flexions, middleMean: true)
        #expect(held.heldFrames == middleMean.frames && abs(held.angle - middleMean.angle) < 1e-9)
        let median = try Self.heldMinimum(flexions, middleMean: false)
        #expect(median.heldFrames == original.frames && abs(median.angle - original.angle) < 1e-9)
    }

    @Test(
        "the middle-half mean leaves out a quarter at each end",
        arguments: [
            ([5.0], 5.0), ([0, 10], 5), ([1, 2, 3, 100], 2.5), ([100, 1, 2, 3, 4], 3), ([-50, 1, 2, 3, 4, 5, 6, 90], 3.5),
        ] as [([Double], Double)])
    func middleHalfMean(values: [Double], expected: Double) {
        #expect(abs(InterquartileMean.of(values) - expected) < 1e-12)
    }

    @Test("hyperextension reads past 180 only once the flexion sense is known and the setting is on")
    func hyperextensionSetting() throws {
        let poses = Poses.sequence(Poses.bending(from: -8, to: 100))
        #expect(abs(try Poses.analyze(poses).maximum!.angle - 188) < 1e-9)
        var seedLike = RangeOfMotionSettings()
        seedLike.detectHyperextension = false
        // The seed's unsigned angle folds 8° past straight back to 172°.
        #expect(abs(try Poses.analyze(poses, seedLike).maximum!.angle - 172) < 1e-9)
    }

    @Test("a small motion is warned about, and without a clear bend the sense stays unknown")
    func smallMotion() throws {
        let a = try Poses.analyze(Poses.sequence(Poses.bending(from: 0, to: 15)))
        #expect(a.flexionSense == nil)
        let motion = a.warnings.compactMap { if case .smallMotion(let d, 30) = $0 { d } else { nil } }.first
        #expect(try #require(motion) > 10 && motion! <= 15)
        #expect(a.warnings.contains(.unknownFlexionSense))
        #expect(a.warnings.allSatisfy { !$0.message.isEmpty })
    }

    @Test("few frames and a camera in front of the patient are warned about")
    func fewFramesAndFrontView() throws {
        // Hips a full hip spacing apart in x, as seen from the front.
        let poses = Poses.sequence([0, 60, 120, 60, 0]) { _, points in
            for joint in [CocoKeypoint.rightHip, .rightKnee, .rightAnkle] { points[joint]!.position.x -= 0.42 * Poses.thigh }
        }
        let a = try Poses.analyze(poses)
        #expect(a.warnings.contains(.fewFrames(5)))
        let view = a.warnings.compactMap { if case .notSideOn(let d) = $0 { d } else { nil } }.first
        #expect(try #require(view) > 85)
        #expect(try Poses.analyze(Poses.sequence(Poses.bending())).warnings.isEmpty)
    }

    @Test("the right knee is measured from the right leg's joints, facing the other way")
    func rightSide() throws {
        // Mirror every x: the right leg filmed from the right side.
        let mirrored = Poses.sequence(Poses.bending(from: 0, to: 110))
        var frames: [PoseFrame] = []
        for frame in mirrored.frames {
            var points: [CocoKeypoint: Keypoint] = [:]
            for (name, point) in frame.keypoints {
                let swapped = CocoKeypoint(
                    rawValue: name.rawValue.hasPrefix("left") ? "right" + name.rawValue.dropFirst(4) : "left" + name.rawValue.dropFirst(5))!
                points[swapped] = Keypoint(x: 1000 - point.position.x, y: point.position.y, confidence: point.confidence)
            }
            frames.append(PoseFrame(time: frame.time, keypoints: points))
        }
        let a = try RangeOfMotionAnalyzer().analyze(PoseSequence(width: 1080, height: 1920, frames: frames), side: .right)
        #expect(a.flexionSense == 1 && a.accepted && a.neutralZero?.notation == "0-0-110")
    }
}

@Suite("Pose files")
struct PoseFileTests {
    static let example = """
        {"width": 1080, "height": 1920, "frames": [
          {"t": 0.0, "keypoints": {"left_hip": [512.0, 880.5, 0.92], "left_knee": [530.1, 1130.2, 0.88], "left_ankle": [520.4, 1370.8, 0.9]}},
          {"t": 0.333, "keypoints": {"left_hip": [512.0, 880.5, 0.92], "nose": [500, 300, 0.5]}}]}
        """

    @Test("the documented example reads, keypoints by COCO name")
    func example() throws {
        let poses = try PoseSequence.decode(json: Data(Self.example.utf8))
        #expect(poses.frames.count == 2 && poses.width == 1080)
        #expect(poses.frames[0][.leftKnee] == Keypoint(x: 530.1, y: 1130.2, confidence: 0.88))
        #expect(poses.frames[1][.nose]?.confidence == 0.5 && poses.frames[1][.leftKnee] == nil)
        let again = try PoseSequence.decode(json: poses.encodedJSON())
        #expect(again == poses)
    }

    @Test(
        "bad files say what is wrong",
        arguments: [
            ("{\"width\": 10, \"height\": 10, \"frames\": []}", "no frame"),
            ("{\"width\": 0, \"height\": 10, \"frames\": [{\"t\": 0, \"keypoints\": {}}]}", "image size"),
            (
                "{\"width\": 10, \"height\": 10, \"frames\": [{\"t\": 0, \"keypoints\": {\"left_hipp\": [1, 2, 0.5]}}]}",
                "unknown keypoint \"left_hipp\""
            ),
            ("{\"width\": 10, \"height\": 10, \"frames\": [{\"t\": 0, \"keypoints\": {\"left_hip\": [1, 2]}}]}", "keypoints"),
            ("{\"width\": 10, \"height\": 10, \"frames\": [{\"t\": 0, \"keypoints\": {\"left_hip\": [1, 2, 1.5]}}]}", "confidence 1.5"),
            ("{\"width\": 10, \"height\": 10, \"frames\": [{\"t\": 1, \"keypoints\": {}}, {\"t\": 1, \"keypoints\": {}}]}", "not after"),
            ("{\"frames\": []}", "\"width\" is missing"),
            ("[1, 2", "not valid JSON"),
        ])
    func badFiles(json: String, phrase: String) {
        #expect {
            try PoseSequence.decode(json: Data(json.utf8))
        } throws: { error in
            (error as? RangeOfMotionError)?.description.contains(phrase) == true
        }
    }

    @Test("a densely sampled file is thinned to the chosen rate")
    func sampling() {
        let frames = (0..<30).map { PoseFrame(time: Double($0) / 30, keypoints: [:]) }
        let thinned = PoseSequence(width: 10, height: 10, frames: frames).sampled(framesPerSecond: 3)
        let expected: [Double] = [0, 10.0 / 30, 20.0 / 30]
        #expect(thinned.frames.map { $0.time } == expected)
    }

    @Test("the side seen with more confidence is the likely filmed one")
    func likelySide() {
        let poses = Poses.sequence([0, 30, 60])
        #expect(poses.likelyFilmedSide == .left)
    }
}

@Suite("Settings")
struct SettingsTests {
    @Test("missing keys keep their defaults, null turns a gate off, a misspelt key is an error")
    func decoding() throws {
        let settings = try JSONDecoder().decode(RangeOfMotionSettings.self, from: Data(#"{"minimumConfidence": null, "smoothingWindow": 5}"#.utf8))
        #expect(settings.minimumConfidence == nil && settings.smoothingWindow == 5 && settings.lateralOrderTolerance == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RangeOfMotionSettings.self, from: Data(#"{"minimumConfidance": 0.5}"#.utf8)) }
        var changed = RangeOfMotionSettings()
        changed.segmentLengthTolerance = nil
        changed.minimumPassedShare = 0.7
        #expect(try JSONDecoder().decode(RangeOfMotionSettings.self, from: JSONEncoder().encode(changed)) == changed)
    }

    @Test("values out of range are refused with the rule")
    func validation() {
        var settings = RangeOfMotionSettings()
        settings.smoothingWindow = 4
        #expect(throws: RangeOfMotionError.invalidSetting(name: "smoothingWindow", rule: "an odd number of frames, 1 for none")) {
            try RangeOfMotionAnalyzer(settings: settings)
        }
        settings = RangeOfMotionSettings()
        settings.minimumPassedShare = 1.2
        #expect(throws: RangeOfMotionError.self) { try settings.validate() }
    }
}

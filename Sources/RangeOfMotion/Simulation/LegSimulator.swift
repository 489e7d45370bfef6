import Geometry

/// How a simulated video is made: patient, camera, pose model errors.
public struct LegSimulation: Sendable, Equatable {
    public var leg = StandingLeg()
    public var camera = SideCamera()
    /// Seconds of video.
    public var duration = 20.0
    /// Frames sampled per second.
    public var framesPerSecond = 3.0
    /// Per-frame keypoint noise, pixels (standard deviation of each coordinate).
    public var noisePixels = 3.0
    /// Per-video offset of each joint from the true joint centre, pixels (standard
    /// deviation): pose models mark a joint consistently a little off its centre. Off by
    /// default; the benchmark shows what it does.
    public var biasPixels = 0.0
    /// Share of frames given one of the pose model's mistakes.
    public var corruptedShare = 0.2
    /// The mistakes drawn from, evenly.
    public var corruptions = PoseCorruption.allCases
    /// Whether the video is mirrored left to right, as a front camera's selfie video is.
    public var mirrored = false

    public init() {}
}

/// A simulated video's poses with the truth behind them.
public struct SimulatedVideo: Sendable, Equatable {
    public var poses: PoseSequence
    public var side: BodySide
    /// Whether the video is mirrored left to right.
    public var mirrored: Bool
    /// Each frame's true 3D knee angle, degrees (180 = straight, above: hyperextension).
    public var trueAngles: [Double]
    /// Each frame's mistake, nil for a clean frame.
    public var corruptions: [PoseCorruption?]
    /// Each frame's knee angle in the image before any mistake (noise included), degrees.
    public var cleanImageAngles: [Double]
    /// The motion's true smallest and largest angle.
    public var trueMinimum: Double
    public var trueMaximum: Double
}

/// Films the simulated leg: projects the 3D joints with a pinhole camera, adds noise, a
/// per-joint offset, confidences and the pose model's mistakes. Seeded: the same seed gives
/// the same video.
public struct LegSimulator: Sendable {
    public var simulation: LegSimulation

    public init(_ simulation: LegSimulation = LegSimulation()) { self.simulation = simulation }

    public func video(seed: UInt64) -> SimulatedVideo {
        var random = SplitMix64(seed: seed)
        let s = simulation, side = s.leg.side
        let cameraFromWorld = s.camera.worldFromCamera(hip: s.leg.joints(at: 0).hip, side: side).inverse
        let names = side.leg.all + side.opposite.leg.all
        let bias = Dictionary(uniqueKeysWithValues: names.map { ($0, random.gaussian2(sigma: s.biasPixels)) })
        let count = max(1, Int((s.duration * s.framesPerSecond).rounded(.down)))
        var frames: [PoseFrame] = [], truth: [Double] = [], marks: [PoseCorruption?] = [], clean: [Double] = []
        for k in 0..<count {
            let time = Double(k) / s.framesPerSecond
            let joints = s.leg.joints(at: time)
            let world = [joints.hip, joints.knee, joints.ankle, joints.otherHip, joints.otherKnee, joints.otherAnkle]
            var keypoints: [CocoKeypoint: Keypoint] = [:]
            for (name, point) in zip(names, world) {
                var pixel = s.camera.project(point, cameraFromWorld: cameraFromWorld) + bias[name]! + random.gaussian2(sigma: s.noisePixels)
                if s.mirrored { pixel.x = Double(s.camera.intrinsics.width - 1) - pixel.x }
                keypoints[name] = Keypoint(pixel, confidence: random.uniform(0.55...0.98))
            }
            clean.append(Self.angle(keypoints, side: side, mirrored: s.mirrored))
            var mark: PoseCorruption?
            if !s.corruptions.isEmpty, random.unit() < s.corruptedShare {
                mark = s.corruptions[Int(random.next() % UInt64(s.corruptions.count))]
                mark!.apply(to: &keypoints, side: side, random: &random)
            }
            frames.append(PoseFrame(time: time, keypoints: keypoints))
            truth.append(joints.trueAngle)
            marks.append(mark)
        }
        let intrinsics = s.camera.intrinsics
        return SimulatedVideo(
            poses: PoseSequence(width: Double(intrinsics.width), height: Double(intrinsics.height), frames: frames),
            side: side, mirrored: s.mirrored, trueAngles: truth, corruptions: marks, cleanImageAngles: clean,
            trueMinimum: 180 - s.leg.motion.flexionDegrees, trueMaximum: 180 + s.leg.motion.extensionDegrees)
    }

    /// The knee angle in the image on the flexion side, taking the patient's facing from the
    /// camera (the truth knows it), so hyperextension reads above 180.
    static func angle(_ keypoints: [CocoKeypoint: Keypoint], side: BodySide, mirrored: Bool = false) -> Double {
        let leg = side.leg
        let hip = keypoints[leg.hip]!.position, knee = keypoints[leg.knee]!.position, ankle = keypoints[leg.ankle]!.position
        // From the left side the patient faces -x on screen, from the right side +x; a
        // mirrored video the other way.
        let sense = (side == .left ? -1 : 1) * (mirrored ? -1 : 1)
        return KneeAngle.onFlexionSide(hip: hip, knee: knee, ankle: ankle, flexionSense: sense) ?? .nan
    }
}

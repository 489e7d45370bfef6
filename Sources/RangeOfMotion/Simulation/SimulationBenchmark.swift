import Geometry

/// Accuracy and gate figures of the knee measurement on simulated videos, by posture and
/// view angle.
public struct SimulationBenchmark: Sendable {
    /// How the patient holds the leg; every posture is filmed from every view angle.
    public var postures = KneePosture.allCases
    /// Degrees off the patient's side the camera looks from.
    public var viewAngles = [0.0, 30, 60]
    /// Videos per posture and view; alternately of the left and right knee, every other pair
    /// mirrored as a front camera's video is.
    public var videosPerView = 40
    /// The number of the first video: each video draws its patient, motion and camera from
    /// its number, so another first video gives a fresh set to check the figures on.
    public var firstVideo = 0
    /// Knee flexion at the bent end and degrees past straight at the straight end, each
    /// video drawing its own.
    public var flexionRange = 60.0...150
    public var extensionRange = -5.0...10
    /// Each video's focal length as a share of the usual phone's.
    public var focalSpread = 0.85...1.15
    /// Each video's pelvis turn about the vertical, degrees.
    public var pelvisTurnRange = -8.0...8
    /// How each video's strokes ease between the ends, from a harmonic swing (0) to a
    /// minimum-jerk stroke (1), and the share of the moving time spent bending: an estimator
    /// of the ends that assumed one shape of motion would be right on that shape alone.
    public var jerkShareRange = 0.0...1
    public var bendShareRange = 0.4...0.6
    /// The simulation every video starts from; each video then draws its own patient,
    /// motion and camera placement.
    public var simulation = LegSimulation()
    public var settings = RangeOfMotionSettings()
    /// A corrupted frame counts as harmful when its mistake moves the image angle by more.
    public var harmfulDegrees = 5.0
    /// Whether the knee turns straight back at both ends instead of holding them.
    public var turning = false

    public init() {}

    /// Runs every posture from every view; `progress` hears (videos done, videos in all).
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws(RangeOfMotionError) -> [ViewFigures] {
        let cases = postures.flatMap { posture in viewAngles.map { (posture, $0) } }
        let total = cases.count * videosPerView
        var figures: [ViewFigures] = []
        for (c, (posture, view)) in cases.enumerated() {
            figures.append(
                try measure(posture: posture, view: view, simulation: simulation, settings: settings) {
                    progress(c * videosPerView + $0, total)
                })
        }
        return figures
    }

    /// Every posture from every view with ends the patient turns straight back from, as in
    /// smooth bending without a pause: the extremes fall between the frames.
    public func turningEnds(progress: (Int, Int) -> Void = { _, _ in }) throws(RangeOfMotionError) -> [ViewFigures] {
        var bench = self
        bench.turning = true
        return try bench.run(progress: progress)
    }

    /// The standing patient from the side, measured with the original app's gates: what the
    /// posture rules cost.
    public func originalGates(progress: (Int, Int) -> Void = { _, _ in }) throws(RangeOfMotionError) -> [ViewFigures] {
        var figures: [ViewFigures] = []
        for (c, posture) in postures.enumerated() {
            figures.append(
                try measure(posture: posture, view: 0, simulation: simulation, settings: .originalGates) {
                    progress(c * videosPerView + $0, postures.count * videosPerView)
                })
        }
        return figures
    }

    /// From the side, how the errors grow with keypoint noise and with a per-video joint
    /// offset (the pose model marking a joint consistently off its centre).
    public func sensitivity(
        noise: [Double] = [1.5, 3, 6], offsets: [Double] = [2, 4], progress: (Int, Int) -> Void = { _, _ in }
    ) throws(RangeOfMotionError) -> [ViewFigures] {
        let cases = noise.map { ($0, 0.0) } + offsets.map { (simulation.noisePixels, $0) }
        var figures: [ViewFigures] = []
        for (c, (noisePixels, offset)) in cases.enumerated() {
            var s = simulation
            s.noisePixels = noisePixels
            s.biasPixels = offset
            figures.append(
                try measure(posture: .standing, view: 0, simulation: s, settings: settings) {
                    progress(c * videosPerView + $0, cases.count * videosPerView)
                })
        }
        return figures
    }

    /// One posture and view's figures over `videosPerView` videos.
    func measure(
        posture: KneePosture, view: Double, simulation base: LegSimulation, settings: RangeOfMotionSettings, progress: (Int) -> Void
    ) throws(RangeOfMotionError) -> ViewFigures {
        let analyzer = try RangeOfMotionAnalyzer(settings: settings)
        var tally = ViewTally()
        for (done, n) in (firstVideo..<(firstVideo + videosPerView)).enumerated() {
            let video = LegSimulator(variant(n, posture: posture, view: view, base: base)).video(seed: UInt64(1000 + n))
            let start = ContinuousClock.now
            let analysis = try analyzer.analyze(video.poses, side: video.side)
            tally.add(video, analysis, seconds: Self.seconds(ContinuousClock.now - start), harmfulDegrees: harmfulDegrees)
            progress(done + 1)
        }
        var figures = tally.figures(posture: posture, view: view, noisePixels: base.noisePixels, offsetPixels: base.biasPixels)
        figures.turningEnds = turning
        return figures
    }

    /// Video `n`'s own patient, motion and camera, drawn from its number.
    func variant(_ n: Int, posture: KneePosture = .standing, view: Double, base: LegSimulation? = nil) -> LegSimulation {
        var random = SplitMix64(seed: UInt64(77 + n))
        var s = base ?? simulation
        s.leg.side = n % 2 == 0 ? .left : .right
        s.mirrored = (n / 2) % 2 == 1
        s.leg.posture = posture
        s.leg.motion.extensionDegrees = random.uniform(extensionRange)
        s.leg.motion.flexionDegrees = random.uniform(flexionRange)
        s.leg.motion.cycleSeconds = random.uniform(4...6.5)
        s.leg.motion.holdSeconds = random.uniform(0.6...1.0)
        if turning { s.leg.motion.holdSeconds = 0 }
        s.leg.motion.phaseSeconds = random.uniform(0...6.5)
        s.leg.motion.hipFlexionDegrees = random.uniform(0...8)
        s.leg.motion.abductionDegrees = random.uniform(0...5)
        s.camera = SideCamera(filming: posture, viewDegrees: view)
        s.camera.distance = random.uniform(2.0...3.0)
        s.camera.height += random.uniform(-0.15...0.25)
        s.camera.offCentre += random.uniform(-0.3...0.3)
        // Phones differ in field of view, and the analysis assumes a typical one.
        let zoom = random.uniform(focalSpread)
        s.camera.intrinsics.fx *= zoom
        s.camera.intrinsics.fy *= zoom
        // Patients do not keep the pelvis square to the moving leg.
        s.leg.pelvisTurnDegrees = random.uniform(pelvisTurnRange)
        s.leg.motion.jerkShare = random.uniform(jerkShareRange)
        s.leg.motion.bendShare = random.uniform(bendShareRange)
        return s
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

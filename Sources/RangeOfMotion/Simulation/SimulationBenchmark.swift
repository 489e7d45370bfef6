import Geometry

/// Accuracy and gate figures of the knee measurement on simulated videos, by view angle.
public struct SimulationBenchmark: Sendable {
    /// Degrees off the patient's side the camera looks from.
    public var viewAngles = [0.0, 30, 60]
    public var videosPerView = 40
    /// The simulation every video starts from; each video then draws its own patient,
    /// motion and camera placement.
    public var simulation = LegSimulation()
    public var settings = RangeOfMotionSettings()
    /// A corrupted frame counts as harmful when its mistake moves the image angle by more.
    public var harmfulDegrees = 5.0

    public init() {}

    /// Runs every view; `progress` hears (videos done, videos in all).
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws(RangeOfMotionError) -> [ViewFigures] {
        let total = viewAngles.count * videosPerView
        var figures: [ViewFigures] = []
        for (v, view) in viewAngles.enumerated() {
            figures.append(try measure(view: view, simulation: simulation) { progress(v * videosPerView + $0, total) })
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
            figures.append(try measure(view: 0, simulation: s) { progress(c * videosPerView + $0, cases.count * videosPerView) })
        }
        return figures
    }

    /// One view's figures over `videosPerView` videos.
    func measure(view: Double, simulation base: LegSimulation, progress: (Int) -> Void) throws(RangeOfMotionError) -> ViewFigures {
        let analyzer = try RangeOfMotionAnalyzer(settings: settings)
        var tally = ViewTally()
        for n in 0..<videosPerView {
            let video = LegSimulator(variant(n, view: view, base: base)).video(seed: UInt64(1000 + n))
            let start = ContinuousClock.now
            let analysis = try analyzer.analyze(video.poses, side: video.side)
            tally.add(video, analysis, seconds: Self.seconds(ContinuousClock.now - start), harmfulDegrees: harmfulDegrees)
            progress(n + 1)
        }
        return tally.figures(view: view, noisePixels: base.noisePixels, offsetPixels: base.biasPixels)
    }

    /// Video `n`'s own patient, motion and camera, drawn from its number.
    func variant(_ n: Int, view: Double, base: LegSimulation? = nil) -> LegSimulation {
        var random = SplitMix64(seed: UInt64(77 + n))
        var s = base ?? simulation
        s.leg.side = n % 2 == 0 ? .left : .right
        s.leg.motion.extensionDegrees = random.uniform(-10...10)
        s.leg.motion.flexionDegrees = random.uniform(90...140)
        s.leg.motion.cycleSeconds = random.uniform(4...6.5)
        s.leg.motion.holdSeconds = random.uniform(0.6...1.0)
        s.leg.motion.phaseSeconds = random.uniform(0...6.5)
        s.leg.motion.hipFlexionDegrees = random.uniform(0...8)
        s.leg.motion.abductionDegrees = random.uniform(0...5)
        s.camera.viewDegrees = view
        s.camera.distance = random.uniform(2.0...3.0)
        s.camera.height = random.uniform(0.4...0.8)
        s.camera.offCentre = random.uniform(-0.3...0.3)
        return s
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

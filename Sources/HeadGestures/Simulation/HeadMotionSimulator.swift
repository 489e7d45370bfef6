import Geometry

/// A simulated face stream with what really happened.
public struct SimulatedStream: Sendable {
    /// The script the head followed.
    public var script: HeadMotionScript
    /// The face's proportions.
    public var face: SimulatedFace
    /// What the face detector reports, frame by frame (noise, dropouts, orientation).
    public var frames: [FaceFrame]
    /// Per frame, the noise-free pointer's offset from where the same head would point at
    /// rest in the same place, in its eye distances (upright image axes): what an exact
    /// detector with an exact calibration would see. Leaning in moves nothing here.
    public var ideal: [SIMD2<Double>]
    /// Frames per second.
    public var fps: Double
}

/// Eye and mouth points of a moving 3D face, projected by a pinhole camera, with landmark
/// noise and detector dropouts: streams with a known truth for tests and benchmarks.
public struct HeadMotionSimulator: Sendable {
    /// The camera, for the upright picture.
    public var camera = SimulatedFace.camera
    /// Frames per second.
    public var fps = 30.0
    /// Standard deviation of each landmark coordinate, pixels.
    public var noisePixels = 2.0
    /// Fraction of frames in which the detector misses the face (in runs of 1–3 frames).
    public var dropoutRate = 0.02
    /// How the stored buffers are turned (the device orientation's image orientation).
    public var orientation = ImageOrientation.up

    /// The defaults: VGA at 30 frames per second, 2 px noise, 2 % dropouts, upright.
    public init() {}

    /// The stream of `script` performed by `face`; the same seed gives the same stream.
    public func run(_ script: HeadMotionScript, face: SimulatedFace, seed: UInt64) -> SimulatedStream {
        var random = SplitMix64(seed: seed)
        let steps = script.steps
        let count = Int((script.seconds * fps).rounded(.down))
        let stored = orientation.uprightSize(width: camera.width, height: camera.height)
        var frames: [FaceFrame] = [], ideal: [SIMD2<Double>] = []
        frames.reserveCapacity(count)
        ideal.reserveCapacity(count)
        var stepIndex = 0, dropoutLeft = 0
        for k in 0..<count {
            let t = Double(k) / fps
            while stepIndex + 1 < steps.count, t >= steps[stepIndex + 1].start { stepIndex += 1 }
            let (pose, visible) = script.pose(in: steps[stepIndex], at: t)
            ideal.append(idealOffset(face: face, pose: pose))
            if dropoutLeft == 0, random.chance(dropoutRate / 2) { dropoutLeft = random.integer(1...3) }
            let missed = dropoutLeft > 0
            if missed { dropoutLeft -= 1 }
            var landmarks = visible && !missed ? face.landmarks(pose, camera: camera) : nil
            if let clean = landmarks { landmarks = noisy(clean, random: &random, storedWidth: stored.width, storedHeight: stored.height) }
            frames.append(FaceFrame(time: t, width: stored.width, height: stored.height, face: landmarks, orientation: orientation))
        }
        return SimulatedStream(script: script, face: face, frames: frames, ideal: ideal, fps: fps)
    }

    private func noisy(_ clean: FaceLandmarks, random: inout SplitMix64, storedWidth: Int, storedHeight: Int) -> FaceLandmarks {
        func jitter(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let upright = p + SIMD2(random.gaussian(), random.gaussian()) * noisePixels
            return orientation.stored(upright, width: storedWidth, height: storedHeight)
        }
        return FaceLandmarks(leftEye: jitter(clean.leftEye), rightEye: jitter(clean.rightEye), mouth: jitter(clean.mouth))
    }

    /// The exact offset of `pose` from the resting pose at the same pivot, eye distances.
    func idealOffset(face: SimulatedFace, pose: HeadPose) -> SIMD2<Double> {
        guard let now = exactPointer(face: face, pose: pose),
            let rest = exactPointer(face: face, pose: HeadPose(pivot: pose.pivot))
        else { return .zero }
        return (now.position - rest.position) / rest.eyeDistance
    }

    private func exactPointer(face: SimulatedFace, pose: HeadPose) -> HeadPointer? {
        let (l, r, m) = face.points(pose)
        guard let a = camera.project(l), let b = camera.project(r), let c = camera.project(m) else { return nil }
        return try? HeadPointer.measure(FaceLandmarks(leftEye: a, rightEye: b, mouth: c)).get()
    }
}

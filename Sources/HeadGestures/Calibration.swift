/// The result of calibration: where the resting head points and how large the face is.
public struct Calibration: Sendable, Hashable {
    /// The idle zone's centre: the mean pointer of the last 5 steady samples, upright pixels.
    public var centre: SIMD2<Double>
    /// The mean eye distance of those samples, pixels.
    public var eyeDistance: Double
    /// The mean distance from the eyes' midpoint to the mouth, pixels.
    public var mouthDistance: Double
    /// When calibration finished.
    public var time: Double
    /// How far the steady samples scattered about their mean, horizontally and vertically,
    /// eye distances: the resting sway as far as calibration saw it.
    public var spread: SIMD2<Double>

    /// A calibration from its parts.
    public init(centre: SIMD2<Double>, eyeDistance: Double, mouthDistance: Double, time: Double, spread: SIMD2<Double> = .zero) {
        self.centre = centre
        self.eyeDistance = eyeDistance
        self.mouthDistance = mouthDistance
        self.time = time
        self.spread = spread
    }
}

/// Collects steady pointer samples and restarts when the pointer jumps: a head that is still
/// moving must not become the centre.
public struct Calibrator: Sendable {
    /// Samples needed before the centre is taken.
    public let samplesNeeded: Int
    /// A jump larger than this, in eye distances, between consecutive samples restarts.
    public let jump: Double
    /// The samples since the last restart.
    public private(set) var samples: [HeadPointer] = []
    /// How often calibration restarted because the pointer jumped.
    public private(set) var restarts = 0

    /// The centre is the mean of this many last samples, as in the seed.
    public static let averagedSamples = 5

    /// A calibrator needing `samplesNeeded` (at least 5) steady samples.
    public init(samplesNeeded: Int, jump: Double) {
        precondition(samplesNeeded >= Self.averagedSamples, "calibration averages the last 5 samples")
        self.samplesNeeded = samplesNeeded
        self.jump = jump
        samples.reserveCapacity(samplesNeeded)
    }

    /// Fraction of the samples collected, for a progress display.
    public var progress: Double { Double(samples.count) / Double(samplesNeeded) }

    /// Adds a sample; returns the calibration once enough steady samples are in.
    public mutating func add(_ pointer: HeadPointer, time: Double) -> Calibration? {
        if let last = samples.last, norm(pointer.position - last.position) > jump * pointer.eyeDistance {
            samples.removeAll(keepingCapacity: true)
            restarts += 1
        }
        samples.append(pointer)
        guard samples.count >= samplesNeeded else { return nil }
        let recent = samples.suffix(Self.averagedSamples)
        let n = Double(recent.count)
        let eyeDistance = recent.reduce(0) { $0 + $1.eyeDistance } / n
        let result = Calibration(
            centre: recent.reduce(.zero) { $0 + $1.position } / n,
            eyeDistance: eyeDistance,
            mouthDistance: recent.reduce(0) { $0 + $1.mouthDistance } / n,
            time: time, spread: RestingSway.spread(of: samples.map(\.position), eyeDistance: eyeDistance))
        samples.removeAll(keepingCapacity: true)
        return result
    }

    /// Forgets the samples (the face was lost); the restart count stays.
    public mutating func reset() { samples.removeAll(keepingCapacity: true) }
}

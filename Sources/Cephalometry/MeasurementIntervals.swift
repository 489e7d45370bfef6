import Foundation
import Geometry

/// A value's interval at the stated level, in the value's unit.
public struct ValueInterval: Sendable, Codable, Equatable {
    public var low: Double
    public var high: Double

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// Whether `value` lies within.
    public func contains(_ value: Double) -> Bool { value >= low && value <= high }
}

/// How sure the slice measures are: each one's 95 % interval from what is known about the
/// landmarks and the surface, by sampling.
public struct MeasurementIntervals: Sendable, Codable, Equatable {
    /// The intervals' level (0.95).
    public var level: Double
    public var cvai: ValueInterval
    public var cvaMM: ValueInterval
    public var ci: ValueInterval
    public var circumferenceMM: ValueInterval
    /// Samples drawn.
    public var samples: Int
    /// The standard deviations that went in: each landmark's (per axis), the surface's (per
    /// point, along its normal) and the scale's (relative), millimetres and a fraction.
    public var landmarkSigmaMM: LandmarkSigmas
    public var surfaceSigmaMM: Double
    public var scaleSigma: Double

    public init(
        level: Double, cvai: ValueInterval, cvaMM: ValueInterval, ci: ValueInterval, circumferenceMM: ValueInterval, samples: Int,
        landmarkSigmaMM: LandmarkSigmas, surfaceSigmaMM: Double, scaleSigma: Double
    ) {
        self.level = level
        self.cvai = cvai
        self.cvaMM = cvaMM
        self.ci = ci
        self.circumferenceMM = circumferenceMM
        self.samples = samples
        self.landmarkSigmaMM = landmarkSigmaMM
        self.surfaceSigmaMM = surfaceSigmaMM
        self.scaleSigma = scaleSigma
    }
}

/// Each landmark's standard deviation per axis, millimetres (nil: not known); fixed keys, so a
/// document from elsewhere carries no text in them.
public struct LandmarkSigmas: Sendable, Codable, Equatable {
    public var nasion: Double?
    public var noseTip: Double?
    public var leftTragion: Double?
    public var rightTragion: Double?

    public init(_ sigmas: [Landmark: Double] = [:]) {
        nasion = sigmas[.nasion]
        noseTip = sigmas[.noseTip]
        leftTragion = sigmas[.leftTragion]
        rightTragion = sigmas[.rightTragion]
    }
}

/// What is known about the measurement's inputs: each landmark's standard deviation per axis,
/// the surface's along its normal, and the scale's relative one.
public struct MeasurementUncertainty: Sendable, Equatable {
    /// Metres, per axis.
    public var landmarkSigma: [Landmark: Double]
    /// Metres, per surface point along its normal.
    public var surfaceSigma: Double
    /// Relative (the reconstruction's focal scale uncertainty).
    public var scaleSigma: Double

    public init(landmarkSigma: [Landmark: Double], surfaceSigma: Double, scaleSigma: Double) {
        self.landmarkSigma = landmarkSigma
        self.surfaceSigma = surfaceSigma
        self.scaleSigma = scaleSigma
    }
}

extension Cephalometer {
    /// The 95 % intervals of the slice measures of `slice` (measured on `mesh` with
    /// `landmarks`): each sample moves every landmark by its uncertainty and measures the slice
    /// of longest outline again (searched within 6 mm of the measured one), then moves each
    /// diagonal's and extent's ends by the surface's uncertainty and scales every distance by
    /// the scale's. The same inputs give the same intervals. Nil when fewer than half the
    /// samples could be measured.
    public static func intervals(
        _ slice: MeasuredSlice, mesh: TriangleMesh, landmarks: HeadLandmarks, uncertainty: MeasurementUncertainty,
        options: MeasurementOptions = .init(), samples: Int = 48, seed: UInt64 = 1
    ) -> MeasurementIntervals? {
        var random = SplitMix64(seed: seed)
        var drawn: [(cvai: Double, cva: Double, ci: Double, circumference: Double)] = []
        for _ in 0..<max(1, samples) {
            var moved = landmarks
            for landmark in Landmark.allCases {
                let sigma = uncertainty.landmarkSigma[landmark] ?? 0
                moved[landmark] += SIMD3(random.gaussian(sigma: sigma), random.gaussian(sigma: sigma), random.gaussian(sigma: sigma))
            }
            guard let values = longestOutline(mesh, landmarks: moved, near: slice.height, options: options) else { continue }
            let scale = 1 + random.gaussian(sigma: uncertainty.scaleSigma)
            // Each distance has two ends on the surface.
            func end() -> Double { random.gaussian(sigma: uncertainty.surfaceSigma * 1000) }
            let a = (values.diagonalAMM + end() + end()) * scale, b = (values.diagonalBMM + end() + end()) * scale
            let length = (values.lengthMM + end() + end()) * scale, width = (values.widthMM + end() + end()) * scale
            let circumference = (values.circumferenceMM + 2 * Double.pi * end()) * scale
            let longer = max(a, b)
            guard longer > 0, length > 0 else { continue }
            drawn.append((abs(a - b) / longer * 100, abs(a - b), width / length * 100, circumference))
        }
        guard drawn.count * 2 >= samples else { return nil }
        let m = slice.measurement
        func interval(_ values: [Double], around value: Double) -> ValueInterval {
            let sorted = values.sorted()
            return ValueInterval(
                low: min(value, quantile(sorted, 0.025)), high: max(value, quantile(sorted, 0.975)))
        }
        return MeasurementIntervals(
            level: 0.95, cvai: interval(drawn.map(\.cvai), around: m.cvai), cvaMM: interval(drawn.map(\.cva), around: m.cvaMM),
            ci: interval(drawn.map(\.ci), around: m.ci), circumferenceMM: interval(drawn.map(\.circumference), around: m.circumferenceMM),
            samples: drawn.count,
            landmarkSigmaMM: LandmarkSigmas(uncertainty.landmarkSigma.mapValues { $0 * 1000 }),
            surfaceSigmaMM: uncertainty.surfaceSigma * 1000, scaleSigma: uncertainty.scaleSigma)
    }

    /// The longest-outline slice's measures with `landmarks`, searched within 6 mm of `near`.
    static func longestOutline(
        _ mesh: TriangleMesh, landmarks: HeadLandmarks, near height: Double, options: MeasurementOptions
    ) -> ConventionMeasures? {
        guard let frame = try? HeadFrame(landmarks) else { return nil }
        let slicer = HeightSlicer(mesh: mesh, headFromMesh: frame.headFromMesh, binHeight: options.step)
        func contour(at z: Double) -> SliceContour? {
            SliceContour.outer(of: slicer.chains(at: z), around: .zero, maximumGap: options.maximumGap)
        }
        let start = max(options.lowestHeight, slicer.lowest, height - 0.006)
        guard
            let peak = peak(
                from: start, floor: options.lowestHeight, to: min(slicer.highest, height + 0.006), step: options.step,
                {
                    contour(at: $0)?.polygon.perimeter ?? 0
                }), let outline = contour(at: peak.height)
        else { return nil }
        return measures(.longestOutline, of: outline, at: peak.height)
    }

    /// The `p` quantile of sorted `values`, interpolated.
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard let first = sorted.first else { return .nan }
        let position = p * Double(sorted.count - 1)
        let below = Int(position.rounded(.down)), above = min(below + 1, sorted.count - 1)
        let t = position - Double(below)
        return sorted.indices.contains(below) ? sorted[below] * (1 - t) + sorted[above] * t : first
    }
}

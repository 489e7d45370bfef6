import Cephalometry
import Reconstruction

/// What processing knows about how sure each input of a measurement is.
enum UncertaintyModel {
    /// A found landmark's standard deviation per axis at full confidence, metres: the
    /// landmarks benchmark's errors on 30 simulated heads (tragion and nasion median 0.2 mm,
    /// worst 0.9 mm; the nose tip about twice that). An isotropic error of 0.14 mm per axis has
    /// a median length of 0.2 mm; 0.2 mm leaves room for the tails.
    static let foundSigma: [Landmark: Double] = [.leftTragion: 0.0002, .rightTragion: 0.0002, .nasion: 0.0002, .noseTip: 0.0004]
    /// Confidence below which a found landmark counts as this unsure (its sigma grows as
    /// 1 / confidence above it).
    static let lowestConfidence = 0.3
    /// A picked landmark is never surer than this per axis, metres: a fingertip on a phone
    /// screen is about 2 px, 0.5 mm at the head.
    static let pickFloor = 0.0005
    /// The fused surface's standard deviation along its normal that differs between the ends
    /// of a diagonal, metres. Most of the surface's error (0.2–0.3 mm on simulated scans) is
    /// shared by the whole head and cancels in CVAI: measured with the true landmarks, the
    /// simulated reconstructions' CVAI lay within 0.11 points of the truth on 30 heads, about
    /// 0.03 mm per end. Real phones' surfaces are not measured yet.
    static let surfaceSigma = 0.00005
    /// A scan without stickers takes its scale from the depth sensor, whose unit is up to
    /// about 1 % off on phones (three TrueDepth devices measured against a printed board read
    /// 0.76 % long, 0.56 % short and within 0.1 %): 1 % as two standard deviations.
    static let depthScaleSigma = 0.005

    /// The uncertainty of a measurement with `estimates` for the picked landmarks and `found`
    /// for the others, on a reconstruction with `statistics`; `scaledByDepth` for a scan whose
    /// scale is the depth sensor's own (placed without stickers).
    static func uncertainty(
        estimates: [Landmark: LandmarkEstimate], found: AutomaticLandmarks?, statistics: ReconstructionStatistics, scaledByDepth: Bool = false
    ) -> MeasurementUncertainty {
        var sigma: [Landmark: Double] = [:]
        for landmark in Landmark.allCases {
            if let pick = estimates[landmark] {
                let n = Double(max(1, pick.used.count))
                sigma[landmark] = max(pickFloor, pick.spreadMM / 1000 / (3 * n).squareRoot())
            } else if let detected = found?[landmark] {
                sigma[landmark] = (foundSigma[landmark] ?? 0.0005) / max(lowestConfidence, min(1, detected.confidence))
            }
        }
        let focal = statistics.focalScaleSigma.flatMap { $0.isFinite ? $0 : nil } ?? 0
        let scale = scaledByDepth ? max(focal, depthScaleSigma) : focal
        return MeasurementUncertainty(landmarkSigma: sigma, surfaceSigma: surfaceSigma, scaleSigma: scale)
    }

    /// The warning for a CVAI whose interval reaches across a boundary of the CHOA scale: the
    /// scan cannot tell the two levels apart.
    static func straddleWarning(cvai: Double, interval: ValueInterval, boundaries: [Double]) -> MeasurementWarning? {
        guard let boundary = boundaries.first(where: { interval.low < $0 && interval.high >= $0 }) else { return nil }
        let below = SeverityLevel(cvai: interval.low), above = SeverityLevel(cvai: interval.high)
        return MeasurementWarning(
            .intervalStraddlesLevel,
            String(
                format:
                    "CVAI %.2f %% has a 95 %% interval of %.2f–%.2f %%, across the boundary %.2f %% between CHOA levels %d and %d: "
                    + "the scan cannot tell them apart; compare with the calliper or scan again.",
                cvai, interval.low, interval.high, boundary, below.rawValue, above.rawValue))
    }
}

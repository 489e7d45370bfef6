import Foundation
import Geometry
import Markers

/// Whether a phone measures true sizes, judged from a recording of a printed marker board:
/// the reconstructed map against the printed board, after the focal length has been estimated
/// (and corrected past 1 %) and the scale set as a head scan's is (by the markers' printed size
/// where the depth agrees with it within what a depth unit is off). Where the layout gives the
/// markers' printed positions, by the distances between their centres (a detector's corner
/// placement does not move a centre); else by their sides, which the printed size then sets.
/// What is left is the error every head measurement from this phone would carry: a depth unit
/// further off than the print can correct, or a board not printed at 100 %.
public struct PhoneCheck: Sendable, Codable, Equatable {
    public enum Verdict: String, Sendable, Codable {
        case pass, fail, inconclusive
    }

    public var verdict: Verdict
    /// What the size was judged by: "marker spacing" or "marker sides".
    public var measuredBy: String
    /// The board as the phone measures it over its printed size (1 = true size).
    public var scale: Double
    /// The standard error of `scale` over the markers.
    public var scaleSigma: Double
    /// The largest accepted |scale − 1|.
    public var limit: Double
    public var markersMeasured: Int
    public var keyframes: Int
    /// The estimated focal length over the factory value, its standard deviation, and whether
    /// the estimate replaced the factory value.
    public var focalScale: Double?
    public var focalScaleSigma: Double?
    public var focalCorrected: Bool
    /// Why an estimate past 1 % was not applied (the recording's depth and colour disagree).
    public var focalCorrectionRefused: String?
    /// The board's markers through the depth against their printed size, and whether that
    /// set the scale (as it does in head scans); nil when not measured.
    public var printedScale: PrintedScale?
    /// The verdict in words for the clinic.
    public var summary: String

    /// Fewest markers and keyframes to judge by.
    static let minimumMarkers = 4, minimumKeyframes = 5
    /// The focal length must be known to this (relative, one sigma), or the views were too alike.
    static let focalSigmaLimit = 0.005

    /// Judges `reconstruction` of a board whose printed sides (and positions) `layout` gives.
    public init(_ reconstruction: Reconstruction, layout: CapLayout, limit: Double = 0.005) {
        let (measuredBy, mean, sigma, count) = Self.bySpacing(reconstruction.map, layout) ?? Self.bySides(reconstruction.map, layout)
        self.measuredBy = measuredBy
        let s = reconstruction.statistics
        scale = mean
        scaleSigma = sigma
        self.limit = limit
        markersMeasured = count
        keyframes = s.keyframes
        focalScale = s.focalScale
        focalScaleSigma = s.focalScaleSigma
        focalCorrected = s.focalScaleApplied != nil
        focalCorrectionRefused = s.focalCorrectionRefused
        printedScale = s.printedScale
        let focalUnknown = (s.focalScaleSigma ?? .infinity) > Self.focalSigmaLimit
        if count < Self.minimumMarkers || s.keyframes < Self.minimumKeyframes || focalUnknown || scaleSigma > limit / 3 {
            verdict = .inconclusive
        } else if s.focalCorrectionRefused != nil {
            // Depth and colour disagree by more than a depth unit is off: whichever of them is
            // wrong, the board coming out right at this distance is luck.
            verdict = .fail
        } else {
            verdict = abs(mean - 1) <= limit ? .pass : .fail
        }
        summary = ""
        summary = words(printedSide: layout.markerSide)
    }

    /// Mean side over printed side, its standard error, and the markers measured.
    static func bySides(_ map: MarkerMap, _ layout: CapLayout) -> (String, Double, Double, Int) {
        let ratios = map.ids.compactMap { id -> Double? in
            guard let c = map.corners[id], c.count == 4 else { return nil }
            var sides = 0.0
            for k in 0..<4 { sides += distance(c[k], c[(k + 1) % 4]) }
            return sides / 4 / layout.side(of: id)
        }
        let n = Double(ratios.count)
        let mean = ratios.reduce(0, +) / max(1, n)
        var squares = 0.0
        for r in ratios { squares += (r - mean) * (r - mean) }
        let spread: Double = ratios.count > 1 ? (squares / (n - 1)).squareRoot() : .infinity
        return ("marker sides", mean, spread / max(1, n).squareRoot(), ratios.count)
    }

    /// The map's marker centres against their printed positions, by a similarity fit: its
    /// scale, the scale's standard error from the fit's residuals, and the markers used; nil
    /// when fewer than four mapped markers have a printed position.
    static func bySpacing(_ map: MarkerMap, _ layout: CapLayout) -> (String, Double, Double, Int)? {
        var mapped: [SIMD3<Double>] = [], printed: [SIMD3<Double>] = []
        for marker in layout.markers {
            guard let position = marker.boardPosition, let c = map.corners[marker.id], c.count == 4 else { continue }
            mapped.append((c[0] + c[1] + c[2] + c[3]) / 4)
            printed.append(SIMD3(position.xMillimetres, position.yMillimetres, 0) / 1000)
        }
        guard mapped.count >= minimumMarkers, let fit = try? RigidAlignment.fit(from: printed, to: mapped, withScale: true) else { return nil }
        let centre = printed.reduce(SIMD3<Double>.zero, +) / Double(printed.count)
        let spread = printed.reduce(0) { $0 + dot($1 - centre, $1 - centre) }
        // A least-squares scale's standard error: the residual over the points' spread (the
        // whole residual, not its share along the scale's direction: on the safe side).
        let sigma = fit.rms / spread.squareRoot()
        return ("marker spacing", fit.scale, sigma, mapped.count)
    }

    private func words(printedSide: Double) -> String {
        let percent = { (x: Double) in String(format: "%.2f %%", abs(x) * 100) }
        let direction = scale >= 1 ? "too large" : "too small"
        let measured = "this phone measures the printed board \(percent(scale - 1)) \(direction) (the limit is \(percent(limit)))"
        var focal = ""
        if let refused = focalCorrectionRefused {
            focal = " Its camera's focal length was not corrected: \(refused)."
        } else if let f = focalScale {
            focal =
                focalCorrected
                ? " Its camera's factory focal length is \(percent(f - 1)) off; HeadScan corrects for it in every scan."
                : " Its camera's focal length agrees with the factory value (\(String(format: "%+.2f", (f - 1) * 100)) %)."
        }
        let scale = printedScale.map { " Its scale: " + $0.sentence } ?? ""
        return verdictWords(measured: measured, focal: focal, printedSide: printedSide) + scale
    }

    private func verdictWords(measured: String, focal: String, printedSide: Double) -> String {
        switch verdict {
        case .pass:
            return "Pass: \(measured). Head measurements from it can be trusted.\(focal)"
        case .fail where focalCorrectionRefused != nil:
            let board = abs(scale - 1) <= limit ? ", though \(measured)" : "; \(measured)"
            return "Fail: its depth and its colour camera disagree, so sizes measured with it cannot be trusted\(board)."
                + "\(focal) Do not measure with it; have the phone's front camera checked."
        case .fail:
            return "Fail: \(measured); head circumferences and diagonals would be about as far off. Do not measure with it: first check "
                + "that the board was printed at 100 % (a marker's black square must be \(String(format: "%.1f", printedSide * 1000)) mm), "
                + "then have the phone's front camera checked.\(focal)"
        case .inconclusive:
            return "Not enough to judge (\(markersMeasured) markers, \(keyframes) views): hold the phone about 30 cm from the board, "
                + "keep the whole board in view and tilt the phone slowly left, right, up and down for ten seconds, then check again."
        }
    }
}

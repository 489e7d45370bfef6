import Foundation
import Geometry
import Markers

/// Whether a phone measures true sizes, judged from a recording of a printed marker board:
/// the markers' sides in the reconstructed map against their printed sides, after the focal
/// length has been estimated (and corrected past 1 %). What is left is the error every head
/// measurement from this phone would carry: the depth's unit, or a board not printed at 100 %.
public struct PhoneCheck: Sendable, Codable, Equatable {
    public enum Verdict: String, Sendable, Codable {
        case pass, fail, inconclusive
    }

    public var verdict: Verdict
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
    /// The verdict in words for the clinic.
    public var summary: String

    /// Fewest markers and keyframes to judge by.
    static let minimumMarkers = 4, minimumKeyframes = 5
    /// The focal length must be known to this (relative, one sigma), or the views were too alike.
    static let focalSigmaLimit = 0.005

    /// Judges `reconstruction` of a board whose printed sides `layout` gives.
    public init(_ reconstruction: Reconstruction, layout: CapLayout, limit: Double = 0.005) {
        let ratios = reconstruction.map.ids.compactMap { id -> Double? in
            guard let c = reconstruction.map.corners[id], c.count == 4 else { return nil }
            var sides = 0.0
            for k in 0..<4 { sides += distance(c[k], c[(k + 1) % 4]) }
            return sides / 4 / layout.side(of: id)
        }
        let n = Double(ratios.count)
        let mean = ratios.reduce(0, +) / max(1, n)
        var squares = 0.0
        for r in ratios { squares += (r - mean) * (r - mean) }
        let spread: Double = ratios.count > 1 ? (squares / (n - 1)).squareRoot() : .infinity
        let s = reconstruction.statistics
        scale = mean
        scaleSigma = spread / max(1, n).squareRoot()
        self.limit = limit
        markersMeasured = ratios.count
        keyframes = s.keyframes
        focalScale = s.focalScale
        focalScaleSigma = s.focalScaleSigma
        focalCorrected = s.focalScaleApplied != nil
        let focalUnknown = (s.focalScaleSigma ?? .infinity) > Self.focalSigmaLimit
        if ratios.count < Self.minimumMarkers || s.keyframes < Self.minimumKeyframes || focalUnknown || scaleSigma > limit / 3 {
            verdict = .inconclusive
        } else {
            verdict = abs(mean - 1) <= limit ? .pass : .fail
        }
        summary = ""
        summary = words(printedSide: layout.markerSide)
    }

    private func words(printedSide: Double) -> String {
        let percent = { (x: Double) in String(format: "%.2f %%", abs(x) * 100) }
        let direction = scale >= 1 ? "too large" : "too small"
        let measured = "this phone measures the printed board \(percent(scale - 1)) \(direction) (the limit is \(percent(limit)))"
        var focal = ""
        if let f = focalScale {
            focal = focalCorrected
                ? " Its camera's factory focal length is \(percent(f - 1)) off; HeadScan corrects for it in every scan."
                : " Its camera's focal length agrees with the factory value (\(String(format: "%+.2f", (f - 1) * 100)) %)."
        }
        switch verdict {
        case .pass:
            return "Pass: \(measured). Head measurements from it can be trusted.\(focal)"
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

import Foundation
import Geometry

/// The scan's metric scale from the stickers' printed size instead of the phone's depth unit.
///
/// The map's markers are lifted through the depth, so a depth unit that reads 0.7 % long makes
/// every marker, and the head, 0.7 % large; the three real TrueDepth devices measured read
/// −0.56 to +0.76 % off a printed board. A sticker is flat paper of a known printed side, so
/// the map's mean side over the printed side, over every mapped marker, measures the depth unit
/// where the scan is made (a focal length that is off scales the picture, not the depth: the
/// self-calibration settles it first). Scaling the scan by its inverse makes the head as large
/// as the print says. A ratio further from 1 than a depth unit can be off says that the print
/// (a cap printed at 97 %, a layout of another size) or the depth is wrong; the depth then
/// keeps the scale and the reason is said.
public struct PrintedScale: Sendable, Equatable, Codable {
    /// The median over the mapped markers of a marker's mean side over its printed side:
    /// how far the depth unit reads long (above 1) or short.
    public var ratio: Double
    /// The median's standard deviation from the markers' scatter (1.2533 × 1.4826 × MAD / √n).
    public var ratioSigma: Double
    /// Markers measured.
    public var markers: Int
    /// Why the printed size did not set the scale; nil when it did.
    public var refused: String?

    public init(ratio: Double, ratioSigma: Double, markers: Int, refused: String? = nil) {
        self.ratio = ratio
        self.ratioSigma = ratioSigma
        self.markers = markers
        self.refused = refused
    }

    /// Whether the printed size set the scan's scale.
    public var applied: Bool { refused == nil }

    /// The factor every depth and every length of the scan is multiplied by: 1 / ratio when
    /// applied, else 1 (and 1 for a ratio no phone's depth gives, as a record read from
    /// elsewhere might hold).
    public var depthScale: Double { applied && ratio.isFinite && abs(ratio - 1) <= Self.largestPlausibleOffset ? 1 / ratio : 1 }

    /// Furthest from 1 a ratio may be to scale anything at all.
    static let largestPlausibleOffset = 0.1
}

/// When the printed size may set the scale.
public struct PrintedScaleRule: Sendable, Equatable {
    /// Most the stickers may measure off their printed size for the depth unit to be blamed
    /// (relative): a TrueDepth camera's depth unit is within about 1 %, twice that is a print or
    /// a depth that is wrong (the same bound the focal correction's check uses).
    public var tolerance = 0.02
    /// Fewest markers measured.
    public var minimumMarkers = 6
    /// Largest standard deviation of the ratio (relative): a scatter wider than this says the
    /// map's sides are not measuring one unit.
    public var largestSigma = 0.003

    public init() {}

    /// The ratio of `map`'s markers to their printed sides (`printedSide(id)`, metres), and
    /// whether it may set the scale; nil when no marker could be measured.
    public func estimate(_ map: MarkerMap, printedSide: (Int) -> Double) -> PrintedScale? {
        var ratios: [Double] = []
        for (id, corners) in map.corners where corners.count == 4 {
            let side = printedSide(id)
            guard side > 0, side.isFinite else { continue }
            var sum = 0.0
            for k in 0..<4 { sum += length(corners[(k + 1) % 4] - corners[k]) }
            let ratio = sum / 4 / side
            if ratio.isFinite, ratio > 0 { ratios.append(ratio) }
        }
        guard !ratios.isEmpty else { return nil }
        let median = Statistics.median(ratios)
        let mad = Statistics.median(ratios.map { abs($0 - median) })
        let sigma = 1.2533 * 1.4826 * mad / Double(ratios.count).squareRoot()
        return PrintedScale(
            ratio: median, ratioSigma: sigma, markers: ratios.count, refused: refusal(ratio: median, sigma: sigma, markers: ratios.count))
    }

    /// Why a measured ratio must not set the scale, in words for the clinic; nil when it may.
    func refusal(ratio: Double, sigma: Double, markers: Int) -> String? {
        let percent = { (x: Double) in String(format: "%.1f %%", abs(x) * 100) }
        if markers < minimumMarkers {
            return "only \(markers) stickers were mapped (\(minimumMarkers) are needed to check the depth's scale by their printed size)"
        }
        if !(sigma <= largestSigma) {
            return "the stickers' mapped sizes scatter by \(percent(sigma)) and do not give one scale"
        }
        if abs(ratio - 1) > tolerance {
            return "the stickers measure \(percent(ratio - 1)) \(ratio > 1 ? "larger" : "smaller") than printed through the depth, "
                + "further than a phone's depth is off: check that the cap was printed at 100 % and is the layout the scan names"
        }
        return nil
    }
}

extension MarkerMap {
    /// The map with every corner's coordinates multiplied by `factor` (about the map's origin).
    public func scaled(by factor: Double) -> MarkerMap {
        MarkerMap(corners: corners.mapValues { $0.map { $0 * factor } })
    }
}

extension Keyframe {
    /// The keyframe in a world scaled by `factor` about the map's origin: its position and the
    /// corners lifted through the depth scale; its pictures do not, nor the corners placed by
    /// the printed size alone (PnP), which were at that scale already.
    func scaled(by factor: Double) -> Keyframe {
        var out = self
        out.mapFromCamera.translation *= factor
        func scale(_ o: MarkerObservation) -> MarkerObservation {
            guard o.fromDepth else { return o }
            var o = o
            o.corners = o.corners.map { $0 * factor }
            o.depthSigma *= factor
            return o
        }
        out.observations = observations.map(scale)
        out.unread = unread.map(scale)
        return out
    }
}

extension PrintedScale {
    /// Which of the print and the depth set the scan's scale, and by how much they differ, in
    /// one sentence for the clinic.
    public var sentence: String {
        let off = String(format: "%.2f %%", abs(ratio - 1) * 100)
        let spread = String(format: "± %.2f %%", ratioSigma * 100)
        let how = ratio > 1 ? "larger" : "smaller"
        guard let refused else {
            return "set by the stickers' printed size: through the depth they measured \(off) \(how) than printed "
                + "(\(spread), \(markers) stickers), and the scan was scaled to the print."
        }
        return "set by the phone's depth, not by the stickers' printed size (through the depth they measured \(off) \(how) "
            + "than printed, \(spread), \(markers) stickers): \(refused)."
    }
}

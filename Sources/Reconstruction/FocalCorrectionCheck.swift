import Foundation
import Geometry

/// Whether a focal estimate that differs from the factory value may replace it. The estimate
/// comes from where the markers' centres are seen and how far away the depth puts them, so it
/// takes the depth for right. The markers' sides, lifted through the depth and the colour
/// camera, check that: with the focal length scaled by `s`, every lifted side scales by 1/s, and
/// with a right camera and a right depth they are the printed sides. Where the corrected camera
/// would make the markers further from their printed size than a phone's depth unit can be off,
/// depth and colour disagree (a depth registered against the wrong colour pixels, a depth unit
/// far off, frames not taken together) and the estimate is not applied; nor is one that no phone's
/// factory calibration is that far off.
public struct FocalCorrectionCheck: Sendable, Equatable {
    /// Most a corrected camera may leave the lifted markers off their printed size (relative):
    /// a TrueDepth camera's depth unit is within about 1 %, twice that is disagreement.
    public var printedSizeTolerance = 0.02
    /// Most a phone's factory focal length is off (relative): the worst seen, a tablet's, was
    /// 6.2 %.
    public var largestPlausibleChange = 0.1

    public init() {}

    /// The median over the keyframes' depth-lifted observations of a marker's mean side over
    /// its printed side (`printedSide(id)`); nil without any.
    public static func liftedSizeRatio(_ keyframes: [Keyframe], printedSide: (Int) -> Double) -> Double? {
        var ratios: [Double] = []
        for keyframe in keyframes {
            for o in keyframe.observations where o.fromDepth && o.corners.count == 4 {
                let side = printedSide(o.id)
                guard side > 0 else { continue }
                var sum = 0.0
                for k in 0..<4 { sum += length(o.corners[(k + 1) % 4] - o.corners[k]) }
                ratios.append(sum / 4 / side)
            }
        }
        return ratios.isEmpty ? nil : Statistics.median(ratios)
    }

    /// The median over `map`'s markers of a marker's mean side over its printed side
    /// (`printedSide(id)`); nil without any. The map averages every view of a marker, so it
    /// reads the depth's scale where single views do not: on a restless scan (seed 91, the
    /// focal length 6 % off and the depth 1 % long) the views' median read 1.6 % larger than
    /// the map, which was right, and a right correction was refused.
    public static func mapSizeRatio(_ map: MarkerMap, printedSide: (Int) -> Double) -> Double? {
        var rule = PrintedScaleRule()
        rule.minimumMarkers = 1
        return rule.estimate(map, printedSide: printedSide)?.ratio
    }

    /// Why the estimated focal scale `scale` must not be applied, in words for the clinic;
    /// nil when it may. `sizeRatio` is `mapSizeRatio` (or `liftedSizeRatio`) with the recorded camera.
    public func refusal(scale: Double, sizeRatio: Double?) -> String? {
        let percent = { (x: Double) in String(format: "%.1f %%", abs(x) * 100) }
        guard scale.isFinite, scale > 0 else { return "the focal length could not be estimated" }
        if abs(scale - 1) > largestPlausibleChange {
            return "the estimate puts the focal length \(percent(scale - 1)) from the factory value, further than any phone's is off; "
                + "the recording's depth and colour do not agree"
        }
        guard let sizeRatio else { return nil }
        let corrected = sizeRatio / scale
        guard abs(corrected - 1) > printedSizeTolerance, abs(corrected - 1) > abs(sizeRatio - 1) else { return nil }
        return "with the estimated focal length (\(percent(scale - 1)) off the factory value) the depth would make the markers "
            + "\(percent(corrected - 1)) \(corrected > 1 ? "larger" : "smaller") than printed, against \(percent(sizeRatio - 1)) with the "
            + "factory value: the recording's depth and colour do not agree, so the factory focal length was kept"
    }
}

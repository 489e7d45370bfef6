import Foundation
import Geometry

/// The warnings of a finished analysis.
struct WarningRules {
    let settings: RangeOfMotionSettings
    let gates: FrameGates

    /// Typical adult hip-joint spacing over thigh length (about 18 over 43 cm): from the side
    /// the two hips overlap, seen from the front they stand this many thigh lengths apart.
    static let hipSpacingPerThigh = 0.42
    /// Fewer passed frames than this get a warning.
    static let fewFrames = 6

    func warnings(_ analysis: RangeOfMotionAnalysis, legs: [FrameLegs?]) -> [AnalysisWarning] {
        var warnings: [AnalysisWarning] = []
        if let min = analysis.minimum?.angle, let max = analysis.maximum?.angle, max - min < settings.minimumMotion {
            warnings.append(.smallMotion(degrees: max - min, minimum: settings.minimumMotion))
        }
        let atEdge = framesAtEdge(legs)
        if atEdge > 0 { warnings.append(.leftPicture(frames: atEdge)) }
        if let degrees = viewDegrees(analysis, legs: legs), degrees >= settings.sideOnWarningDegrees {
            warnings.append(.notSideOn(degrees: degrees))
        }
        let passed = analysis.quality.framesPassed
        if passed > 0, passed < Self.fewFrames { warnings.append(.fewFrames(passed)) }
        if passed > 0, settings.detectHyperextension, analysis.flexionSense == nil { warnings.append(.unknownFlexionSense) }
        return warnings
    }

    /// Frames with a trusted hip, knee or ankle at or beyond the picture's edge.
    private func framesAtEdge(_ legs: [FrameLegs?]) -> Int {
        let margin = settings.edgeMargin * min(gates.width, gates.height)
        return legs.compactMap { $0 }.filter { leg in
            leg.measured.contains { $0.confidence > (settings.minimumConfidence ?? -1) && !gates.isInside($0.position, margin: margin) }
        }.count
    }

    /// How far off the patient's side the camera looks, from how far apart the two hips
    /// appear in the passed frames; nil when the other hip was not found.
    private func viewDegrees(_ analysis: RangeOfMotionAnalysis, legs: [FrameLegs?]) -> Double? {
        let ratios: [Double] = analysis.frames.filter(\.passed).compactMap { frame in
            let pose = legs[frame.index]!.pose(minimumConfidence: settings.minimumConfidence)
            guard let other = pose.otherHip, pose.thighLength > 0 else { return nil }
            return abs(pose.hip.x - other.x) / pose.thighLength
        }
        guard !ratios.isEmpty else { return nil }
        return asin(min(1, Statistics.median(ratios) / Self.hipSpacingPerThigh)) * 180 / .pi
    }
}

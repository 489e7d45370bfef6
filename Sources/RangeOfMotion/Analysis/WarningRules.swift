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
        if let min = analysis.minimum?.angle, let max = analysis.maximum?.angle {
            let depth = ExtremeFit.depth(band: settings.extremeBand, range: max - min)
            if leftPicture(analysis.frames, near: min, within: depth, sign: -1) { warnings.append(.endLeftPicture(mostBent: true)) }
            if leftPicture(analysis.frames, near: max, within: depth, sign: 1) { warnings.append(.endLeftPicture(mostBent: false)) }
        }
        if let degrees = viewDegrees(analysis, legs: legs), degrees >= settings.sideOnWarningDegrees {
            warnings.append(.notSideOn(degrees: degrees))
        }
        let passed = analysis.quality.framesPassed
        if passed > 0, passed < Self.fewFrames { warnings.append(.fewFrames(passed)) }
        if passed > 0, settings.detectHyperextension, analysis.flexionSense == nil { warnings.append(.unknownFlexionSense) }
        return warnings
    }

    /// Whether frames refused for leaving the picture lie at an end: a run of refused frames,
    /// one of them outside the picture, whose passed neighbours on either side (the one side
    /// at the video's start or end) both lie within `depth` of the end `extreme`. The knee
    /// went on past those neighbours where the camera could not see it: a heel drawn up out
    /// of a portrait picture read a knee bent 110° as bent 139°, with nothing but the count of
    /// frames at the edge to say so.
    private func leftPicture(_ frames: [FrameResult], near extreme: Double, within depth: Double, sign: Double) -> Bool {
        func nearEnd(_ f: FrameResult?) -> Bool { f.flatMap(\.angle).map { sign * ($0 - extreme) >= -depth } ?? true }
        var start = 0
        while start < frames.count {
            guard !frames[start].passed else {
                start += 1
                continue
            }
            var end = start
            while end + 1 < frames.count, !frames[end + 1].passed { end += 1 }
            let outside = frames[start...end].contains { $0.reason == .outsidePicture }
            let before = start > 0 ? frames[start - 1] : nil, after = end + 1 < frames.count ? frames[end + 1] : nil
            if outside, before != nil || after != nil, nearEnd(before), nearEnd(after) { return true }
            start = end + 1
        }
        return false
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
            guard legs.indices.contains(frame.index), let leg = legs[frame.index] else { return nil }
            let pose = leg.pose(minimumConfidence: settings.minimumConfidence)
            guard let other = pose.otherHip, pose.thighLength > 0 else { return nil }
            return abs(pose.hip.x - other.x) / pose.thighLength
        }
        guard !ratios.isEmpty else { return nil }
        return asin(min(1, Statistics.median(ratios) / Self.hipSpacingPerThigh)) * 180 / .pi
    }
}

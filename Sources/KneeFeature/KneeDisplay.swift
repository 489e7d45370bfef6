import AppSupport
import Foundation
import RangeOfMotion

/// The screens of the knee measurement, in the order the user meets them.
public enum KneeScreen: Sendable, Equatable {
    case welcome, instructions, sidePicker, processing, result, history
}

/// One earlier measurement in a list.
public struct KneePastResult: Sendable, Equatable, Identifiable {
    /// The stored file's path.
    public var id: String
    /// "22.11.2026 10:30".
    public var date: String
    /// "Left", "Rechts".
    public var side: String
    /// "5-0-140", or that the video was not measured.
    public var form: String
}

/// Progress through the frames of the video.
public struct KneeProgress: Sendable, Equatable {
    public var done: Int
    public var total: Int

    public init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }

    /// 0...1.
    public var fraction: Double { total > 0 ? Double(min(done, total)) / Double(total) : 0 }
}

/// Why the measurement failed, for the alert with its retry button.
public struct KneeFailure: Sendable, Equatable {
    public var title: String
    public var message: String
}

/// A measurement as the result screen shows it.
public struct KneeResult: Sendable, Equatable {
    /// "Left knee, extension/flexion 5-0-140".
    public var headline: String
    public var flexion: String
    public var `extension`: String
    /// "Most bent: 40,0° at 4,7 s", with the frame for its picture.
    public var mostBent: String
    public var mostBentFrame: ExtremeFrame
    public var straightest: String
    public var straightestFrame: ExtremeFrame
    /// "48 of 60 frames used".
    public var frames: String
    /// What ± means, when an end shows one.
    public var uncertaintyNote: String?
    public var warnings: [String]
    /// The whole analysis, for the report.
    public var analysis: RangeOfMotionAnalysis
    public var date: Date
}

extension Strings {
    /// The side's name.
    func sideName(_ side: BodySide) -> String { side == .left ? self(.kneeSideLeft) : self(.kneeSideRight) }

    /// A date in the language's usual form.
    func shortDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language == .de ? "de_DE" : "en_GB")
        formatter.dateFormat = language == .de ? "dd.MM.yyyy HH:mm" : "d MMM yyyy HH:mm"
        return formatter.string(from: date)
    }

    /// A warning in the user's language.
    func kneeWarning(_ warning: AnalysisWarning) -> String {
        switch warning {
        case .smallMotion(let degrees, _): self(.kneeWarningSmallMotion, String(Int(degrees.rounded())))
        case .leftPicture(let frames): self(.kneeWarningLeftPicture, String(frames))
        case .endLeftPicture(let mostBent): self(mostBent ? .kneeWarningMostBentLeftPicture : .kneeWarningStraightestLeftPicture)
        case .notSideOn(let degrees): self(.kneeWarningNotSideOn, String(Int(degrees.rounded())))
        case .fewFrames(let count): self(.kneeWarningFewFrames, String(count))
        case .unknownFlexionSense: self(.kneeWarningUnknownSense)
        }
    }

    /// An extreme's angle with its uncertainty when the fit gave one: "40,0 ± 0,8" (none for
    /// an end not seen: its angle is a bound).
    func angle(_ extreme: ExtremeFrame, unseen: Bool = false) -> String {
        decimal(extreme.angle) + (unseen ? "" : extreme.uncertainty.map { " ± " + decimal($0) } ?? "")
    }

    /// The result screen's texts for an accepted analysis.
    func kneeResult(_ a: RangeOfMotionAnalysis, date: Date) -> KneeResult? {
        guard a.accepted, let nz = a.neutralZero, let low = a.minimum, let high = a.maximum else { return nil }
        return KneeResult(
            headline: self(.kneeResultForm, a.side == .left ? self(.kneeLeftKnee) : self(.kneeRightKnee), nz.notation),
            flexion: self(nz.flexionAtLeast ? .kneeResultFlexionAtLeast : .kneeResultFlexion, decimal(nz.flexionDegrees)),
            extension: self(nz.extensionAtLeast ? .kneeResultExtensionAtLeast : .kneeResultExtension, decimal(nz.extensionDegrees)),
            mostBent: self(
                a.mostBentUnseen ? .kneeResultMostBentUnseen : .kneeResultMostBent, angle(low, unseen: a.mostBentUnseen), decimal(low.time)),
            mostBentFrame: low,
            straightest: self(
                a.straightestUnseen ? .kneeResultStraightestUnseen : .kneeResultStraightest, angle(high, unseen: a.straightestUnseen),
                decimal(high.time)),
            straightestFrame: high,
            frames: self(.kneeResultFrames, String(a.quality.framesPassed), String(a.quality.framesTotal)),
            uncertaintyNote: shownUncertainty(a) ? self(.kneeResultUncertainty) : nil,
            warnings: a.warnings.map(kneeWarning), analysis: a, date: date)
    }

    /// Whether either end is shown with a ±: a seen end with an uncertainty.
    private func shownUncertainty(_ a: RangeOfMotionAnalysis) -> Bool {
        (!a.mostBentUnseen && a.minimum?.uncertainty != nil) || (!a.straightestUnseen && a.maximum?.uncertainty != nil)
    }
}

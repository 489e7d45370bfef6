import AppSupport
import Feedback
import Foundation
import Observation
import ScanLibrary

/// The rating screen: how the scan went, saved with the feedback settings in force.
@MainActor @Observable
public final class ScanRatingModel {
    private var quality = 3
    private var impact = 3
    private var fit = 3
    /// How well the scan could be done, 1–5 (values outside are clamped).
    public var scanQuality: Int {
        get { quality }
        set { quality = Self.clamp(newValue) }
    }
    /// How much the child's behaviour affected the scan, 1–5.
    public var behaviourImpact: Int {
        get { impact }
        set { impact = Self.clamp(newValue) }
    }
    /// How well the cap fitted, 1–5.
    public var capFit: Int {
        get { fit }
        set { fit = Self.clamp(newValue) }
    }
    /// Whether the child was cooperative.
    public var childCooperative = true
    /// Whether the scan was paused for a heat warning.
    public var pausedForHeat = false
    /// Whether the operator had to look at the screen.
    public var neededScreen = false
    /// The child's behaviour, asked for when it was not cooperative.
    public var behaviourNote = ""
    /// Why saving failed, if it did.
    public private(set) var failure: String?
    /// Called when the screen is done (saved or closed): back home.
    @ObservationIgnored public var onFinished: () -> Void = {}

    @ObservationIgnored private let session: ScanSession
    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let settings: FeedbackSettings
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings

    /// The rating of `session`, made with `settings`.
    public init(session: ScanSession, library: ScanLibrary, settings: FeedbackSettings, clock: any AppClock, strings: Strings) {
        self.session = session
        self.library = library
        self.settings = settings
        self.clock = clock
        self.strings = strings
    }

    /// Whether the behaviour text field shows.
    public var showsBehaviourNote: Bool { !childCooperative }

    /// Why the behaviour note is needed, when it is and is empty.
    public var behaviourNoteProblem: String? {
        guard showsBehaviourNote, behaviourNote.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return strings(.ratingNoteMissing)
    }

    /// Save is enabled when the behaviour is described where it must be.
    public var canSave: Bool { behaviourNoteProblem == nil }

    /// The questions, in screen order.
    public var questions: [String] {
        [.ratingQuality, .ratingBehaviourImpact, .ratingCooperative, .ratingCapFit, .ratingPausedForHeat, .ratingNeededScreen]
            .map { strings($0) }
    }

    /// The record the screen describes.
    public var record: RatingRecord {
        let note = behaviourNote.trimmingCharacters(in: .whitespacesAndNewlines)
        return RatingRecord(
            scanQuality: scanQuality, behaviourImpact: behaviourImpact, capFit: capFit, childCooperative: childCooperative,
            pausedForHeat: pausedForHeat, neededScreen: neededScreen,
            behaviourNote: childCooperative || note.isEmpty ? nil : note, settings: settings, ratedAt: clock.now())
    }

    /// Saves `rating.json` and finishes.
    public func save() {
        guard canSave else { return }
        do {
            try library.saveRating(record, in: session)
            onFinished()
        } catch {
            failure = strings.message(error)
        }
    }

    /// Closes without rating.
    public func close() { onFinished() }

    private static func clamp(_ v: Int) -> Int { min(max(v, RatingRecord.scale.lowerBound), RatingRecord.scale.upperBound) }
}

import Feedback
import Foundation

/// `rating.json`: how the scan went in the operator's eyes, with the feedback settings that
/// were in force, so that ratings can be compared across settings.
public struct RatingRecord: LibraryDocument {
    public static let fileName = "rating.json"
    public static let currentVersion = 1
    public static let fieldNames: Set<String> = [
        "scanQuality", "behaviourImpact", "capFit", "childCooperative", "pausedForHeat", "neededScreen",
        "behaviourNote", "settings", "ratedAt",
    ]
    /// The slider range.
    public static let scale = 1...5

    /// How well the scan could be done (1 poor … 5 very good).
    public var scanQuality: Int
    /// How much the child's behaviour affected the scan (1 not at all … 5 completely).
    public var behaviourImpact: Int
    /// How well the cap fitted (1 poor … 5 very good).
    public var capFit: Int
    /// Whether the child was cooperative.
    public var childCooperative: Bool
    /// Whether the scan was paused for a sensor heat warning.
    public var pausedForHeat: Bool
    /// Whether the operator had to look at the screen besides sound and vibration.
    public var neededScreen: Bool
    /// The child's behaviour in words, when it was not cooperative.
    public var behaviourNote: String?
    /// The feedback settings the scan was made with.
    public var settings: FeedbackSettings
    /// When the rating was saved.
    public var ratedAt: Date

    /// A rating from its values.
    public init(
        scanQuality: Int, behaviourImpact: Int, capFit: Int, childCooperative: Bool, pausedForHeat: Bool,
        neededScreen: Bool, behaviourNote: String?, settings: FeedbackSettings, ratedAt: Date
    ) {
        self.scanQuality = scanQuality
        self.behaviourImpact = behaviourImpact
        self.capFit = capFit
        self.childCooperative = childCooperative
        self.pausedForHeat = pausedForHeat
        self.neededScreen = neededScreen
        self.behaviourNote = behaviourNote
        self.settings = settings
        self.ratedAt = ratedAt
    }

    public func validate() throws(ScanLibraryError) {
        for (name, value) in [("scanQuality", scanQuality), ("behaviourImpact", behaviourImpact), ("capFit", capFit)]
        where !Self.scale.contains(value) {
            throw .invalidDocument(file: Self.fileName, reason: "\(name) \(value) is outside 1–5")
        }
    }
}

/// A reason to trust a measurement less; the values are still reported.
public struct MeasurementWarning: Sendable, Codable, Equatable, CustomStringConvertible {
    /// What kind of doubt this is, for scripts and the app to act on.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The landmarks are where no infant's landmarks can be.
        case implausibleLandmarks
        /// The measured slice had holes that were bridged with straight segments.
        case openContour
        /// Part of the measurement lies where the mesh has no surface.
        case sliceLeavesSurface
        /// A picked landmark lies far from where the search finds it on the head.
        case landmarksDisagree
        /// A landmark was found on the head, but its feature was faint.
        case uncertainLandmark
        /// Some of the cap's stickers were never seen (fallen off, folded under or unreadable).
        case stickersMissing
        /// The cap sat too high: its lowest ring of stickers was never seen.
        case capSitsHigh
        /// The cap moved on the head during the scan (found by tracking the head's surface).
        case capMoved
        /// The depth showed that the cap may have moved on the head, not clearly enough to undo it.
        case capMayHaveMoved
        /// The cap stood off the skin (hair under it), so the surface measured is the cap's;
        /// measured only on request.
        case capLifted
        /// The cap may stand off the skin at its edge (hair under it?), less than the limit.
        case capMayBeLifted
        /// Many frames were left out because too few stickers could be read in them.
        case framesUnplaced
        /// CVAI's 95 % interval reaches across a boundary of the severity scale.
        case intervalStraddlesLevel
        /// The scan was placed without stickers, by the head's surface and the cap's print.
        case scannedWithoutStickers
    }

    /// The kind of doubt.
    public var kind: Kind
    /// What was found and what to check, for the clinician.
    public var message: String

    /// A warning from its parts.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

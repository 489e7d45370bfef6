import Cephalometry

/// How much of the cap the scan saw, in the therapist's words: how many stickers were never
/// seen, whether the scan is still good, and what to do before the next one.
public enum CapCoverage {
    /// The share of a cap's stickers that may be missing with no measurable loss: with a
    /// third of them lost the cap benchmark measures as with a whole cap.
    public static let enoughShare = 2.0 / 3

    /// The warning for a scan that read `seen` of the cap's `total` stickers, `unread` more
    /// seen only as outlines (their prints unreadable); nil when it read them all.
    public static func warning(seen: Int, of total: Int, unread: Int = 0) -> MeasurementWarning? {
        guard total > 0, seen < total else { return nil }
        let missing = total - seen
        let stickers = missing == 1 ? "1 of the cap's \(total) stickers was" : "\(missing) of the cap's \(total) stickers were"
        let outlines = min(max(0, unread), missing)
        let damaged =
            outlines == 0
            ? ""
            : outlines == 1
                ? "; 1 of them had a smeared, torn or creased print, was placed by its outline and should be replaced"
                : "; \(outlines) of them had smeared, torn or creased prints, were placed by their outlines and should be replaced"
        let what = "\(stickers) never read (fallen off, folded under, unreadable or not filmed)\(damaged)"
        if Double(seen) >= enoughShare * Double(total) {
            return MeasurementWarning(
                .stickersMissing,
                "\(what); the other \(seen) were enough to place the scan. Check the cap and replace any missing stickers before the next scan.")
        }
        return MeasurementWarning(
            .stickersMissing,
            "\(what); with only \(seen) the scan may be less accurate: check the head's surface in the replay, and check the cap (replace missing stickers or use a new cap) before the next scan."
        )
    }
}

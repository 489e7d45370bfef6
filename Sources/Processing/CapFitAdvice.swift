import Cephalometry
import Markers
import Reconstruction

/// What the scan tells about how the cap sat, in words the therapist acts on: a cap that rode
/// up, and a cap that moved on the head.
public enum CapFitAdvice {
    /// The sentence on a cap whose lowest ring was (nearly) never seen while the ring above
    /// it was; nil when the cap sat low enough or the layout does not say where its rings are.
    public static func ridesUp(seen: Set<Int>, layout: CapLayout) -> String? {
        guard let rings = layout.edgeRings, rings.ridesUp(seen: seen) else { return nil }
        let shown = rings.lowest.filter(seen.contains).count
        let edge = shown == 0 ? "none" : "only \(shown)"
        return "the cap sat too high: \(edge) of the \(rings.lowest.count) stickers of its lowest ring (over the forehead, ears and neck) "
            + "were seen, though the ring above them was, so the views of the ears and the face were placed by fewer stickers. "
            + "Pull the cap down over the forehead and ears before the next scan, or use a bigger cap if it will not stay"
    }

    /// The warning for a measured scan whose cap rode up.
    public static func ridesUpWarning(seen: Set<Int>, layout: CapLayout) -> MeasurementWarning? {
        ridesUp(seen: seen, layout: layout).map { MeasurementWarning(.capSitsHigh, capitalised($0) + ".") }
    }

    /// The sentence on a cap that slid on the head during the scan: when, how far, and what
    /// the reconstruction did about it.
    public static func slid(_ slide: CapSlide) -> String {
        String(
            format: "the cap slid on the head about %.0f s into the scan, by about %.0f mm at the stickers (%.0f°). ", slide.startSeconds,
            slide.millimetres, slide.degrees)
            + (slide.keyframesSetAside > 0 ? "The \(slide.keyframesSetAside) views taken while it moved were left out, and the" : "The")
            + " \(slide.keyframesMoved) views after it were placed on the head's own surface, so the measurement follows the head, not the cap. Check the head's surface in the replay, "
            + "and make sure the cap fits snugly before the next scan"
    }

    /// The warning for a scan whose cap slid on the head; nil when it held still.
    public static func slidWarning(_ slide: CapSlide?) -> MeasurementWarning? {
        slide.map { MeasurementWarning(.capMoved, capitalised(slid($0)) + ".") }
    }

    /// The warning for a scan whose cap may have slid on the head: the depth showed a slide,
    /// but not clearly enough to undo it, so the head may be fused in two places a few
    /// millimetres apart; nil when it showed none.
    public static func mayHaveSlidWarning(_ doubt: CapSlideDoubt?) -> MeasurementWarning? {
        doubt.map {
            MeasurementWarning(
                .capMayHaveMoved,
                String(
                    format: "The cap may have slid on the head about %.0f s into the scan, by about %.0f mm: the head's surface after that "
                        + "moment fits what was seen before it better when moved by that much, but not clearly enough to undo the slide. "
                        + "If it did slide, the measurement can be a point or more off. Check in the replay whether the face and ears "
                        + "appear twice, scan again with the cap pulled snug if they do.", $0.startSeconds, $0.millimetres))
        }
    }

    /// What a cap lifted off the skin means and what to do, after "The cap stands … off the
    /// skin at its lower edge …".
    static let liftedAdvice =
        "hair under the cap lifts the fabric there (or the cap moved on the head during the scan), so the scan shows the cap, not the skull, "
        + "and the head's shape would be measured wrong (3 mm of hair can move CVAI by 3 points). Flatten the hair under the cap "
        + "(damp it, or put a thin stocking cap on first), pull the cap snug so that it cannot move, and scan again"

    /// The sentence on a cap standing off the skin: how far, where, and what to do.
    public static func lifted(_ standOff: CapStandOff) -> String {
        String(format: "the cap stands about %.1f mm off the skin at its lower edge %@: ", standOff.largest * 1000, standOff.place)
            + liftedAdvice
    }

    /// The warning for a scan measured although its cap stood off the skin (on request).
    public static func liftedWarning(_ standOff: CapStandOff) -> MeasurementWarning? {
        guard standOff.liftedByHair else { return nil }
        return MeasurementWarning(.capLifted, capitalised(lifted(standOff)) + "; it was measured on request, and its values are not the skull's.")
    }

    /// The warning for a scan whose cap may stand off the skin at its edge (below the limit
    /// at which it is not measured); nil when it lies on the skin or is past the limit.
    public static func mayBeLiftedWarning(_ standOff: CapStandOff) -> MeasurementWarning? {
        guard standOff.mayBeLifted else { return nil }
        return MeasurementWarning(
            .capMayBeLifted,
            String(format: "The cap may stand about %.1f mm off the skin at its lower edge %@: ", standOff.largest * 1000, standOff.place)
                + "if there is hair under it, the head's shape was measured on the cap, not the skull, and CVAI can be a point or more off "
                + "where the hair is thicker higher up. Check in the replay whether the fabric rises off the skin there, and flatten the "
                + "hair under the cap before the next scan.")
    }

    /// A share of examined frames left out above which the therapist hears of it.
    public static let unplacedShare = 0.1

    /// The warning for a scan whose frames could not all be placed: every frame is placed by
    /// the cap's stickers, so one with too few readable ones is left out, and what it alone
    /// showed of the head is missing; nil when nearly all were placed.
    public static func unplacedWarning(_ statistics: ReconstructionStatistics) -> MeasurementWarning? {
        let examined = statistics.framesExamined, left = statistics.framesRejected
        guard examined > 0, Double(left) >= unplacedShare * Double(examined) else { return nil }
        let share = Int((Double(left) / Double(examined) * 100).rounded())
        return MeasurementWarning(
            .framesUnplaced,
            "\(left) of the \(examined) frames examined (\(share) %) were left out: too few of the cap's stickers could be read in them, "
                + "and no frame is placed without them. What only those frames showed of the head is missing from its surface; "
                + "check the surface in the replay, and keep the stickers in view (or mend the cap) next time.")
    }

    /// The warning every scan placed without stickers carries: how many frames were placed,
    /// that the scale is the depth sensor's own, and that hair under the cap cannot be told.
    public static func withoutStickersWarning(_ placed: PlacedWithoutMarkers) -> MeasurementWarning {
        let examined = max(placed.framesExamined, 1)
        let share = Int((Double(placed.framesPlaced) / Double(examined) * 100).rounded())
        let by =
            placed.printSeen
            ? "by the head's surface and the cap's print"
            : "by the head's surface alone (no print was seen: on a plain cap the placement drifts, and on a bare head the hair "
                + "is measured as if it were the head, by 1–3 mm all round and unevenly; scan with the printed cap)"
        return MeasurementWarning(
            .scannedWithoutStickers,
            "Scanned without stickers: \(placed.framesPlaced) of the \(placed.framesExamined) frames examined (\(share) %) were placed \(by). "
                + "Sizes are the depth sensor's own (a phone's depth reads up to about 1 % off: length, width and circumference "
                + "carry that, ratios such as CVAI and the cranial index do not), and whether hair lifts the cap cannot be told: "
                + "flatten the hair under the cap, and compare with the calliper. " + cameraSentence(placed))
    }

    /// Stickers of a known size correct a focal length that is off; without them only a
    /// camera checked with a board can.
    private static func cameraSentence(_ placed: PlacedWithoutMarkers) -> String {
        guard let camera = placed.checkedCamera else {
            return "The camera's focal length is the phone's factory value, not checked: without stickers nothing in the scan "
                + "corrects it, and a few per cent off changes the head's shape as well as its size. Have the phone's camera "
                + "measured with a printed board (headscan calibrate --out) and process with it (headscan process --camera)."
        }
        return String(format: "The frames were read with the camera checked with a printed board (focal length %.1f px).", camera.fx)
    }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

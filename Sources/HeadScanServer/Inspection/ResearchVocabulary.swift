import Cephalometry
import Feedback
import Foundation
import Markers
import Processing
import Reconstruction
import ScanLibrary

/// The closed vocabularies of the text fields research documents carry. A value outside its
/// vocabulary is replaced, never kept: these fields are written by HeadScan, so anything else
/// in them was typed (or smuggled) by someone.
enum ResearchVocabulary {
    /// Who records consent: the app or the command line (and the test fixtures).
    static let consentRecorders: Set<String> = ["HeadScan app", "headscan command line", "test"]

    /// The sentences the landmark search writes as evidence, with every number as `#`.
    static let evidenceTemplates: Set<String> = [
        "hollow # mm deep between forehead and nose", "nose stands # mm out of the face",
        "notch # mm deep between tragus and helix, mouth # mm",
    ]

    /// Longest plausible scan, in seconds (a timeline's times count from its first frame).
    static let longestScanSeconds = 4 * 3600.0

    static func evidence(_ text: String) -> String {
        let shape = text.replacing(/-?[0-9]{1,4}\.[0-9]/, with: "#")
        return evidenceTemplates.contains(shape) && text.utf8.count <= 120 ? text : ""
    }

    /// A measurement as research keeps it: the session's own mesh, known sources, landmark names
    /// only, the search's evidence only in its own words.
    static func scrub(_ record: inout MeasurementRecord) {
        record.meshFile = ScanSession.meshFileName
        // A warning's words are the device's; research keeps its kind in the service's words.
        record.measurement.warnings = record.measurement.warnings.map { MeasurementWarning($0.kind, warningText($0.kind)) }
        // Sources and landmark names are closed vocabularies by type: anything else did not decode.
        if var found = record.automaticLandmarks {
            found.nasion.evidence = evidence(found.nasion.evidence)
            found.noseTip.evidence = evidence(found.noseTip.evidence)
            found.leftTragion.evidence = evidence(found.leftTragion.evidence)
            found.rightTragion.evidence = evidence(found.rightTragion.evidence)
            record.automaticLandmarks = found
        }
    }

    /// What a warning of `kind` says, in the service's words.
    static func warningText(_ kind: MeasurementWarning.Kind) -> String {
        switch kind {
        case .implausibleLandmarks: "the landmarks lie where no infant's can"
        case .openContour: "the measured outline had holes, bridged"
        case .sliceLeavesSurface: "part of the measurement lies where the mesh has no surface"
        case .landmarksDisagree: "a picked landmark lies far from where the search finds it"
        case .uncertainLandmark: "a landmark was found with a faint feature"
        case .stickersMissing: "some of the cap's stickers were never seen"
        case .capSitsHigh: "the cap sat too high"
        case .capMoved: "the cap moved on the head"
        case .capMayHaveMoved: "the cap may have moved on the head"
        case .capLifted: "the cap stood off the skin, lifted by hair"
        case .capMayBeLifted: "the cap may have stood off the skin"
        case .framesUnplaced: "many frames were left out for too few readable stickers"
        case .intervalStraddlesLevel: "CVAI's interval reaches across a severity boundary"
        case .scannedWithoutStickers: "the scan was placed without stickers"
        }
    }

    /// A reconstruction as research keeps it: a built-in cap's name or "custom", and no digest
    /// of the recording it was made from (the device's original, which a guess could confirm).
    /// Its reasons are the service's own words, not the upload's, and its stage times only
    /// under the stages' names.
    static func scrub(_ record: inout ReconstructionRecord) {
        if (try? CapLayout.named(record.capLayout)) == nil { record.capLayout = "custom" }
        record.scan.sha256 = nil
        var statistics = record.statistics
        if statistics.focalCorrectionRefused != nil { statistics.focalCorrectionRefused = focalRefused }
        if statistics.printedScale?.refused != nil { statistics.printedScale?.refused = printedScaleRefused }
        let stages = Set(ReconstructionStage.allCases.map(\.rawValue) + ["fusionIntegration"])
        statistics.stageSeconds = statistics.stageSeconds.filter { stages.contains($0.key) }
        record.statistics = statistics
    }

    static let focalRefused = "the focal length's estimate was not applied: depth and colour disagreed"
    static let printedScaleRefused = "the stickers' printed size did not set the scale"

    /// Why a feedback timeline cannot be a scan's, nil when it can: its times count seconds
    /// from the scan's start, so a clock time (1.7 billion seconds) is no time of a scan.
    static func implausible(_ timeline: FeedbackTimeline) -> String? {
        let range = 0...longestScanSeconds
        let times =
            [timeline.duration] + [timeline.completedAt].compactMap { $0 } + timeline.segments.flatMap { [$0.start, $0.end] }
            + timeline.progress.map(\.time) + timeline.milestones.map(\.time)
        guard times.allSatisfy({ $0.isFinite && range.contains($0) }) else {
            return "a time in it is not seconds from the scan's start (0 to \(Int(longestScanSeconds)))"
        }
        return nil
    }
}

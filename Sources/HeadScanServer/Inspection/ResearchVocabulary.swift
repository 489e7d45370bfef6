import Cephalometry
import Feedback
import Foundation
import Markers
import Processing
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
        // Sources and landmark names are closed vocabularies by type: anything else did not decode.
        if var found = record.automaticLandmarks {
            found.nasion.evidence = evidence(found.nasion.evidence)
            found.noseTip.evidence = evidence(found.noseTip.evidence)
            found.leftTragion.evidence = evidence(found.leftTragion.evidence)
            found.rightTragion.evidence = evidence(found.rightTragion.evidence)
            record.automaticLandmarks = found
        }
    }

    /// A reconstruction as research keeps it: a built-in cap's name or "custom", and no digest
    /// of the recording it was made from (the device's original, which a guess could confirm).
    static func scrub(_ record: inout ReconstructionRecord) {
        if (try? CapLayout.named(record.capLayout)) == nil { record.capLayout = "custom" }
        record.scan.sha256 = nil
    }

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

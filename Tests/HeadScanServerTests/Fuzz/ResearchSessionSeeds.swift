import Feedback
import Foundation
import Geometry
import HeadScanTesting
import Processing
import Reconstruction
import ScanLibrary
import Upload

/// A session holding every file the service accepts, packaged by the client: the valid
/// starting points the fuzz tests mutate.
enum ResearchSessionSeeds {
    static func fixture(patientID: Int = 12) throws -> SessionFixture {
        let at = SessionFixture.recordedAt
        let annotations = AnnotationsRecord(
            landmarks: [.nasion: [.pixel(frameIndex: 3, pixel: [100, 120])], .noseTip: [.point([0, 0.1, 0.02])]], savedAt: at)
        let identity = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let reconstruction = ReconstructionRecord(
            scan: .init(bytes: 5000, modified: at.timeIntervalSince1970 + 0.25), capLayout: "standard",
            markers: ["3": [[0, 0, 0], [0.01, 0, 0], [0.01, 0.01, 0], [0, 0.01, 0]]],
            keyframes: [.init(frame: 0, mapFromCamera: identity)], statistics: ReconstructionStatistics(), reconstructedAt: at)
        var timeline = FeedbackTimeline()
        timeline.duration = 42
        timeline.milestones = [.init(time: 20, percent: 50)]
        return try SessionFixture(
            patientID: patientID, scanBytes: 3000,
            extra: [
                AnnotationsRecord.fileName: try annotations.encodedAlone(),
                MeasurementRecord.fileName: SessionFixture.measurement(cvai: 6),
                RatingRecord.fileName: SessionFixture.rating(4),
                ReconstructionRecord.fileName: try reconstruction.encodedAlone(),
                ClinicalReportWriter.timelineFileName: try JSONEncoder().encode(timeline),
            ])
    }

    /// A `reconstruction.json` as the device writes it, with week-start times.
    static func reconstruction() throws -> Data {
        let identity = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let monday = Date(timeIntervalSince1970: 1_777_248_000)
        return try ReconstructionRecord(
            scan: .init(bytes: 5000, modified: monday.timeIntervalSince1970), capLayout: "standard",
            markers: ["3": [[0, 0, 0], [0.01, 0, 0], [0.01, 0.01, 0], [0, 0.01, 0]]],
            keyframes: [.init(frame: 0, mapFromCamera: identity)], statistics: ReconstructionStatistics(), reconstructedAt: monday
        ).encodedAlone()
    }

    /// Every file's name and bytes as the client sends them.
    static func files(_ package: SessionPackage) throws -> [(name: String, data: Data)] {
        try package.items.map { ($0.manifest.name, try SessionPackage.read($0, offset: 0, length: Int($0.manifest.size))) }
    }
}

import Reconstruction
import Testing

@testable import Processing

/// The report warns when the camera's focal length came out more than 1 % off.
struct CameraNotesTests {
    @Test func aFocalLengthOffByMoreThanOnePercentIsWarnedAbout() {
        var statistics = ReconstructionStatistics()
        #expect(ClinicalReportWriter.cameraNotes(statistics).isEmpty)
        statistics.focalScale = 1.004
        statistics.focalScaleSigma = 0.001
        #expect(ClinicalReportWriter.cameraNotes(statistics).isEmpty)
        statistics.focalScale = 0.94
        statistics.focalScaleApplied = 0.94
        let notes = ClinicalReportWriter.cameraNotes(statistics)
        #expect(notes.count == 1 && notes[0].contains("-6.0 %") && notes[0].contains("± 0.1 %"), "\(notes)")
    }
}

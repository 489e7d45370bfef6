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

    @Test func aCorrectionRefusedIsExplainedAndAsksForACheck() {
        var statistics = ReconstructionStatistics()
        statistics.focalScale = 0.89
        statistics.focalCorrectionRefused = "the recording's depth and colour do not agree"
        let notes = ClinicalReportWriter.cameraNotes(statistics)
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("Camera: the scan's own estimate of the focal length was not used: the recording's depth") == true)
        #expect(notes.first?.contains("headscan check-phone") == true)
    }

    /// The report says which of the print and the depth set the scale where the depth was more
    /// than 1 % off or the print was refused; a depth within 1 % is not worth a clinician's line.
    @Test func theReportSaysWhatSetTheScale() {
        var statistics = ReconstructionStatistics()
        statistics.printedScale = PrintedScale(ratio: 1.0076, ratioSigma: 0.0002, markers: 55)
        #expect(ClinicalReportWriter.cameraNotes(statistics).isEmpty)
        statistics.printedScale?.ratio = 1.0126
        let notes = ClinicalReportWriter.cameraNotes(statistics)
        let words =
            "Scale: set by the stickers' printed size: through the depth they measured 1.26 % larger than printed "
            + "(± 0.02 %, 55 stickers), and the scan was scaled to the print."
        #expect(notes == [words])
        statistics.printedScale?.refused = "check that the cap was printed at 100 %"
        statistics.printedScale?.ratio = 0.965
        let refused = ClinicalReportWriter.cameraNotes(statistics)
        #expect(refused.count == 1 && refused[0].hasPrefix("Scale: set by the phone's depth") && refused[0].contains("3.50 % smaller"))
    }
}

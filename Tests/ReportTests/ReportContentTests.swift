import Cephalometry
import Feedback
import ReportKit
import Simulation
import Testing

@testable import Report

/// One measured simulator head, shared: measuring takes a moment in debug builds.
private let measuredSlice: MeasuredSlice = {
    let head = try! HeadModel(HeadParameters(cvai: 7, flatSide: .right))
    let landmarks = head.landmarks
    return try! Cephalometer.measure(HeadMesh.make(head), landmarks: landmarks)
}()

private let calliper = CalliperMeasurements(lengthMM: 141, widthMM: 115, diagonalAMM: 128, diagonalBMM: 137, circumferenceMM: 410)

private func timeline() -> FeedbackTimeline {
    var t = FeedbackTimeline()
    t.duration = 30
    t.segments = [.init(start: 0, end: 4, position: .off), .init(start: 4, end: 30, position: .ideal)]
    t.progress = [.init(time: 0, percent: 0), .init(time: 12, percent: 50), .init(time: 25, percent: 100)]
    t.milestones = [.init(time: 12, percent: 50), .init(time: 25, percent: 100)]
    t.completedAt = 25
    return t
}

private func inputs(calliper: CalliperMeasurements? = nil, reference: ReferenceValues? = nil) -> ReportInputs {
    ReportInputs(
        patient: [ReportFact("Patient ID", "<12>")], scan: [ReportFact("Frames", "900")], slice: measuredSlice,
        calliper: calliper, reference: reference, timeline: timeline(), meshFile: "head.ply", notes: ["A note & more"])
}

private let truth = ReferenceValues(
    label: "Truth", cvai: 7, cvaMM: 9.5, diagonalAMM: 126, diagonalBMM: 135.5, lengthMM: 140, widthMM: 114.8, ci: 82, circumferenceMM: 405)

@Suite("Report content")
struct ReportContentTests {
    @Test("the values table has a column per source and the measurement's values at two decimals")
    func table() throws {
        let report = ClinicalReport(inputs(calliper: calliper, reference: truth))
        #expect(report.columns == ["3D scan", "Calliper", "Truth"])
        let m = measuredSlice.measurement
        let cvai = try #require(report.rows.first { $0.name == "CVAI" })
        #expect(cvai.values == [ClinicalReport.format(m.cvai), ClinicalReport.format(calliper.cvai), "7.00"])
        let level = try #require(report.rows.first { $0.name == "CHOA level" })
        #expect(level.values == [String(m.severityLevel.rawValue), String(calliper.severityLevel.rawValue), "3"])
        #expect(report.severity == m.severityLevel)
    }

    @Test("without calliper or truth only the 3D column is shown")
    func singleColumn() {
        let report = ClinicalReport(inputs())
        #expect(report.columns == ["3D scan"])
        #expect(report.rows.allSatisfy { $0.values.count == 1 })
    }

    @Test(
        "two-decimal formatting rounds half away from zero and never shows -0.00",
        arguments: [
            (6.666, "6.67"), (0.004, "0.00"), (-0.004, "0.00"), (-1.235, "-1.24"), (140, "140.00"),
        ])
    func format(value: Double, text: String) {
        #expect(ClinicalReport.format(value) == text)
    }

    @Test("the timeline facts add up the time in each position and list the milestones")
    func timelineFacts() throws {
        let facts = ClinicalReport(inputs()).timelineFacts
        func value(_ label: String) -> String? { facts.first { $0.label == label }?.value }
        #expect(value("In position (ideal)") == "26.00 s")
        #expect(value("Off centre") == "4.00 s")
        #expect(value("Milestones") == "50 % at 12.00 s, 100 % at 25.00 s")
        #expect(value("Completed") == "at 25.00 s")
    }

    @Test("the HTML page is self-contained, escaped and shows every value")
    func html() {
        let report = ClinicalReport(inputs(calliper: calliper, reference: truth))
        let page = HTMLReport.render(report)
        #expect(!page.contains("<script"))
        #expect(!page.contains("src="))
        #expect(!page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"))
        #expect(page.contains("&lt;12&gt;"))
        #expect(page.contains("A note &amp; more"))
        for row in report.rows {
            for value in row.values { #expect(page.contains("<td>\(value.map(HTMLText.escape) ?? "–")</td>")) }
        }
        #expect(page.components(separatedBy: "<svg").count == 3)  // slice and timeline
    }

    @Test("the PDF holds the same values and the drawings' labels")
    func pdf() {
        let report = ClinicalReport(inputs(calliper: calliper, reference: truth))
        let file = String(decoding: PDFReport.render(report).map { $0 < 128 ? $0 : 63 }, as: UTF8.self)
        for row in report.rows {
            for value in row.values.compactMap({ $0 }) {
                #expect(file.contains(String(PDFString.literal(value).map { $0.isASCII ? $0 : "?" }) + " Tj"), "\(value)")
            }
        }
        for label in report.slice.texts + (report.timeline?.texts ?? []) {
            #expect(file.contains(PDFString.literal(label).filter { $0.isASCII }), "\(label)")
        }
        #expect(file.contains("(CHOA level \(report.severity.rawValue)) Tj"))
    }

    @Test("the slice drawing holds the outline and both diagonals with their lengths")
    func sliceDrawing() {
        let drawing = SliceDrawing.make(measuredSlice)
        let m = measuredSlice.measurement
        #expect(drawing.texts.contains("A \(ClinicalReport.format(m.diagonalAMM)) mm"))
        #expect(drawing.texts.contains("B \(ClinicalReport.format(m.diagonalBMM)) mm"))
        let lines = drawing.elements.filter { if case .line = $0 { true } else { false } }
        #expect(lines.count >= 4)  // two axes, two diagonals
        // One unit per millimetre: the drawing is the head's length plus the margins.
        #expect(abs(drawing.size.y - (m.lengthMM + 36)) < 3)
    }

    @Test("SVG output escapes text and writes compact numbers")
    func svg() {
        var d = Drawing(width: 10, height: 5)
        d.text("a < b", x: 1.005, y: 2, size: 3)
        d.line(SIMD2(0, 0), SIMD2(10, 5), Stroke(RGBColor(hex: 0x00FF80), width: 0.25, dash: [1, 0.5]))
        let svg = SVGRenderer.render(d)
        #expect(svg.contains(">a &lt; b</text>"))
        #expect(svg.contains("stroke=\"#00ff80\""))
        #expect(svg.contains("stroke-dasharray=\"1,0.5\""))
        #expect(svg.contains("viewBox=\"0 0 10 5\""))
    }
}

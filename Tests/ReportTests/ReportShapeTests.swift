import Cephalometry
import Foundation
import Geometry
import ReportKit
import Simulation
import Testing

@testable import Report

/// A simulator head with a flat right back, measured and mapped once for all tests here.
private let head: (slice: MeasuredSlice, map: AsymmetryMap) = {
    let model = try! HeadModel(HeadParameters(cranialIndex: 92, cvai: 8, flatSide: .right))
    let landmarks = model.landmarks
    let mesh = HeadMesh.make(model)
    var options = AsymmetryOptions()
    options.samples = 1500
    return (try! Cephalometer.measure(mesh, landmarks: landmarks), try! AsymmetryMap.compute(mesh, landmarks: landmarks, options: options))
}()

private func inputs(settings: ReportSettings = .init(), visits: [VisitPoint] = []) -> ReportInputs {
    ReportInputs(
        patient: [ReportFact("Patient ID", "3")], scan: [], slice: head.slice, meshFile: "head.ply", visits: visits,
        asymmetry: head.map, settings: settings)
}

@Suite("Report: 3D measures, grading, asymmetry map, trends")
struct ReportShapeTests {
    @Test("a flat-backed, wide head is graded plagiocephaly with brachycephaly, in both files")
    func grading() {
        let report = ClinicalReport(inputs())
        #expect(report.assessment.type == .plagiocephalyWithBrachycephaly)
        #expect(report.assessment.brachycephaly == .mild)
        #expect(report.assessment.choaLevel == .level3)
        let page = HTMLReport.render(report)
        #expect(page.contains("Positional plagiocephaly with brachycephaly."))
        #expect(page.contains(HTMLText.escape(report.assessment.parentText)))
        let pdf = String(decoding: PDFReport.render(report).map { $0 < 128 ? $0 : 63 }, as: UTF8.self)
        #expect(pdf.contains("For the parents"))
    }

    @Test("a clinic's thresholds change the grade")
    func clinicThresholds() {
        var settings = ReportSettings()
        settings.thresholds.brachycephalyCI = [93, 96, 99]
        #expect(ClinicalReport(inputs(settings: settings)).assessment.type == .plagiocephaly)
    }

    @Test("the map is drawn from above and behind with its legend, and the settings can hide it and the 3D rows")
    func mapAndSettings() {
        let report = ClinicalReport(inputs())
        let map = try? #require(report.asymmetry)
        #expect(map?.texts.contains("from behind") == true)
        #expect(map?.texts.contains("fuller") == true)
        #expect(report.rows.contains { $0.name == "Posterior symmetry ratio" })
        #expect(HTMLReport.render(report).components(separatedBy: "<svg").count == 2)  // slice and map in one row
        // The flat right back shows as blue squares on the right half of the view from behind.
        #expect(report.asymmetryLines.first?.contains("Deepest flattening") == true)
        let hidden = ClinicalReport(inputs(settings: ReportSettings(shapeMeasures: false, asymmetryMap: false)))
        #expect(hidden.asymmetry == nil)
        #expect(!hidden.rows.contains { $0.name == "Posterior symmetry ratio" })
    }

    @Test("small charts show each chosen measure over the visits with its change per month")
    func trendPanels() throws {
        let day = 86400.0
        let shape = try #require(head.slice.measurement.shape)
        var later = shape
        later.posteriorSymmetryRatio += 3
        let visits = [
            VisitPoint(
                date: Date(timeIntervalSince1970: 0), ageWeeks: 13, cvai: 9, ci: 92, circumferenceMM: 400, severity: .level4, isCurrent: false,
                shape: shape),
            VisitPoint(
                date: Date(timeIntervalSince1970: 61 * day), ageWeeks: 13 + 61 / 7, cvai: 7, ci: 91, circumferenceMM: 410, severity: .level3,
                isCurrent: true, shape: later),
        ]
        let report = ClinicalReport(inputs(settings: ReportSettings(trendCharts: [.posteriorSymmetryRatio, .circumference]), visits: visits))
        let panels = try #require(report.trendPanels)
        #expect(panels.texts.contains("Posterior symmetry ratio (%)"))
        // 3 points over 61 days, 10 mm over 61 days: per 30.44-day month.
        #expect(panels.texts.contains(String(format: "%+.2f %% per month", 3 / 61 * 30.4375)))
        #expect(panels.texts.contains(String(format: "%+.2f mm per month", 10 / 61 * 30.4375)))
    }

    @Test("the report leads with the clinic's convention and names the others")
    func conventions() throws {
        let all = try #require(head.slice.measurement.conventions)
        let greatest = try #require(all.first { $0.convention == .greatestLength })
        let own = ClinicalReport(inputs())
        #expect(own.rows.first { $0.name == "CVAI" }?.values.first == ClinicalReport.format(head.slice.measurement.cvai))
        #expect(own.notes.first?.hasPrefix("3D values by the longest outline at ") == true)
        #expect(own.notes.first?.contains(", level of greatest length \(ClinicalReport.format(greatest.cvai)) %") == true)

        let chosen = ClinicalReport(inputs(settings: ReportSettings(convention: .greatestLength)))
        #expect(chosen.rows.first { $0.name == "CVAI" }?.values.first == ClinicalReport.format(greatest.cvai))
        #expect(chosen.rows.first { $0.name == "Circumference" }?.values.first == ClinicalReport.format(greatest.circumferenceMM))
        #expect(chosen.notes.first?.hasPrefix("3D values by the level of greatest length") == true)
        #expect(chosen.severity == greatest.severityLevel)
        let page = HTMLReport.render(chosen)
        #expect(page.contains("3D values by the level of greatest length"))

        let calliper = ClinicalReport(inputs(settings: ReportSettings(convention: .calliper)))
        #expect(calliper.notes.first?.contains("(each distance 2.50 mm shorter)") == true)
    }

    @Test("CVAI carries its 95 % interval when processing gave one")
    func interval() {
        var slice = head.slice
        slice.measurement.intervals = MeasurementIntervals(
            level: 0.95, cvai: ValueInterval(low: 7.5, high: 8.25), cvaMM: ValueInterval(low: 8, high: 10),
            ci: ValueInterval(low: 80, high: 82), circumferenceMM: ValueInterval(low: 400, high: 404), samples: 48,
            landmarkSigmaMM: LandmarkSigmas(), surfaceSigmaMM: 0.05, scaleSigma: 0)
        let report = ClinicalReport(ReportInputs(patient: [], scan: [], slice: slice, meshFile: "head.ply"))
        let row = report.rows.first { $0.name == "CVAI (95 % interval)" }
        #expect(row?.values.first == ClinicalReport.format(slice.measurement.cvai) + " (7.50–8.25)")
        let chosen = ClinicalReport(
            ReportInputs(patient: [], scan: [], slice: slice, meshFile: "head.ply", settings: ReportSettings(convention: .greatestLength)))
        #expect(chosen.rows.contains { $0.name == "CVAI" })
    }

    @Test("a measurement from before the conventions is shown as it was measured")
    func oldRecords() {
        var old = head.slice
        old.measurement.conventions = nil
        let report = ClinicalReport(
            ReportInputs(patient: [], scan: [], slice: old, meshFile: "head.ply", settings: ReportSettings(convention: .greatestLength)))
        #expect(report.rows.first { $0.name == "CVAI" }?.values.first == ClinicalReport.format(old.measurement.cvai))
        #expect(!report.notes.contains { $0.hasPrefix("3D values by") })
    }

    @Test("report settings files are read with every key optional and refused with a reason")
    func settingsFiles() throws {
        let partial = try ReportSettings.decode(json: Data(#"{"asymmetryMap":false,"thresholds":{"dolichocephalyCI":74}}"#.utf8))
        #expect(partial.asymmetryMap == false && partial.shapeMeasures)
        #expect(partial.thresholds.dolichocephalyCI == 74 && partial.thresholds.choaCVAI == [3.5, 6.25, 8.75, 11])
        #expect(partial.convention == .longestOutline)
        #expect(try ReportSettings.decode(json: Data(#"{"convention":"greatestLength"}"#.utf8)).convention == .greatestLength)
        for (json, reason) in [
            (#"{"trendCharts":["height"]}"#, "trendCharts"),
            (#"{"thresholds":{"choaCVAI":[3.5,3,8,11]}}"#, "choaCVAI"),
            (#"{"trendCharts":["cranialIndex","circumference","cranialVolume","cranialHeight","radialSymmetryIndex"]}"#, "at most 4"),
            (#"{"thresholds":{"dolichocephalyCI":95}}"#, "dolichocephalyCI"),
            ("[1,2]", "report settings"),
            (#"{"convention":"level3"}"#, "longestOutline, greatestLength, calliper"),
        ] {
            #expect(throws: ReportSettingsError.self) { try ReportSettings.decode(json: Data(json.utf8)) }
            do {
                _ = try ReportSettings.decode(json: Data(json.utf8))
            } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }

    @Test("random bytes never crash the settings reader", arguments: 0..<4)
    func fuzzSettings(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let base = Array(
            #"{"shapeMeasures":true,"trendCharts":["cranialIndex"],"thresholds":{"choaCVAI":[3.5,6.25,8.75,11],"brachycephalyCI":[90,93,97]}}"#.utf8)
        for _ in 0..<300 {
            var bytes = base
            for _ in 0..<Int(random.next() % 4 + 1) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            if let settings = try? ReportSettings.decode(json: Data(bytes)) {
                #expect((try? settings.thresholds.validate()) != nil)
            }
        }
    }
}

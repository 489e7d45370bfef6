import Foundation
import KneeReport
import ReportKit
import Testing

@testable import RangeOfMotion

@Suite("Knee report and JSON summary")
struct ReportAndSummaryTests {
    let analysis = try! Poses.analyze(Poses.sequence(Poses.bending(from: -5, to: 130)))

    private func report(_ a: RangeOfMotionAnalysis, earlier: [RangeOfMotionRecord] = []) -> KneeReport {
        KneeReport(
            KneeReportInputs(analysis: a, patientID: "12", date: Date(timeIntervalSince1970: 1_760_000_000), source: "poses.json", earlier: earlier))
    }

    @Test("the form carries the measured side's extension/flexion; the other side stays empty")
    func form() {
        let r = report(analysis)
        #expect(r.form.left == "5-0-130" && r.form.right == "")
        #expect(r.accepted && r.outcome.contains("5-0-130"))
        #expect(r.values.contains(ReportFact("Smallest knee angle", "50.0° ± 0.0° (frame 6, 2.0 s)")))
        #expect(r.values.contains(ReportFact("Extension", "5.0°")))
        #expect(r.minimumFigure != nil && r.maximumFigure != nil)
    }

    @Test("the HTML and the PDF hold the values; the PDF's text is searchable")
    func files() {
        let r = report(analysis)
        let html = KneeReportHTML.render(r)
        for text in ["5-0-130", "50.0°", "185.0°", "Frames passed", "26 of 26 (100 %)", "Kniegelenk", "<svg"] {
            #expect(html.contains(text), "HTML lacks \(text)")
        }
        let pdf = String(decoding: KneeReportPDF.render(r), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-1.4"))
        for text in ["(5-0-130)", "(Flexion)", "(26 of 26 \\(100 %\\))", "(Most bent: 50.0", "(Straightest: 185.0"] {
            #expect(pdf.contains(text), "PDF lacks \(text)")
        }
    }

    /// The notes describe how this video was read: ends fitted over time with what ± means
    /// and the slant undone, or, with the original gates, the smoothed frames' ends and the
    /// picture's angles as they are.
    @Test("the report's notes say how the ends were read and what ± means")
    func notesFollowTheMethod() throws {
        let fitted = report(analysis).notes
        #expect(fitted.contains { $0.hasPrefix("Smallest and largest angle are each read from a fit of the angle over time") })
        #expect(fitted.contains { $0.hasPrefix("± after an end is its standard error") })
        #expect(fitted.contains { $0.hasPrefix("A camera not exactly at the leg's side is undone") })
        #expect(!fitted.contains { $0.contains("running median") || $0.contains("so flexion reads too large") })
        let original = report(try Poses.analyze(Poses.sequence(Poses.bending(from: -5, to: 130)), .originalGates)).notes
        #expect(original.contains { $0.contains("smoothed over 3 neighbouring frames (running median)") })
        #expect(original.contains { $0.hasSuffix("so flexion reads too large.") })
        #expect(!original.contains { $0.hasPrefix("±") || $0.contains("fit of the angle over time") })
    }

    @Test("an end the leg left the picture at is reported as a bound, in the HTML and the PDF")
    func unseenEnd() throws {
        let flexions = Poses.bending()
        let a = try Poses.analyze(Poses.sequence(flexions) { i, points in if flexions[i] > 90 { points[.leftAnkle]!.position.x = -40 } })
        #expect(a.accepted && a.mostBentUnseen)
        let r = report(a)
        #expect(r.form.left.contains("-≥") && r.outcome.contains("-≥"))
        let smallest = try #require(r.values.first { $0.label == "Smallest knee angle" })
        #expect(smallest.value.contains("or less") && !smallest.value.contains("±"))
        #expect(r.values.contains { $0.label == "Flexion" && $0.value.hasPrefix("at least ") })
        #expect(r.values.contains { $0.label == "Range" && $0.value.hasPrefix("at least ") })
        #expect(r.notes.contains { $0.hasPrefix("≥ marks an end") })
        // The command line and the report word an end from the same place.
        let low = try #require(a.minimum), high = try #require(a.maximum)
        #expect(a.smallestAngleText(degrees: KneeReport.degrees) == KneeReport.degrees(low.angle) + " or less, the leg left the picture there")
        #expect(smallest.value.hasPrefix(try #require(a.smallestAngleText(degrees: KneeReport.degrees))))
        #expect(
            a.largestAngleText(degrees: KneeReport.degrees) == KneeReport.degrees(high.angle)
                + (high.uncertainty.map { " ± " + KneeReport.degrees($0) } ?? ""))
        #expect(KneeReportHTML.render(r).contains("-≥"))
        let pdf = String(decoding: KneeReportPDF.render(r), as: UTF8.self)
        #expect(pdf.contains("->=") && !pdf.contains("-?"))
        // Both ends seen: no bound anywhere.
        #expect(!report(analysis).notes.contains { $0.hasPrefix("≥") } && !report(analysis).form.left.contains("≥"))
    }

    @Test("a refused video is reported as refused, with its reasons and no form value")
    func refused() throws {
        let poses = Poses.sequence(Poses.bending()) { i, points in if i % 2 == 0 { points[.leftAnkle]!.confidence = 0.1 } }
        let a = try Poses.analyze(poses)
        #expect(!a.accepted)
        let r = report(a)
        #expect(r.form.left == "–" && !r.accepted && r.outcome.hasPrefix("Not measured"))
        #expect(r.rejections == ["13 × hip, knee or ankle found with low confidence"])
        #expect(KneeReportHTML.render(r).contains("refused"))
    }

    @Test("earlier results are listed")
    func history() {
        let earlier = RangeOfMotionRecord(patientID: "12", date: Date(timeIntervalSince1970: 1_750_000_000), source: "old.json", analysis: analysis)
        let r = report(analysis, earlier: [earlier])
        #expect(r.history.count == 1 && r.history[0][2] == "5-0-130" && r.history[0][3] == "100 %")
    }

    @Test("the JSON summary has every documented key, null where there is no value")
    func summaryShape() throws {
        var summary = RangeOfMotionSummary(analysis)
        summary.stored = "/tmp/x.json"
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? [String: Any])
        #expect(Set(object.keys) == Set(RangeOfMotionSummary.keys))
        for key in [
            "minAngle", "maxAngle", "minFrame", "maxFrame", "flexion", "extension", "neutralZero", "framesPassed", "framesTotal", "accepted",
            "rejections", "frames",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["neutralZero"] as? String == "5-0-130" && object["accepted"] as? Bool == true)
        #expect(object["minFrame"] as? Int == 6 && (object["flexion"] as? Double).map { abs($0 - 130) < 1e-9 } == true)
        #expect(object["report"] is NSNull && object["refusal"] is NSNull)
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count == 26 && Set(frames[0].keys) == ["index", "t", "angle", "smoothedAngle", "passed", "reason"])
        #expect(frames[0]["reason"] is NSNull && frames[0]["passed"] as? Bool == true)
    }
}

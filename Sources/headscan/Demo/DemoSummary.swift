import Cephalometry
import Evaluation
import Foundation
import Processing
import ScanLibrary
import Simulation

/// Prints the demo's steps, unless the summary goes out as JSON.
struct DemoLog {
    let quiet: Bool

    func title(_ simulator: Simulator) {
        let c = simulator.configuration
        let m = simulator.measurements
        say("HeadScan demo: a simulated infant, scanned, reconstructed and measured")
        say(
            String(
                format: "Head: CVAI %.2f %% (%@ side flat), cranial index %.1f, circumference %.0f mm; scenario %@, seed %llu, %.0f s",
                m.cvai, c.head.flatSide.rawValue, m.ci, m.circumferenceMM, c.scenario.rawValue, c.seed, c.seconds))
    }

    func step(_ number: Int, _ text: String) { say("[\(number)/4] \(text)") }

    func scanned(_ scan: GuidedScan.Outcome) {
        let t = scan.timeline
        let completion = t.completedAt.map { String(format: "completed at %.1f s", $0) } ?? "not completed"
        say(
            String(
                format: "      %d frames; in position %.0f %% of the time; %@; markers not seen: %@",
                scan.frames.count, 100 * t.seconds(in: .ideal) / max(t.duration, 1e-9), completion,
                t.missingMarkers.isEmpty ? "none" : t.missingMarkers.map(String.init).joined(separator: ", ")))
    }

    func patient(_ id: Int, session: ScanSession) { say("      patient ID \(id); session \(session.url.path)") }

    func rescan(_ missing: [Landmark]) {
        say(
            "      the replay shows \(missing.map(\.rawValue).joined(separator: " and ")) in no usable frame: the therapist scans again, for the whole time"
        )
    }

    func picked(_ annotations: AnnotationsRecord) {
        say("      " + Landmark.allCases.map { "\($0.rawValue) in \(annotations.landmarks[$0]?.count ?? 0) frames" }.joined(separator: ", "))
    }

    func reconstructed(_ r: ProcessingResult, mapRMS: Double) {
        let s = r.statistics
        say(
            String(
                format: "      %d keyframes, %d markers mapped (%.2f mm RMS from the truth), mesh of %d triangles",
                s.keyframes, s.markersMapped, mapRMS, s.triangles))
        say(
            "      landmarks: "
                + Landmark.allCases.compactMap { l in
                    r.estimates[l].map { String(format: "%@ spread %.1f mm", l.rawValue, $0.spreadMM) }
                }.joined(separator: ", "))
    }

    private func say(_ text: String) {
        if !quiet { print(text) }
    }
}

/// What the demo found, beside the calliper and the truth.
struct DemoSummary: TextReport {
    struct Values: Encodable {
        var cvai, cvaMM, ci, circumferenceMM, diagonalAMM, diagonalBMM, lengthMM, widthMM: Double
        var severityLevel: Int
    }

    var session: String
    var measured: Values
    var calliper: Values
    var truth: Values
    var cvaiError: Double
    var scanCompletedSeconds: Double?
    var secondsInPosition: Double
    var scanSeconds: Double
    var markersMapped: Int
    var markerRMSMillimetres: Double
    var landmarksSource: LandmarkSource
    /// Per landmark: picks and their spread, millimetres.
    var landmarks: [Landmark: LandmarkEstimate]
    var report: String
    var pdf: String
    var mesh: String
    var seconds: Double
    /// Warnings from the measurement.
    var warnings: [String]

    init(
        session: ScanSession, result: ProcessingResult, calliper c: CalliperMeasurements, truth t: TrueHeadMeasures,
        scan: GuidedScan.Outcome, markerRMSMillimetres: Double, seconds: Double
    ) {
        let m = result.measurement
        self.session = session.url.path
        measured = Values(
            cvai: m.cvai, cvaMM: m.cvaMM, ci: m.ci, circumferenceMM: m.circumferenceMM, diagonalAMM: m.diagonalAMM,
            diagonalBMM: m.diagonalBMM, lengthMM: m.lengthMM, widthMM: m.widthMM, severityLevel: m.severityLevel.rawValue)
        calliper = Values(
            cvai: c.cvai, cvaMM: c.cvaMM, ci: c.ci, circumferenceMM: c.circumferenceMM ?? .nan, diagonalAMM: c.diagonalAMM,
            diagonalBMM: c.diagonalBMM, lengthMM: c.lengthMM, widthMM: c.widthMM, severityLevel: c.severityLevel.rawValue)
        truth = Values(
            cvai: t.cvai, cvaMM: t.cvaMM, ci: t.ci, circumferenceMM: t.circumferenceMM, diagonalAMM: t.diagonalAMM,
            diagonalBMM: t.diagonalBMM, lengthMM: t.lengthMM, widthMM: t.widthMM, severityLevel: SeverityLevel(cvai: t.cvai).rawValue)
        cvaiError = m.cvai - t.cvai
        scanCompletedSeconds = scan.timeline.completedAt
        secondsInPosition = scan.timeline.seconds(in: .ideal)
        scanSeconds = scan.timeline.duration
        markersMapped = result.statistics.markersMapped
        self.markerRMSMillimetres = markerRMSMillimetres
        landmarksSource = result.landmarksSource
        landmarks = result.estimates
        report = result.html.path
        pdf = result.pdf.path
        mesh = session.meshURL.path
        self.seconds = seconds
        warnings = m.warnings.map(\.message)
    }

    var text: String {
        var table = TextTable([.left("", 20), .right("3D scan", 9), .right("calliper", 9), .right("truth", 9)])
        let rows: [(String, KeyPath<Values, Double>)] = [
            ("CVAI (%)", \.cvai), ("CVA (mm)", \.cvaMM), ("diagonal A (mm)", \.diagonalAMM), ("diagonal B (mm)", \.diagonalBMM),
            ("length (mm)", \.lengthMM), ("width (mm)", \.widthMM), ("cranial index", \.ci), ("circumference (mm)", \.circumferenceMM),
        ]
        for (name, key) in rows {
            table.add([name] + [measured, calliper, truth].map { String(format: "%.2f", $0[keyPath: key]) })
        }
        table.add(["CHOA level"] + [measured, calliper, truth].map { "\($0.severityLevel)" })
        var lines =
            [""] + table.lines + [
                String(format: "3D CVAI is %.2f points from the truth, with landmarks picked on the frames (±2 px) and lifted into 3D.", cvaiError)
            ]
        lines += warnings.map { "warning: \($0)" }
        lines += [
            "",
            "Report: \(report)",
            "        \(pdf)",
            "Mesh:   \(mesh) (PLY, metres; open with MeshLab, Blender or Preview)",
            String(format: "Done in %.0f s.", seconds),
        ]
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import Cephalometry
import Evaluation
import Foundation
import Geometry
import Processing
import Reconstruction
import Recording
import ScanLibrary
import Simulation

/// `headscan demo`: the whole job on a simulated infant — guided scan, patient data,
/// reconstruction, measurement and the clinical report — with no phone and no data.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole job on a simulated infant: guided scan, reconstruction, measurement, report.",
        discussion: """
            Simulates a scan of an infant head with a flattened back (CVAI about 7 %) while \
            the simulated therapist follows HeadScan's feedback and stops when it says \
            "done", records it into a scan library in --out, enters simulated calliper values, \
            and picks the four landmarks (nasion, nose tip, both tragions) in two or three \
            frames each, with a hand's error of up to 2 pixels, as a therapist does in the \
            Replay screen. Then it processes the session as `headscan process` does: \
            reconstructs the head in 3D, lifts the picks through the frames' depth and poses, \
            measures, and writes report.html and report.pdf into the session folder. The \
            summary shows the measured values beside the calliper's and the truth.

            Examples:
              headscan demo
              headscan demo --scenario ideal --cvai 10 --flat-side left --out /tmp/demo
              headscan demo --patient 1 --date 2026-09-01 --cvai 8   # an earlier visit of patient 1: its report shows the trend
            """)

    @Option(help: "How the infant and the therapist behave: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenario = Scenario.restless

    @Option(help: "Seed of every random choice; the same seed repeats the same scan.")
    var seed: UInt64 = 1

    @OptionGroup var cap: CapOption

    @Option(help: "The scan library folder; created if missing.")
    var out = "headscan-demo"

    @Option(help: "Longest scan in seconds; the therapist stops two seconds after HeadScan says \"done\".")
    var seconds: Double = 60

    @Flag(help: "Record the whole --seconds instead of stopping after \"done\".")
    var fullLength = false

    @Option(help: "The simulated head's CVAI in percent.")
    var cvai: Double = 7

    @Option(help: "The flattened side: left or right.")
    var flatSide = FlatSide.right

    @Option(help: "Record the scan as a further visit of this patient ID (default: a new patient).")
    var patient: Int?

    @Option(help: "The visit's date, YYYY-MM-DD (default: now), to build up a patient's earlier visits.")
    var date: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard seconds >= 10, seconds <= 300 else { throw ValidationError("--seconds must be in 10...300") }
        guard cvai >= 0, cvai <= 20 else { throw ValidationError("--cvai must be in 0...20") }
        if let patient, patient < 1 { throw ValidationError("--patient is a whole number from 1") }
        if let date, Self.visitDate(date) == nil { throw ValidationError("--date must be YYYY-MM-DD, not \(date)") }
    }

    /// Ten in the morning of `text` (YYYY-MM-DD), local time.
    static func visitDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text + " 10:00")
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let head = HeadParameters(cvai: cvai, flatSide: flatSide)
        let configuration = Simulator.Configuration(
            scenario: scenario, seed: seed, seconds: seconds, head: head, layout: try cap.layout() ?? .standard)
        var simulator = try Simulator(configuration)
        let library = ScanLibrary(root: fileURL(out))
        let log = DemoLog(quiet: outputOptions.json)
        log.title(simulator)

        let visitDate = date.flatMap(Self.visitDate) ?? Date()
        var session = try library.createSession(date: visitDate)
        log.step(1, "Scanning: the simulated therapist follows the vibration and speech")
        var bar = ProgressBar("  scanning")
        var scan = try GuidedScan(simulator: simulator, stopAfterDone: fullLength ? nil : 2)
            .record(to: session.scanURL) { bar.update($0, of: $1) }
        log.scanned(scan)
        var annotations = try SimulatedPicks.annotations(simulator, frames: scan.frames, scan: session.scanURL, seed: seed)
        if !annotations.isComplete, !fullLength {
            // The replay shows a landmark in no usable frame (an ear never seen from its side):
            // the therapist scans again and goes on for the whole time.
            log.rescan(annotations.missing)
            simulator = try Simulator(configuration)
            try FileManager.default.removeItem(at: session.scanURL)
            var again = ProgressBar("  scanning again")
            scan = try GuidedScan(simulator: simulator, stopAfterDone: nil).record(to: session.scanURL) { again.update($0, of: $1) }
            log.scanned(scan)
            annotations = try SimulatedPicks.annotations(simulator, frames: scan.frames, scan: session.scanURL, seed: seed)
        }

        log.step(
            2,
            patient == nil
                ? "Patient data: a new patient ID and simulated calliper values" : "Patient data: a further visit and simulated calliper values")
        let calliper = SimulatedCalliper.measure(simulator.measurements, seed: seed)
        let patientID = try patient ?? library.nextFreePatientID()
        // A new simulated patient is 16 weeks old; further visits keep the birth date given first.
        let birth = patient == nil ? visitDate.addingTimeInterval(-16 * 7 * 86_400) : nil
        session = try library.savePatient(
            PatientRecord(patientID: patientID, calliper: calliper, enteredAt: visitDate, birthDate: birth), in: session)
        try save(scan.timeline, as: ClinicalReportWriter.timelineFileName, in: session)
        try save(simulator.truth(frames: scan.frames, meshFile: "truth.ply"), as: SessionFolder.truthFileName, in: session)
        try Data(PLY.encode(simulator.mesh, comment: "HeadScan simulated head, metres, head frame"))
            .write(to: session.url.appendingPathComponent("truth.ply"))
        log.patient(patientID, session: session)

        log.step(3, "Landmarks: a simulated therapist picks each one in 2–3 frames of the replay (±2 px)")
        try library.saveAnnotations(annotations, in: session)
        log.picked(annotations)

        log.step(4, "Processing: reconstruction, landmarks lifted into 3D, measurement, report")
        let folder = SessionFolder(library: library, session: session)
        var options = ProcessingOptions()
        let truth = try folder.truthReference()
        options.reportReference = truth?.reference
        options.reportNotes =
            (truth.map { [$0.note] } ?? [])
            + ["Demo: the calliper values are simulated hand measurements (the true values with typical calliper and tape error)."]
        var staged = StagedProgressBar("  processing")
        let result = try SessionProcessor(library: library, options: options)
            .process(session, progress: { staged.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        let mapError = try TruthAlignment.markerMapError(session: session, library: library, simulator: simulator)
        log.reconstructed(result, mapRMS: mapError)

        let summary = DemoSummary(
            session: session, result: result, calliper: calliper, truth: simulator.measurements, scan: scan,
            markerRMSMillimetres: mapError, seconds: (clock.now - started).seconds)
        try outputOptions.emit(summary)
    }

    private func save<T: Encodable>(_ value: T, as name: String, in session: ScanSession) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(value).write(to: session.url.appendingPathComponent(name), options: .atomic)
    }
}

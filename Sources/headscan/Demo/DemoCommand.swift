import ArgumentParser
import Cephalometry
import Foundation
import Geometry
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
            "done", records it into a scan \
            library in --out, enters simulated calliper values, reconstructs the head in 3D, \
            measures it and writes report.html and report.pdf into the session folder. The \
            landmarks (nasion, nose tip, tragions) come from the simulation's ground truth; \
            in the app the therapist places them in the Replay screen. The summary shows the \
            measured values beside the calliper's and the truth.

            Examples:
              headscan demo
              headscan demo --scenario ideal --cvai 10 --flat-side left --out /tmp/demo
            """)

    @Option(help: "How the infant and the therapist behave: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scenario = "restless"

    @Option(help: "Seed of every random choice; the same seed repeats the same scan.")
    var seed: UInt64 = 1

    @Option(help: "The scan library folder; created if missing.")
    var out = "headscan-demo"

    @Option(help: "Longest scan in seconds; the therapist stops two seconds after HeadScan says \"done\".")
    var seconds: Double = 60

    @Flag(help: "Record the whole --seconds instead of stopping after \"done\".")
    var fullLength = false

    @Option(help: "The simulated head's CVAI in percent.")
    var cvai: Double = 7

    @Option(help: "The flattened side: left or right.")
    var flatSide = "right"

    @Flag(help: "Print the summary as one line of JSON.")
    var json = false

    func validate() throws {
        _ = try Scenario.named(scenario)
        guard FlatSide(rawValue: flatSide) != nil else { throw ValidationError("--flat-side must be left or right") }
        guard seconds >= 10, seconds <= 300 else { throw ValidationError("--seconds must be in 10...300") }
        guard cvai >= 0, cvai <= 20 else { throw ValidationError("--cvai must be in 0...20") }
    }

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let head = HeadParameters(cvai: cvai, flatSide: FlatSide(rawValue: flatSide)!)
        let simulator = try Simulator(.init(scenario: try Scenario.named(scenario), seed: seed, seconds: seconds, head: head))
        let library = ScanLibrary(root: fileURL(out))
        let log = DemoLog(quiet: json)
        log.title(simulator)

        var session = try library.createSession(date: Date())
        log.step(1, "Scanning: the simulated therapist follows the vibration and speech")
        var bar = ProgressBar("  scanning")
        let scan = try GuidedScan(simulator: simulator, stopAfterDone: fullLength ? nil : 2)
            .record(to: session.scanURL) { bar.update($0, of: $1) }
        log.scanned(scan)

        log.step(2, "Patient data: a new patient ID and simulated calliper values")
        let calliper = SimulatedCalliper.measure(simulator.head.measurements, seed: seed)
        let patientID = try library.nextFreePatientID()
        session = try library.savePatient(PatientRecord(patientID: patientID, calliper: calliper, enteredAt: Date()), in: session)
        try save(scan.timeline, as: ClinicalReportFiles.timelineFileName, in: session)
        try save(simulator.truth(frames: scan.frames, meshFile: "truth.ply"), as: ClinicalReportFiles.truthFileName, in: session)
        try Data(PLY.encode(simulator.mesh, comment: "HeadScan simulated head, metres, head frame"))
            .write(to: session.url.appendingPathComponent("truth.ply"))
        log.patient(patientID, session: session)

        log.step(3, "Reconstructing the head from the scan")
        let reconstruction = try reconstruct(session: session, simulator: simulator)
        let ply = PLY.encode(reconstruction.mesh, comment: "HeadScan reconstruction, metres, head frame")
        try library.saveMesh(plyData: Data(ply), in: session)
        // Measured as stored (PLY keeps 32-bit floats), so measurement.json, the report and
        // `headscan measure` of the saved mesh give the same figures.
        let savedMesh = try PLY.decode(ply)
        log.reconstructed(reconstruction)

        log.step(4, "Landmarks: taken from the simulation's ground truth (in the app the therapist places them in Replay)")
        let truth = simulator.head.landmarks
        let landmarks = HeadLandmarks(nasion: truth.nasion, noseTip: truth.noseTip, leftTragion: truth.leftTragion, rightTragion: truth.rightTragion)
        try library.saveAnnotations(AnnotationsRecord(landmarks, savedAt: Date()), in: session)

        log.step(5, "Measuring and writing the report")
        let slice = try Cephalometer.measure(savedMesh, landmarks: landmarks)
        let comparison = try CalliperComparison(slice.measurement, calliper: calliper)
        try library.saveMeasurement(MeasurementRecord(measurement: slice.measurement, calliper: comparison, landmarks: landmarks, measuredAt: Date()), in: session)
        let written = try ClinicalReportFiles(library: library, session: session).write(notes: [
            "Demo: the landmarks were taken from the simulation's ground truth, not placed by hand.",
            "Demo: the calliper values are simulated hand measurements (the true values with typical calliper and tape error).",
        ])
        let summary = DemoSummary(
            session: session, measured: written.slice.measurement, calliper: calliper, truth: simulator.head.measurements,
            scan: scan, reconstruction: reconstruction, html: written.html, pdf: written.pdf,
            seconds: (clock.now - started).seconds)
        if json { try printJSON(summary) } else { print(summary.text) }
    }

    private func reconstruct(session: ScanSession, simulator: Simulator) throws -> DemoReconstruction {
        let reader = try ScanReader(url: session.scanURL)
        var bar = StagedProgressBar("  reconstructing")
        let result = try Reconstructor(layout: simulator.configuration.layout, options: ReconstructionOptions()).reconstruct(
            frameCount: reader.frameCount, frame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage, $0.done + 1, of: $0.total) })
        // The truth's marker corners give the head frame, in which the truth's landmarks lie.
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = []
        for sticker in simulator.cap.stickers {
            guard let mapped = result.map.corners[sticker.id] else { continue }
            source += mapped
            target += sticker.corners
        }
        let rigid = try RigidAlignment.fit(from: source, to: target)
        return DemoReconstruction(
            mesh: result.mesh.transformed(by: rigid.transform), statistics: result.statistics,
            markerRMSMillimetres: rigid.rms * 1000, markersCompared: source.count / 4)
    }

    private func save<T: Encodable>(_ value: T, as name: String, in session: ScanSession) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(value).write(to: session.url.appendingPathComponent(name), options: .atomic)
    }
}

/// The reconstruction, moved into the head frame.
struct DemoReconstruction {
    var mesh: TriangleMesh
    var statistics: ReconstructionStatistics
    /// Marker corners against the truth after rigid alignment, millimetres RMS.
    var markerRMSMillimetres: Double
    var markersCompared: Int
}

extension ScanLibrary {
    /// The smallest patient ID no session uses, as the demo's new patient.
    func nextFreePatientID() throws -> Int {
        let used = Set(try usedPatientIDs())
        return (1...).first { !used.contains($0) }!
    }
}

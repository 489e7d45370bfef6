import Cephalometry
import Foundation
import Geometry
import Imaging
import Recording
import ScanLibrary
import Simulation

/// A session with a real recording: a simulated infant head with the marker cap, scanned by a
/// virtual TrueDepth camera, with consent, patient data and a simulated therapist's landmark
/// picks, so that processing runs the whole pipeline on it. Small by default (a short scan at
/// a reduced resolution) so that tests stay quick in debug builds.
public struct SimulatedSessionFixture: Sendable {
    /// The library folder, removed by `remove()`.
    public let root: URL
    /// The session folder inside it.
    public let folder: URL
    /// Frames in the recording.
    public let frameCount: Int
    /// The simulated head's true measurements.
    public let truth: TrueHeadMeasures

    /// Half of TrueDepth's 640x480: markers stay readable, rendering and detection take a quarter of the time.
    public static let camera = Simulator.trueDepthIntrinsics.scaled(toWidth: 320, height: 240)

    public init(
        patientID: Int = 21, seconds: Double = 2, seed: UInt64 = 1, cvai: Double = 8, camera: CameraIntrinsics = camera,
        picks: Bool = true
    ) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-session-\(UUID().uuidString)", isDirectory: true)
        folder = root.appendingPathComponent("\(patientID)_\(SessionFixture.timestamp)_Scan", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = ScanLibrary(root: root)
        let session = try library.session(named: folder.lastPathComponent)
        try library.saveConsent(
            ConsentRecord(researchUse: true, decidedAt: Date(timeIntervalSince1970: 1_777_600_000), recordedBy: "test"), in: session)
        let simulator = try Simulator(
            .init(
                scenario: .ideal, seed: seed, seconds: seconds, head: HeadParameters(cvai: cvai), sensor: .ideal, intrinsics: camera))
        // A calliper that reads the true head to the millimetre.
        let t = simulator.measurements
        let patient = """
            {"version": 1, "patientID": \(patientID), "enteredAt": "2026-05-01T10:40:00Z", "birthDate": "2026-01-01T00:00:00Z",
             "calliper": {"lengthMM": \(t.lengthMM.rounded()), "widthMM": \(t.widthMM.rounded()), "diagonalAMM": \(t.diagonalAMM.rounded()),
                          "diagonalBMM": \(t.diagonalBMM.rounded()), "circumferenceMM": \(t.circumferenceMM.rounded())}}
            """
        try Data(patient.utf8).write(to: folder.appendingPathComponent(PatientRecord.fileName))

        let header = ScanHeader(
            device: "simulator", appVersion: HeadScanVersion.current, colorIntrinsics: camera, depthIntrinsics: camera,
            layout: simulator.configuration.layout, createdAt: Date(timeIntervalSince1970: 1_777_629_000))
        let writer = try ScanWriter(url: session.scanURL, header: header, options: .init(colorCodec: .jpeg(quality: 92)))
        var frames: [FrameTruth] = []
        var depths: [DepthImage] = []
        while let simulated = simulator.nextFrame() {
            try writer.append(simulated.frame)
            frames.append(simulated.truth)
            depths.append(simulated.frame.depth)
        }
        try writer.close()
        frameCount = frames.count
        truth = simulator.measurements

        if picks {
            var annotations = AnnotationsRecord(savedAt: Date(timeIntervalSince1970: 1_777_629_600))
            let picked = SimulatedAnnotator(seed: seed).picks(
                landmarks: simulator.landmarks, truth: frames, intrinsics: camera, depth: { depths.indices.contains($0) ? depths[$0] : nil })
            for pick in picked {
                guard let landmark = Landmark(rawValue: pick.landmark) else { continue }
                annotations.pick(landmark, frameIndex: pick.frameIndex, pixel: pick.pixel)
            }
            try library.saveAnnotations(annotations, in: session)
        }
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}

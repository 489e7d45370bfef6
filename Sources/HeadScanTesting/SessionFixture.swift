import Cephalometry
import Feedback
import Foundation
import Geometry
import Recording
import ScanLibrary

/// A session folder on disk like the app writes it: consent, patient data, a scan (a real
/// scan file whose header notes are `scanBytes` long, so sizes and chunk counts can be chosen),
/// a mesh, documents and the reports. Shared by the upload client's and the research service's tests.
public struct SessionFixture: Sendable {
    /// The library folder, removed by `remove()`.
    public let root: URL
    /// The session folder inside it.
    public let folder: URL

    public static let timestamp = "2026-05-01T10-30-00"
    /// The recording's start, as the timestamp says (a Friday).
    public static let recordedAt = Date(timeIntervalSince1970: 1_777_631_400)
    /// The infant's birth date in the patient data.
    public static let birthDate = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    public init(patientID: Int = 12, consent: Bool? = true, scanBytes: Int = 5000, seed: UInt8 = 1, extra: [String: Data] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("upload-fixture-\(UUID().uuidString)", isDirectory: true)
        folder = root.appendingPathComponent("\(patientID)_\(Self.timestamp)_Scan", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = ScanLibrary(root: root)
        let session = try library.session(named: folder.lastPathComponent)
        if let consent {
            try library.saveConsent(
                ConsentRecord(researchUse: consent, decidedAt: Date(timeIntervalSince1970: 1_777_600_000), recordedBy: "test"), in: session)
        }
        let patient = PatientRecord(
            patientID: patientID, calliper: CalliperMeasurements(lengthMM: 140, widthMM: 120, diagonalAMM: 150, diagonalBMM: 145),
            enteredAt: Self.recordedAt.addingTimeInterval(600), birthDate: Self.birthDate)
        try library.save(patient, in: session)
        var state = UInt32(seed) &* 2_654_435_761 | 1
        let notes = String(
            (0..<max(0, scanBytes - 400)).map { _ -> Character in
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                return Character(Unicode.Scalar(UInt8(97 + state % 26)))
            })
        let camera = CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        let header = ScanHeader(
            device: "iPhone 13 Pro", appVersion: "1.0", colorIntrinsics: camera, depthIntrinsics: camera, capLayoutName: "none",
            createdAt: Self.recordedAt, metadata: ["notes": notes, "scenario": "ideal"])
        try ScanWriter(url: folder.appendingPathComponent(ScanSession.scanFileName), header: header).close()
        try Data(
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n0.1 0 0\n0 0.1 0\n3 0 1 2\n"
                .utf8
        )
        .write(to: folder.appendingPathComponent("head.ply"))
        try Data("%PDF-1.4 patient \(patientID)".utf8).write(to: folder.appendingPathComponent("report.pdf"))
        try Data("<html>patient \(patientID)</html>".utf8).write(to: folder.appendingPathComponent("report.html"))
        for (name, data) in extra { try data.write(to: folder.appendingPathComponent(name)) }
    }

    /// A `measurement.json` with this CVAI (diagonals 150 mm and less, length 140, width 120).
    public static func measurement(
        cvai: Double,
        landmarks: HeadLandmarks = HeadLandmarks(
            nasion: [0, 0.07, 0], noseTip: [0, 0.09, -0.02], leftTragion: [-0.06, 0, -0.02], rightTragion: [0.06, 0, -0.02])
    ) -> Data {
        var measurement = HeadMeasurement(diagonalA: 0.150, diagonalB: 0.150 * (1 - cvai / 100), length: 0.140, width: 0.120, perimeter: 0.410)
        measurement.cvai = cvai
        let record = MeasurementRecord(measurement: measurement, landmarks: landmarks, measuredAt: recordedAt.addingTimeInterval(1800))
        return (try? record.encodedAlone()) ?? Data()
    }

    /// A `rating.json` with this scan quality (1–5) and a typed note.
    public static func rating(_ quality: Int) -> Data {
        let rating = RatingRecord(
            scanQuality: quality, behaviourImpact: 2, capFit: 4, childCooperative: false, pausedForHeat: false, neededScreen: false,
            behaviourNote: "cried when Anna's mother left", settings: FeedbackSettings(), ratedAt: recordedAt.addingTimeInterval(900))
        return (try? rating.encodedAlone()) ?? Data(#"{"version": 1, "scanQuality": \#(quality)}"#.utf8)
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}

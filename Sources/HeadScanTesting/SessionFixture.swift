import Foundation
import ScanLibrary

/// A session folder on disk like the app writes it: consent, patient data, a scan, a mesh,
/// documents and the reports. Shared by the upload client's and the research service's tests.
public struct SessionFixture: Sendable {
    /// The library folder, removed by `remove()`.
    public let root: URL
    /// The session folder inside it.
    public let folder: URL

    public static let timestamp = "2026-05-01T10-30-00"

    public init(patientID: Int = 12, consent: Bool? = true, scanBytes: Int = 5000, seed: UInt8 = 1, extra: [String: Data] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("upload-fixture-\(UUID().uuidString)", isDirectory: true)
        folder = root.appendingPathComponent("\(patientID)_\(Self.timestamp)_Scan", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = ScanLibrary(root: root)
        let session = try library.session(named: folder.lastPathComponent)
        if let consent {
            try library.saveConsent(ConsentRecord(researchUse: consent, decidedAt: Date(timeIntervalSince1970: 1_777_600_000), recordedBy: "test"), in: session)
        }
        let patient = """
            {"version": 1, "patientID": \(patientID), "enteredAt": "2026-05-01T10:40:00Z", "birthDate": "2026-01-01T00:00:00Z",
             "calliper": {"lengthMM": 140, "widthMM": 120}}
            """
        try Data(patient.utf8).write(to: folder.appendingPathComponent("patient.json"))
        var state = UInt32(seed) &* 2_654_435_761 | 1
        let scan = Data((0..<scanBytes).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        })
        try scan.write(to: folder.appendingPathComponent("scan.hscan"))
        try Data("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n0.1 0 0\n0 0.1 0\n3 0 1 2\n".utf8)
            .write(to: folder.appendingPathComponent("head.ply"))
        try Data("%PDF-1.4 patient \(patientID)".utf8).write(to: folder.appendingPathComponent("report.pdf"))
        try Data("<html>patient \(patientID)</html>".utf8).write(to: folder.appendingPathComponent("report.html"))
        for (name, data) in extra { try data.write(to: folder.appendingPathComponent(name)) }
    }

    /// A `measurement.json` with this CVAI.
    public static func measurement(cvai: Double) -> Data {
        Data("""
            {"version": 1, "measurement": {"cvai": \(cvai), "ci": 82.5, "circumferenceMM": 410.0}, "measuredAt": "2026-05-01T11:00:00Z"}
            """.utf8)
    }

    /// A `rating.json` with this scan quality.
    public static func rating(_ quality: Int) -> Data {
        Data(#"{"version": 1, "scanQuality": \#(quality)}"#.utf8)
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}

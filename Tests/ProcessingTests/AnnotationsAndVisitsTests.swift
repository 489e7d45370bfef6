import Cephalometry
import Foundation
import Processing
import ScanLibrary
import Testing

struct AnnotationsAndVisitsTests {
    @Test func versionOneAnnotationsReadAsOnePickEach() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("annotations-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let library = ScanLibrary(root: root)
        let session = try library.createSession(date: Date())
        let v1 = """
            {"version": 1, "landmarks": {"nasion": {"frameIndex": 3, "pixel": [10, 20]},
             "noseTip": {"frameIndex": 4, "pixel": [11, 21], "point": [0.1, 0.2, 0.3]}}}
            """
        try Data(v1.utf8).write(to: session.url.appendingPathComponent(AnnotationsRecord.fileName))
        let read = try #require(try library.annotations(in: session))
        #expect(read.landmarks[.nasion] == [.pixel(frameIndex: 3, pixel: SIMD2(10, 20))])
        #expect(read.landmarks[.noseTip] == [.point(SIMD3(0.1, 0.2, 0.3))])
        #expect(read.missing == [.leftTragion, .rightTragion])
        try library.saveAnnotations(read, in: session)
        let saved =
            try JSONSerialization.jsonObject(with: Data(contentsOf: session.url.appendingPathComponent(AnnotationsRecord.fileName))) as! [String: Any]
        #expect(saved["version"] as? Int == 2)
        #expect((saved["landmarks"] as? [String: Any])?["nasion"] is [Any])
    }

    @Test func aPatientsSecondVisitIsAcceptedAndListedWithItsAge() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let utc = TimeZone(identifier: "UTC")!
        let library = ScanLibrary(root: root, timeZone: utc)
        let birth = Date(timeIntervalSince1970: 1_770_000_000)
        let calliper = CalliperMeasurements(lengthMM: 140, widthMM: 115, diagonalAMM: 130, diagonalBMM: 125, circumferenceMM: 400)
        var sessions: [ScanSession] = []
        for week in [0, 4, 9] {
            let date = birth.addingTimeInterval(Double(10 + week) * 7 * 86_400)
            let session = try library.createSession(date: date)
            sessions.append(
                try library.savePatient(
                    PatientRecord(patientID: 12, calliper: calliper, enteredAt: date, birthDate: week == 4 ? birth : nil), in: session))
        }
        let visits = try library.visits(ofPatient: 12)
        #expect(visits.map(\.session.name) == sessions.map(\.name))
        #expect(visits.map { ($0.ageWeeks ?? -1).rounded() } == [10, 14, 19])
        #expect(try library.visits(ofPatient: 12, excluding: sessions[1]).count == 2)
        #expect(try library.visits(ofPatient: 13).isEmpty)
    }
}

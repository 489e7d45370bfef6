import Cephalometry
import Feedback
import Foundation
import ScanLibrary
import Testing

struct ScanLibraryTests {
    @Test func createsTemporarySessionsThenNamesThemAfterThePatient() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let first = try lib.createSession(date: may1)
        let second = try lib.createSession(date: may1)
        #expect(first.name.rawValue == "new_2024-05-01T10-30-00_Scan")
        #expect(second.name.rawValue == "new-2_2024-05-01T10-30-00_Scan")
        #expect(first.scanURL.lastPathComponent == "scan.hscan")
        #expect(first.scanURL.deletingLastPathComponent() == first.url)

        let saved = try lib.savePatient(patient(42), in: first)
        #expect(saved.name.rawValue == "42_2024-05-01T10-30-00_Scan")
        #expect(try lib.patient(in: saved) == patient(42))
        #expect(FileManager.default.fileExists(atPath: saved.patientURL.path))
        #expect(!FileManager.default.fileExists(atPath: first.url.path))
        #expect(try lib.usedPatientIDs() == [42])
    }

    @Test func aPatientIDInUseIsAFurtherVisit() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let a = try lib.savePatient(patient(7), in: lib.createSession(date: may1))
        let b = try lib.createSession(date: may1.addingTimeInterval(60))
        #expect(throws: ScanLibraryError.invalidPatientID(0)) { try lib.savePatient(patient(0), in: b) }
        let second = try lib.savePatient(patient(7), in: b)
        #expect(second.name.id == "7")
        #expect(try lib.visits(ofPatient: 7).map(\.session.name) == [a.name, second.name])
        // Saving the same ID again on its own session is an edit, not a clash.
        #expect(try lib.savePatient(patient(7), in: a) == a)
        // A changed ID renames a session named after the old one.
        #expect(try lib.savePatient(patient(8), in: a).name.id == "8")
        #expect(try lib.usedPatientIDs() == [7, 8])
    }

    @Test func refusesImplausibleCalliperValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let session = try lib.createSession(date: may1)
        var record = patient(3)
        record.calliper.lengthMM = 14
        #expect(throws: ScanLibraryError.self) { try lib.savePatient(record, in: session) }
        #expect(try lib.patient(in: session) == nil)
    }

    @Test func listsStatusOfEverySession() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let a = try lib.savePatient(patient(1), in: lib.createSession(date: may1))
        let b = try lib.savePatient(patient(2), in: lib.createSession(date: may1.addingTimeInterval(1)))
        try Data().write(to: a.scanURL)
        var annotations = AnnotationsRecord()
        annotations.pick(.nasion, frameIndex: 3, pixel: [10, 20])
        try lib.saveAnnotations(annotations, in: a)
        try lib.saveAnnotations(AnnotationsRecord(headLandmarks), in: b)
        try lib.saveMeasurement(
            MeasurementRecord(
                measurement: HeadMeasurement(diagonalA: 0.15, diagonalB: 0.14, length: 0.14, width: 0.12, perimeter: 0.43),
                landmarks: headLandmarks, measuredAt: may1), in: b)
        try lib.saveMesh(plyData: Data("ply\n".utf8), in: b)

        let entries = try lib.list().entries
        #expect(entries.map(\.session.name.id) == ["1", "2"])
        #expect(entries[0].hasScan && !entries[1].hasScan)
        #expect(entries[0].annotationStatus == .toDo)
        #expect(entries[1].annotationStatus == .allSet)
        #expect(!entries[0].isMeasured && entries[1].isMeasured && entries[1].hasMesh)
        #expect(entries.map(\.patientID) == [1, 2])
        #expect(try lib.annotations(in: b)?.headLandmarks == headLandmarks)
        #expect(try lib.measurement(in: b)?.meshFile == "head.ply")
    }

    @Test func ratingKeepsTheSettingsInForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let session = try lib.createSession(date: may1)
        var settings = FeedbackSettings()
        settings.progressIncrement = .only100
        let rating = RatingRecord(
            scanQuality: 4, behaviourImpact: 2, capFit: 5, childCooperative: false, pausedForHeat: true,
            neededScreen: false, behaviourNote: "cried", settings: settings, ratedAt: may1)
        try lib.saveRating(rating, in: session)
        #expect(try lib.rating(in: session) == rating)
        var bad = rating
        bad.capFit = 6
        #expect(throws: ScanLibraryError.self) { try lib.saveRating(bad, in: session) }
        #expect(try lib.rating(in: session) == rating)
    }

    @Test func renamesWithChecks() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let a = try lib.savePatient(patient(1), in: lib.createSession(date: may1))
        _ = try lib.savePatient(patient(2), in: lib.createSession(date: may1))
        let renamed = try lib.rename(a, to: "1-Mueller_2024-05-01T10-30-00_Scan")
        #expect(renamed.name.id == "1-Mueller")
        #expect(try lib.patient(in: renamed)?.patientID == 1)
        #expect(throws: ScanLibraryError.nameTaken("2_2024-05-01T10-30-00_Scan")) {
            try lib.rename(renamed, to: "2_2024-05-01T10-30-00_Scan")
        }
        #expect(throws: ScanLibraryError.nameTaken("1-mueller_2024-05-01T10-30-00_Scan")) {
            try lib.rename(lib.session(named: "2_2024-05-01T10-30-00_Scan"), to: "1-mueller_2024-05-01T10-30-00_Scan")
        }
        #expect(throws: ScanLibraryError.sameName(renamed.name.rawValue)) { try lib.rename(renamed, to: renamed.name.rawValue) }
        #expect(throws: ScanLibraryError.sessionNotFound(a.name.rawValue)) { try lib.rename(a, to: "9_2024-05-01T10-30-00_Scan") }
        let escape = "../x_2024-05-01T10-30-00_Scan"
        #expect(throws: ScanLibraryError.invalidName(name: escape, reason: .pathSeparator)) { try lib.rename(renamed, to: escape) }
        #expect(try lib.list().entries.map(\.session.name.id).sorted() == ["1-Mueller", "2"])
    }

    @Test func deletesOneOrMany() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let sessions = try (0..<3).map { try lib.createSession(date: may1.addingTimeInterval(Double($0))) }
        try lib.delete([sessions[0]])
        #expect(try lib.list().entries.count == 2)
        try lib.delete([sessions[1], sessions[2]])
        #expect(try lib.list().entries.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: lib.root.path).isEmpty)
        #expect(throws: ScanLibraryError.sessionNotFound(sessions[0].name.rawValue)) { try lib.delete([sessions[0]]) }
    }

    @Test func strayFilesAndCorruptDocumentsDoNotHideTheRest() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let good = try lib.savePatient(patient(1), in: lib.createSession(date: may1))
        let bad = try lib.savePatient(patient(2), in: lib.createSession(date: may1.addingTimeInterval(1)))
        try write("{ not json", to: bad.patientURL)
        try write("[]", to: bad.annotationsURL)
        try write(#"{"version":1,"scanQuality":"high"}"#, to: bad.ratingURL)
        try write("notes", to: lib.root.appendingPathComponent("readme.txt"))
        try write("x", to: lib.root.appendingPathComponent("3_2024-05-01T10-30-00_Scan"))
        try FileManager.default.createDirectory(at: lib.root.appendingPathComponent("photos"), withIntermediateDirectories: false)
        try write("x", to: lib.root.appendingPathComponent(".DS_Store"))

        let listing = try lib.list()
        #expect(listing.entries.map(\.session) == [good, bad])
        #expect(listing.entries[0].problems.isEmpty)
        #expect(
            listing.entries[1].problems == [
                .corruptDocument(session: bad.name.rawValue, file: "patient.json", reason: "not valid JSON"),
                .corruptDocument(session: bad.name.rawValue, file: "annotations.json", reason: "not a JSON object"),
                .corruptDocument(session: bad.name.rawValue, file: "rating.json", reason: "\"scanQuality\" has the wrong type"),
            ])
        #expect(listing.strays.map(\.name) == ["3_2024-05-01T10-30-00_Scan", "photos", "readme.txt"])
        #expect(throws: ScanLibraryError.corruptDocument(session: bad.name.rawValue, file: "patient.json", reason: "not valid JSON")) {
            try lib.patient(in: bad)
        }
        // The unreadable ID does not block the others from being checked.
        #expect(try lib.usedPatientIDs() == [1, 2])
    }

    @Test func documentsKeepUnknownFieldsAndRefuseNewerVersions() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let session = try lib.createSession(date: may1)
        try write(
            """
            {"version":1,"landmarks":{},"tablet":{"model":"X","n":3},"note":"from a newer tool"}
            """, to: session.annotationsURL)
        var annotations = try #require(try lib.annotations(in: session))
        annotations.pick(.noseTip, frameIndex: 1, pixel: [5, 6])
        try lib.saveAnnotations(annotations, in: session)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: session.annotationsURL)) as? [String: Any]
        #expect(object?["note"] as? String == "from a newer tool")
        #expect((object?["tablet"] as? [String: Any])?["n"] as? Int == 3)
        // Saved in the current form: a list of picks per landmark.
        #expect(object?["version"] as? Int == 2)
        #expect(try lib.annotations(in: session) == annotations)

        try write(#"{"version":3,"landmarks":{}}"#, to: session.annotationsURL)
        let newer = ScanLibraryError.newerDocument(session: session.name.rawValue, file: "annotations.json", version: 3, supported: 2)
        #expect(throws: newer) { try lib.annotations(in: session) }
        #expect(throws: newer) { try lib.saveAnnotations(annotations, in: session) }
        try write(#"{"landmarks":{}}"#, to: session.annotationsURL)
        #expect(throws: ScanLibraryError.self) { try lib.annotations(in: session) }
        try write(#"{"version":1,"landmarks":{"chin":{"point":[0,0,0]}}}"#, to: session.annotationsURL)
        #expect(throws: ScanLibraryError.self) { try lib.annotations(in: session) }
    }
}

let headLandmarks = HeadLandmarks(
    nasion: [0, 0.08, 0.02], noseTip: [0, 0.1, -0.01], leftTragion: [-0.06, 0, 0], rightTragion: [0.06, 0, 0])

struct ConsentTests {
    @Test func consentIsRecordedAndListed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = ScanLibrary(root: folder.url)
        let session = try lib.createSession(date: Date(timeIntervalSince1970: 1_714_559_400))
        #expect(try lib.consent(in: session) == nil)
        #expect(try lib.list().entries.first?.researchConsent == nil)
        try lib.saveConsent(ConsentRecord(researchUse: true, decidedAt: Date(timeIntervalSince1970: 1_714_559_500), recordedBy: "test"), in: session)
        #expect(try lib.consent(in: session)?.researchUse == true)
        #expect(try lib.list().entries.first?.researchConsent == true)
        try lib.saveConsent(ConsentRecord(researchUse: false, decidedAt: Date(timeIntervalSince1970: 1_714_559_600), recordedBy: "test"), in: session)
        #expect(try lib.list().entries.first?.researchConsent == false)
    }
}

struct BackupExclusionTests {
    /// The introduction says scans stay on the phone: each new session folder is kept out of
    /// iCloud and computer backups.
    @Test func everyNewSessionIsKeptOutOfBackups() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let fs = BackupRecordingFileSystem()
        let lib = library(folder, fs)
        let first = try lib.createSession(date: may1)
        let second = try lib.createSession(date: may1)
        #expect(fs.excluded == [first.url, second.url])
    }
}

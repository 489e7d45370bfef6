import Foundation
import ScanLibrary
import Testing

/// A failure injected between the steps of a change leaves the old state or the new one.
struct InterruptionTests {
    @Test func savePatientPutsThePreviousDocumentBackWhenTheRenameFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let session = try library(folder).createSession(date: may1)
        let failing = library(folder, FailingFileSystem(failing: .move))
        #expect(throws: ScanLibraryError.self) { try failing.savePatient(patient(5), in: session) }
        let listing = try library(folder).list()
        #expect(listing.entries.map(\.session) == [session])
        #expect(listing.entries[0].patientID == nil)
        #expect(!FileManager.default.fileExists(atPath: session.patientURL.path))
    }

    @Test func savePatientKeepsTheOldValuesWhenTheRenameFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let session = try library(folder).savePatient(patient(5), in: library(folder).createSession(date: may1))
        let failing = library(folder, FailingFileSystem(failing: .move))
        #expect(throws: ScanLibraryError.self) { try failing.savePatient(patient(6), in: session) }
        #expect(try library(folder).patient(in: session) == patient(5))
    }

    @Test func aFailedWriteLeavesTheOldDocument() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let session = try library(folder).createSession(date: may1)
        try library(folder).saveAnnotations(AnnotationsRecord(headLandmarks), in: session)
        #expect(throws: ScanLibraryError.self) {
            try library(folder, FailingFileSystem(failing: .write)).saveAnnotations(AnnotationsRecord(), in: session)
        }
        #expect(throws: ScanLibraryError.self) {
            try library(folder, FailingFileSystem(failing: .write)).savePatient(patient(1), in: session)
        }
        #expect(try library(folder).annotations(in: session)?.isComplete == true)
        #expect(try library(folder).list().entries.map(\.session) == [session])
    }

    @Test func aFailedRenameChangesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let session = try library(folder).createSession(date: may1)
        let failing = library(folder, FailingFileSystem(failing: .move))
        #expect(throws: ScanLibraryError.self) { try failing.rename(session, to: "9_2024-05-01T10-30-00_Scan") }
        #expect(try library(folder).list().entries.map(\.session) == [session])
    }

    @Test func deletingManyMovesTheFirstBackWhenTheSecondFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let sessions = try (0..<3).map { try lib.createSession(date: may1.addingTimeInterval(Double($0))) }
        let failing = library(folder, FailingFileSystem(failing: .move, atCall: 2))
        #expect(throws: ScanLibraryError.self) { try failing.delete(sessions) }
        #expect(try lib.list().entries.map(\.session) == sessions)
        #expect(try FileManager.default.contentsOfDirectory(atPath: lib.root.path).count == 3)
    }

    @Test func aRemovalCutShortLeavesOnlyAHiddenFolderThatTheNextDeleteClears() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let lib = library(folder)
        let a = try lib.createSession(date: may1)
        let b = try lib.createSession(date: may1.addingTimeInterval(1))
        try library(folder, FailingFileSystem(failing: .remove)).delete([a])
        #expect(try lib.list().entries.map(\.session) == [b])
        #expect(try FileManager.default.contentsOfDirectory(atPath: lib.root.path).filter { $0.hasPrefix(".deleting-") }.count == 1)
        try lib.delete([b])
        #expect(try FileManager.default.contentsOfDirectory(atPath: lib.root.path).isEmpty)
    }

    @Test func aFailedCreateLeavesNoFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let failing = ScanLibrary(root: folder.url, fileSystem: FailingFileSystem(failing: .create), timeZone: utc)
        #expect(throws: ScanLibraryError.self) { try failing.createSession(date: may1) }
        #expect(folder.names.isEmpty)
    }
}

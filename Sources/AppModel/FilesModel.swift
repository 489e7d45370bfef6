import AppSupport
import Foundation
import Observation
import ScanLibrary

/// A row of the files list.
public struct FileRow: Sendable, Equatable, Identifiable {
    /// The folder name.
    public var id: String { session.name.rawValue }
    /// The session.
    public var session: ScanSession
    /// A short status line: patient data, rating, annotations, measurement.
    public var status: String
    /// Unreadable documents of this session.
    public var problems: [String]
}

/// The files screen: every scan; in edit mode select one or many, rename exactly one,
/// delete after a confirmation.
@MainActor @Observable
public final class FilesModel {
    /// The scans.
    public private(set) var rows: [FileRow] = []
    /// Items that are not scans, with why (left untouched).
    public private(set) var strays: [String] = []
    /// Whether the list is in edit mode.
    public private(set) var isEditing = false
    /// The selected scans' names.
    public private(set) var selection: Set<String> = []
    /// Whether the delete confirmation is showing.
    public private(set) var isConfirmingDelete = false
    /// The result of the last delete, or why listing failed.
    public private(set) var message: String?
    /// Called to open the rename screen for one scan.
    @ObservationIgnored public var onRename: (ScanSession) -> Void = { _ in }

    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let strings: Strings

    /// The files of `library`.
    public init(library: ScanLibrary, strings: Strings) {
        self.library = library
        self.strings = strings
        reload()
    }

    /// The hints above the list in edit mode.
    public var hints: [String] { isEditing ? [strings(.filesHintRename), strings(.filesHintDelete)] : [] }

    /// The edit button's label.
    public var editButtonTitle: String { isEditing ? strings(.filesDone) : strings(.filesEdit) }

    /// Lists the library again, keeping only selections that still exist.
    public func reload() {
        do {
            let listing = try library.list()
            rows = listing.entries.map { FileRow(session: $0.session, status: status($0), problems: $0.problems.map { strings.message($0) }) }
            strays = listing.strays.map { strings(.filesStray, $0.name) }
        } catch {
            rows = []
            strays = []
            message = strings.message(error)
        }
        selection.formIntersection(rows.map(\.id))
    }

    /// Enters or leaves edit mode; leaving clears the selection.
    public func toggleEditing() {
        isEditing.toggle()
        if !isEditing { selection = [] }
    }

    /// Selects or deselects a row (edit mode only).
    public func toggleSelection(_ row: FileRow) {
        guard isEditing else { return }
        if selection.remove(row.id) == nil { selection.insert(row.id) }
    }

    /// Rename is possible with exactly one scan selected.
    public var canRename: Bool { isEditing && selection.count == 1 }
    /// Delete is possible with at least one selected.
    public var canDelete: Bool { isEditing && !selection.isEmpty }

    /// Opens the rename screen for the one selected scan.
    public func renameSelected() {
        guard canRename, let row = rows.first(where: { selection.contains($0.id) }) else { return }
        onRename(row.session)
    }

    /// The rename screen closed: list again.
    public func renameFinished() {
        selection = []
        reload()
    }

    /// Asks to confirm deleting the selection.
    public func requestDelete() { if canDelete { isConfirmingDelete = true } }

    /// Keeps the files.
    public func cancelDelete() { isConfirmingDelete = false }

    /// The confirmation's question, naming how many scans go.
    public var deleteQuestion: String {
        selection.count == 1 ? strings(.filesDeleteOne, selection.first ?? "") : strings(.filesDeleteMany, String(selection.count))
    }

    /// Deletes the selection (all or nothing) and lists again.
    public func confirmDelete() {
        isConfirmingDelete = false
        let sessions = rows.filter { selection.contains($0.id) }.map(\.session)
        do {
            try library.delete(sessions)
            message = strings(.filesDeleted, String(sessions.count))
            selection = []
        } catch {
            message = strings.message(error)
        }
        reload()
    }

    /// Packs a session into a zip file in `folder` to share; nil with a message when it fails.
    public func archive(_ row: FileRow, into folder: URL) -> URL? {
        switch Self.pack(row.session, into: folder, name: row.id) {
        case .success(let url): return url
        case .failure(let error):
            message = strings(.filesArchiveFailed, error.description)
            return nil
        }
    }

    /// The zip being offered in the share sheet, once packed.
    public private(set) var sharedArchive: URL?
    /// Whether a session is being packed (a scan's zip takes a while: the screen stays live).
    public private(set) var isPacking = false

    /// Packs a session into a zip in `folder` off the main actor, then offers it to share.
    public func share(_ row: FileRow, into folder: URL) async {
        guard !isPacking else { return }
        isPacking = true
        defer { isPacking = false }
        let session = row.session, name = row.id
        let packed = await Task.detached(priority: .userInitiated) { Self.pack(session, into: folder, name: name) }.value
        switch packed {
        case .success(let url): sharedArchive = url
        case .failure(let error): message = strings(.filesArchiveFailed, error.description)
        }
    }

    /// The share sheet closed: the temporary zip goes (the session itself stays).
    public func sharingEnded() {
        if let sharedArchive { try? FileManager.default.removeItem(at: sharedArchive) }
        sharedArchive = nil
    }

    nonisolated private static func pack(_ session: ScanSession, into folder: URL, name: String) -> Result<URL, SessionArchive.Failure> {
        do {
            return .success(try SessionArchive.write(session, to: folder.appendingPathComponent(name + ".zip")))
        } catch {
            return .failure(error)
        }
    }

    private func status(_ entry: LibraryEntry) -> String {
        var parts: [String] = []
        if !entry.hasScan { parts.append(strings(.filesNoScan)) }
        parts.append(entry.patientID == nil ? strings(.filesNoPatient) : strings(.filesPatient, String(entry.patientID!)))
        if entry.isRated { parts.append(strings(.filesRated)) }
        parts.append(entry.annotationStatus == .allSet ? strings(.tagAllSet) : strings(.tagToDo))
        if entry.isMeasured { parts.append(strings(.filesMeasured)) }
        switch entry.researchConsent {
        case true?: parts.append(strings(.filesConsentYes))
        case false?: parts.append(strings(.filesConsentNo))
        case nil: parts.append(strings(.filesConsentOpen))
        }
        return parts.joined(separator: " · ")
    }
}

import Foundation

/// The on-device store of scans: one folder per session under `root`.
///
/// Every change is made so that an interruption at any step leaves either the old or the
/// new state: documents are written atomically, folders move in one rename, and a step that
/// fails undoes the steps before it.
public struct ScanLibrary: Sendable {
    /// The folder holding the session folders.
    public let root: URL
    /// The file operations.
    public let fileSystem: any FileSystem
    /// The time zone session names are written in.
    public let timeZone: TimeZone

    /// Prefix of a folder that is being deleted; hidden, and removed again if left behind.
    static let deletingPrefix = ".deleting-"

    /// The library at `root`; the folder is created with the first session.
    public init(root: URL, fileSystem: any FileSystem = LiveFileSystem(), timeZone: TimeZone = .current) {
        self.root = root
        self.fileSystem = fileSystem
        self.timeZone = timeZone
    }

    /// The session named `name`.
    public func session(named name: String) throws(ScanLibraryError) -> ScanSession {
        let parsed = try SessionName(parsing: name)
        let session = ScanSession(name: parsed, root: root)
        guard fileSystem.itemKind(at: session.url) == .directory else { throw .sessionNotFound(name) }
        return session
    }

    /// A new session folder with a temporary name for a scan started at `date`.
    public func createSession(date: Date) throws(ScanLibraryError) -> ScanSession {
        if fileSystem.itemKind(at: root) == nil {
            try step("create", root) { try fileSystem.createDirectory(at: root) }
        }
        let taken = Set(try sessionNames().map(\.collisionKey))
        var counter = 1
        while true {
            let id = counter == 1 ? SessionName.temporaryID : "\(SessionName.temporaryID)-\(counter)"
            let name = try SessionName(id: id, date: date, timeZone: timeZone)
            let session = ScanSession(name: name, root: root)
            if !taken.contains(name.collisionKey), fileSystem.itemKind(at: session.url) == nil {
                try step("create", session.url) { try fileSystem.createDirectory(at: session.url) }
                // A scan that cannot be kept out of backups is still a scan: keep it.
                try? fileSystem.excludeFromBackup(session.url)
                return session
            }
            counter += 1
        }
    }

    /// The names of all session folders.
    func sessionNames() throws(ScanLibraryError) -> [SessionName] {
        try items().compactMap { item in
            guard fileSystem.itemKind(at: root.appendingPathComponent(item)) == .directory else { return nil }
            return try? SessionName(parsing: item)
        }
    }

    /// The visible item names in the root; none when the root does not exist yet.
    func items() throws(ScanLibraryError) -> [String] {
        guard let kind = fileSystem.itemKind(at: root) else { return [] }
        guard kind == .directory else { throw .unreadableLibrary(path: root.path, reason: "it is a file, not a folder") }
        do {
            return try fileSystem.contentsOfDirectory(at: root).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .unreadableLibrary(path: root.path, reason: Self.reason(error))
        }
    }

    /// Runs one file operation, turning its failure into a library error.
    func step(_ operation: String, _ url: URL, _ body: () throws -> Void) throws(ScanLibraryError) {
        do {
            try body()
        } catch {
            throw .fileOperationFailed(operation: operation, path: url.path, reason: Self.reason(error))
        }
    }

    /// An underlying error in words: its own message where it has one (Foundation's generic
    /// sentence says nothing), else its description.
    static func reason(_ error: any Error) -> String {
        if let error = error as? ScanLibraryError { return error.description }
        if error is LocalizedError || error is CocoaError || type(of: error) is NSError.Type { return error.localizedDescription }
        return String(describing: error)
    }
}

import Foundation

/// The file operations the library performs, one call per step, so that tests can make any
/// step fail and show that the library never leaves a half-done change behind.
public protocol FileSystem: Sendable {
    /// Whether something exists at `url`, and whether it is a folder.
    func itemKind(at url: URL) -> ItemKind?
    /// The names of the items directly inside a folder.
    func contentsOfDirectory(at url: URL) throws -> [String]
    /// Creates a folder (and its parents); fails when it already exists.
    func createDirectory(at url: URL) throws
    /// Moves an item in one step (rename(2) on one volume): it is either at the old or at
    /// the new place, never in between.
    func moveItem(at source: URL, to destination: URL) throws
    /// Deletes an item, recursively for folders.
    func removeItem(at url: URL) throws
    /// The whole content of a file.
    func readData(at url: URL) throws -> Data
    /// Writes a file atomically: a reader sees the old or the new content.
    func writeData(_ data: Data, to url: URL) throws
    /// Keeps an item out of the phone's iCloud and computer backups (scans stay on the
    /// phone, as the introduction promises); nothing where there is no such backup.
    func excludeFromBackup(_ url: URL) throws
}

/// What an item on disk is.
public enum ItemKind: Sendable, Equatable {
    case file, directory
}

/// The real file system through FileManager.
public struct LiveFileSystem: FileSystem {
    /// The live file system.
    public init() {}

    public func itemKind(at url: URL) -> ItemKind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }

    public func contentsOfDirectory(at url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path)
    }

    public func createDirectory(at url: URL) throws {
        // An existing folder must fail: a new session never reuses another's folder.
        if itemKind(at: url) != nil { throw CocoaError(.fileWriteFileExists) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func moveItem(at source: URL, to destination: URL) throws {
        // FileManager.moveItem may copy and delete across volumes; inside the library both
        // ends are on one volume, where it is a single rename.
        try FileManager.default.moveItem(at: source, to: destination)
    }

    public func removeItem(at url: URL) throws {
        try FileManager.default.removeItem(at: url)
    }

    public func readData(at url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    public func writeData(_ data: Data, to url: URL) throws {
        try data.write(to: url, options: .atomic)
    }

    public func excludeFromBackup(_ url: URL) throws {
        #if canImport(Darwin)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        var item = url
        try item.setResourceValues(values)
        #endif
    }
}

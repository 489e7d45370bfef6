import Foundation
import Upload

/// Files on disk: finished files under `blobs/` named by their SHA-256 (identical files are kept
/// once), chunks of unfinished uploads under `incoming/`.
public struct BlobStore: Sendable {
    public let root: URL

    public init(root: URL) throws {
        self.root = root.standardizedFileURL
        for folder in ["blobs", "incoming", "tmp"] {
            try Self.makeFolder(self.root.appendingPathComponent(folder))
        }
    }

    /// Creates a folder only the service's user may enter.
    static func makeFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Where a finished file with this SHA-256 lives (the digest is checked to be hex first).
    public func blobURL(_ sha256: String) -> URL? {
        guard UploadProtocol.isValidDigest(sha256) else { return nil }
        return root.appendingPathComponent("blobs/\(sha256.prefix(2))/\(sha256)")
    }

    public func hasBlob(_ sha256: String) -> Bool {
        blobURL(sha256).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    func incomingFolder(_ uploadID: String) -> URL {
        root.appendingPathComponent("incoming/\(uploadID)", isDirectory: true)
    }

    /// A chunk's file: named by the file's position in the manifest, never by a client's text.
    func chunkURL(uploadID: String, fileIndex: Int, chunkIndex: Int) -> URL {
        incomingFolder(uploadID).appendingPathComponent("\(fileIndex)-\(chunkIndex)")
    }

    /// Writes a chunk beside its place, not yet in it: it takes its place (`commitChunk`) only
    /// once the database names its digest as the chunk's, so two bodies of one chunk sent at
    /// once never leave the other's bytes in place.
    func writePendingChunk(_ data: Data, uploadID: String) throws -> URL {
        try Self.makeFolder(incomingFolder(uploadID))
        let url = incomingFolder(uploadID).appendingPathComponent("pending-\(UUID().uuidString)")
        try data.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }

    func commitChunk(_ pending: URL, uploadID: String, fileIndex: Int, chunkIndex: Int) throws {
        let target = chunkURL(uploadID: uploadID, fileIndex: fileIndex, chunkIndex: chunkIndex)
        if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
        try FileManager.default.moveItem(at: pending, to: target)
    }

    func removeIncoming(_ uploadID: String) {
        try? FileManager.default.removeItem(at: incomingFolder(uploadID))
    }

    func hasChunks(uploadID: String, fileIndex: Int, count: Int) -> Bool {
        (0..<count).allSatisfy { FileManager.default.fileExists(atPath: chunkURL(uploadID: uploadID, fileIndex: fileIndex, chunkIndex: $0).path) }
    }

    func removeChunks(uploadID: String, fileIndex: Int, count: Int) {
        for index in 0..<count {
            try? FileManager.default.removeItem(at: chunkURL(uploadID: uploadID, fileIndex: fileIndex, chunkIndex: index))
        }
    }

    /// A new folder under `tmp/` for one request's files, removed by the caller.
    func stagingFolder() throws -> URL {
        let folder = root.appendingPathComponent("tmp/stage-\(UUID().uuidString)", isDirectory: true)
        try Self.makeFolder(folder)
        return folder
    }

    /// Joins a file's chunks into `target` and returns its SHA-256 and size.
    func assemble(uploadID: String, fileIndex: Int, chunkCount: Int, into target: URL) throws -> (sha256: String, size: Int64) {
        _ = FileManager.default.createFile(atPath: target.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        var hasher = StreamingSHA256()
        var size: Int64 = 0
        for index in 0..<chunkCount {
            let data = try Data(contentsOf: chunkURL(uploadID: uploadID, fileIndex: fileIndex, chunkIndex: index))
            hasher.update(data)
            size += Int64(data.count)
            try output.write(contentsOf: data)
        }
        // Not synchronised: this copy is only the checks' input; what is kept is the service's
        // own encoding, which is written and synchronised by the checks.
        return (hasher.finalize(), size)
    }

    /// Moves a checked file into `blobs/` under its SHA-256 (kept once when already there).
    func keep(_ url: URL, sha256: String) throws {
        guard let target = blobURL(sha256) else { throw CocoaError(.fileWriteUnknown) }
        guard !FileManager.default.fileExists(atPath: target.path) else { return }
        try Self.makeFolder(target.deletingLastPathComponent())
        do {
            try FileManager.default.moveItem(at: url, to: target)
        } catch  where FileManager.default.fileExists(atPath: target.path) {
            // Another upload stored the same bytes at the same moment.
        }
    }

    /// Moves a file the service wrote (its own encoding of an upload) into `blobs/` under its
    /// SHA-256; returns it as the session's file `name`.
    func keep(_ url: URL, name: String) throws -> SessionFile {
        let (digest, size) = try Digest.sha256(fileAt: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try keep(url, sha256: digest)
        return SessionFile(name: name, size: size, sha256: digest)
    }

    /// Stores bytes written by processing; returns their digest.
    func store(fileAt url: URL) throws -> SessionFile {
        let (digest, size) = try Digest.sha256(fileAt: url)
        guard let target = blobURL(digest) else { throw CocoaError(.fileWriteUnknown) }
        if !FileManager.default.fileExists(atPath: target.path) {
            try Self.makeFolder(target.deletingLastPathComponent())
            let temporary = root.appendingPathComponent("tmp/\(UUID().uuidString)")
            try FileManager.default.copyItem(at: url, to: temporary)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
            do {
                try FileManager.default.moveItem(at: temporary, to: target)
            } catch  where FileManager.default.fileExists(atPath: target.path) {
                try? FileManager.default.removeItem(at: temporary)
            }
        }
        return SessionFile(name: url.lastPathComponent, size: size, sha256: digest)
    }

    /// Every file below `root`, relative paths with sizes: tests compare it before and after.
    public func snapshot() -> [String: Int64] {
        var result: [String: Int64] = [:]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return [:] }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path.replacingOccurrences(of: root.path + "/", with: "")
            if path.hasSuffix("-wal") || path.hasSuffix("-shm") || path.hasSuffix(".sqlite") || path.hasPrefix("audit") { continue }
            result[path] = Int64(values.fileSize ?? 0)
        }
        return result
    }
}

import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Upload
import ZIPFoundation

/// Zips sessions' recordings in the TUM RGB-D layout, one folder per session, written by the
/// command line's exporter (`headscan export --format tum`): `SITE/NAME-ID/rgb/*.png` (see `ArchivePath`),
/// `SITE/NAME-ID/depth/*.png`, `rgb.txt`, `depth.txt`, `associations.txt`, `intrinsics.json`, and
/// for processed sessions `groundtruth.txt` with the reconstruction's keyframe poses.
/// `sessions.json` lists the sessions and their values; `left-out.txt` names sessions whose
/// recording could not be exported, and why.
enum TUMArchive {
    /// Why a session's recording is not in the archive.
    struct LeftOut: Sendable, Equatable, Codable {
        var session: String
        var reason: String
    }

    /// What was written.
    struct Outcome: Sendable, Codable {
        var exported: [SessionSummary]
        var leftOut: [LeftOut]
    }

    /// Exports each session into `scratch` and moves it into the zip at `url`.
    static func write(_ sessions: [SessionSummary], blobs: BlobStore, scratch: URL, to url: URL) throws -> Outcome {
        let archive = try Archive(url: url, accessMode: .create)
        var outcome = Outcome(exported: [], leftOut: [])
        for session in sessions {
            let folder = scratch.appendingPathComponent(session.id, isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                let skipped = try export(session, blobs: blobs, to: folder)
                if skipped > 0 { outcome.leftOut.append(LeftOut(session: session.name, reason: "\(skipped) damaged frames left out")) }
            } catch let problem as LeftOut {
                outcome.leftOut.append(problem)
                continue
            }
            try add(folder, as: ArchivePath.folder(session), to: archive)
            outcome.exported.append(session)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try add(try encoder.encode(SessionList(sessions: outcome.exported)), as: "sessions.json", to: archive)
        if !outcome.leftOut.isEmpty {
            let text = outcome.leftOut.map { "\($0.session): \($0.reason)\n" }.joined()
            try add(Data(text.utf8), as: "left-out.txt", to: archive)
        }
        return outcome
    }

    /// Writes one session's recording into `folder`; returns the damaged frames skipped.
    static func export(_ session: SessionSummary, blobs: BlobStore, to folder: URL) throws -> Int {
        guard let scan = session.files.first(where: { $0.name == ScanSession.scanFileName }), let url = blobs.blobURL(scan.sha256) else {
            throw LeftOut(session: session.name, reason: "it has no recording (\(ScanSession.scanFileName))")
        }
        let reader: ScanReader
        do {
            reader = try ScanReader(url: url)
        } catch {
            throw LeftOut(session: session.name, reason: "its recording cannot be read: \(error)")
        }
        do {
            return try TUMExporter().export(reader, to: folder, poses: poses(session, scanSize: scan.size, blobs: blobs)).count
        } catch {
            throw LeftOut(session: session.name, reason: "its recording could not be exported: \(error)")
        }
    }

    /// The keyframe poses of the session's reconstruction, when it was made from this recording.
    static func poses(_ session: SessionSummary, scanSize: Int64, blobs: BlobStore) -> [Int: RigidTransform] {
        guard let file = session.files.first(where: { $0.name == ReconstructionRecord.fileName }),
            let url = blobs.blobURL(file.sha256), let data = try? Data(contentsOf: url),
            let record = try? ReconstructionRecord.decode(from: data), record.scan.bytes == scanSize
        else { return [:] }
        return record.keyframePoses
    }

    /// Every file under `folder` as `name/RELATIVE_PATH`; PNGs are stored, text is deflated.
    private static func add(_ folder: URL, as name: String, to archive: Archive) throws {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var files: [String] = []
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        for relative in files.sorted() {
            let method: CompressionMethod = relative.hasSuffix(".png") ? .none : .deflate
            try archive.addEntry(with: "\(name)/\(relative)", fileURL: folder.appendingPathComponent(relative), compressionMethod: method)
        }
    }

    private static func add(_ data: Data, as name: String, to archive: Archive) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

extension TUMArchive.LeftOut: Error, CustomStringConvertible {
    var description: String { "\(session): \(reason)" }
}

import Foundation
import Geometry
import Hummingbird
import Processing
import Recording
import ScanLibrary
import Upload

/// Sessions' recordings in the TUM RGB-D layout, one folder per session, written by the
/// command line's exporter (`headscan export --format tum`): `SITE/NAME-ID/rgb/*.png` (see `ArchivePath`),
/// `SITE/NAME-ID/depth/*.png`, `rgb.txt`, `depth.txt`, `associations.txt`, `intrinsics.json`, and
/// for processed sessions `groundtruth.txt` with the reconstruction's keyframe poses.
/// `sessions.json` lists the sessions and their values; `left-out.txt` names sessions whose
/// recording could not be exported, and why. `ResearchServer.archiveResponse` streams it.
enum TUMArchive {
    /// Why a session's recording is not in the archive.
    struct LeftOut: Sendable, Equatable, Codable {
        var session: String
        var reason: String
    }

    /// What exporting one session gave, as the isolated helper prints it.
    struct Result: Sendable, Codable {
        /// Damaged frames left out, when it was exported.
        var skipped: Int?
        /// Why it was not, otherwise.
        var reason: String?
    }

    /// Exports one session into `folder`, catching the reasons it cannot be.
    static func exportResult(_ session: SessionSummary, blobs: BlobStore, to folder: URL) -> Result {
        do {
            return Result(skipped: try export(session, blobs: blobs, to: folder))
        } catch let problem as LeftOut {
            return Result(reason: problem.reason)
        } catch {
            return Result(reason: "its recording could not be exported: \(error)")
        }
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

    /// Every file under `folder` as `name/RELATIVE_PATH`, in path order.
    static func add(_ folder: URL, as name: String, to zip: inout StreamingZip, _ out: inout any ResponseBodyWriter) async throws {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var files: [String] = []
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        for relative in files.sorted() {
            try await zip.add("\(name)/\(relative)", file: folder.appendingPathComponent(relative), to: &out)
        }
    }
}

extension TUMArchive.LeftOut: Error, CustomStringConvertible {
    var description: String { "\(session): \(reason)" }
}

import Foundation
import Upload
import ZIPFoundation

/// Zips sessions as `SITE/NAME-ID/FILE` (see `ArchivePath`), with a `sessions.json` listing
/// them and their values.
enum DatasetArchive {
    static func write(_ sessions: [SessionSummary], blobs: BlobStore, to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let index = try encoder.encode(SessionList(sessions: sessions))
        try archive.addEntry(with: "sessions.json", type: .file, uncompressedSize: Int64(index.count), compressionMethod: .deflate) { position, size in
            index.subdata(in: Int(position)..<Int(position) + size)
        }
        for session in sessions {
            for file in session.files {
                guard let blob = blobs.blobURL(file.sha256) else { continue }
                let method: CompressionMethod = file.size < 64 << 20 ? .deflate : .none
                try archive.addEntry(with: "\(ArchivePath.folder(session))/\(file.name)", fileURL: blob, compressionMethod: method)
            }
        }
    }
}

import Foundation
import Hummingbird
import NIOCore
import Upload

/// How sessions are downloaded: `?format=zip` (the default) or `?format=tum`.
public enum DownloadFormat: String, Sendable, CaseIterable {
    /// Every stored file as it was uploaded or processed, `SESSION/FILE`.
    case zip
    /// The recording in the TUM RGB-D layout, one folder per session (see `TUMArchive`).
    case tum

    /// The format a request asks for.
    static func of(_ request: Request) throws -> DownloadFormat {
        guard let text = request.uri.queryParameters.get("format"), !text.isEmpty else { return .zip }
        guard let format = DownloadFormat(rawValue: String(text)) else {
            throw APIError(.badRequest, "format must be \(allCases.map(\.rawValue).joined(separator: " or "))")
        }
        return format
    }

    /// The audit log's name for a download in this format.
    var auditAction: String { "download-\(rawValue)" }
}

/// Where a session's files go in an archive: `SITE/NAME-ID/`, so that two sites' or two
/// devices' sessions of the same name never share a folder; the site is made safe for a path.
enum ArchivePath {
    static func folder(_ session: SessionSummary) -> String {
        "\(component(session.site))/\(component(session.name))-\(component(session.id))"
    }

    /// Letters, digits, '_' and '-' kept, everything else '_' (dots too: no `..` anywhere);
    /// never empty.
    static func component(_ text: String) -> String {
        let safe = String(text.unicodeScalars.prefix(100).map { scalar -> Character in
            let keep = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "_-".unicodeScalars.contains(scalar)
            return keep ? Character(scalar) : "_"
        })
        return safe.isEmpty ? "_" : safe
    }
}

extension ResearchServer {
    /// Sessions as a zip in `format`, written to a temporary file and streamed, then deleted.
    /// Every session in it is written to the audit log.
    func archiveResponse(_ sessions: [SessionSummary], name: String, format: DownloadFormat, principal: Principal, address: String) async throws -> Response {
        let url = blobs.root.appendingPathComponent("tmp/\(UUID().uuidString).zip")
        let included: [SessionSummary]
        do {
            included = try await write(sessions, format: format, to: url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let error = error as? APIError { throw error }
            logger.error("cannot write a \(format.rawValue) archive: \(error)")
            throw APIError(.internalServerError, "the archive could not be written; try again or tell the administrator")
        }
        for session in included {
            try await store.audit(AuditEntry(actor: principal.auditName, action: format.auditAction, sessionID: session.id, detail: name, address: address))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        let body = ResponseBody(contentLength: size) { writer in
            defer { try? FileManager.default.removeItem(at: url) }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        }
        let file = format == .zip ? "\(name).zip" : "\(name)-tum.zip"
        return Response(
            status: .ok, headers: [.contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(file)\""], body: body)
    }

    /// Writes the archive off the server's threads; returns the sessions it holds.
    private func write(_ sessions: [SessionSummary], format: DownloadFormat, to url: URL) async throws -> [SessionSummary] {
        let blobs = self.blobs
        switch format {
        case .zip:
            try await Self.offload { try DatasetArchive.write(sessions, blobs: blobs, to: url) }
            return sessions
        case .tum:
            let scratch = blobs.root.appendingPathComponent("tmp/tum-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let outcome = try await tumOutcome(sessions, scratch: scratch, to: url)
            guard !outcome.exported.isEmpty else {
                let reasons = outcome.leftOut.prefix(3).map(\.description).joined(separator: "; ")
                throw APIError(
                    .unprocessableContent,
                    "no recording could be exported in the TUM layout (\(reasons)); download the sessions as zip instead")
            }
            return outcome.exported
        }
    }

    /// The TUM export, in a process of its own when the server has `isolation`: a recording
    /// that trips a fault fails this download, not the service.
    private func tumOutcome(_ sessions: [SessionSummary], scratch: URL, to url: URL) async throws -> TUMArchive.Outcome {
        let blobs = self.blobs
        guard let isolation else {
            return try await Self.offload { try TUMArchive.write(sessions, blobs: blobs, scratch: scratch, to: url) }
        }
        try BlobStore.makeFolder(scratch)
        let list = scratch.appendingPathComponent("sessions.json")
        try JSONEncoder().encode(SessionList(sessions: sessions)).write(to: list)
        do {
            let data = try await isolation.run([
                "tum-export", "--blobs", blobs.root.path, "--sessions", list.path, "--scratch", scratch.appendingPathComponent("work").path, "--output", url.path,
            ])
            return try JSONDecoder().decode(TUMArchive.Outcome.self, from: data)
        } catch let failure as Isolation.Failure {
            logger.error("a TUM export failed: \(failure)")
            throw APIError(.unprocessableContent, "the recordings could not be exported in the TUM layout; download the sessions as zip instead")
        }
    }

    /// Runs blocking file work on a dispatch queue, so that the server's threads keep answering.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

import Foundation
import Hummingbird
import NIOCore
import ScanLibrary
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
        let safe = String(
            text.unicodeScalars.prefix(100).map { scalar -> Character in
                let keep =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "_-".unicodeScalars.contains(scalar)
                return keep ? Character(scalar) : "_"
            })
        return safe.isEmpty ? "_" : safe
    }
}

extension ResearchServer {
    /// Sessions as a zip in `format`, streamed while it is built (no temporary file; the first
    /// bytes leave at once). Every session in it is written to the audit log.
    func archiveResponse(
        _ sessions: [SessionSummary], name: String, format: DownloadFormat, principal: Principal, address: String
    ) async throws -> Response {
        let body: ResponseBody
        switch format {
        case .zip:
            for session in sessions {
                try await store.audit(
                    AuditEntry(actor: principal.auditName, action: format.auditAction, sessionID: session.id, detail: name, address: address))
            }
            body = ResponseBody { writer in
                var zip = StreamingZip()
                try await self.writeFiles(sessions, to: &zip, &writer)
                try await zip.finish(&writer)
                try await writer.finish(nil)
            }
        case .tum:
            let withRecording = sessions.filter { $0.files.contains { $0.name == ScanSession.scanFileName } }
            guard !withRecording.isEmpty else {
                throw APIError(.unprocessableContent, "no session has a recording to export in the TUM layout; download the sessions as zip instead")
            }
            // Each export decodes a whole recording: one download takes a bounded number.
            let recorded = Array(withRecording.prefix(tumSessionLimit))
            let leftOut =
                sessions.filter { !withRecording.contains($0) }.map {
                    TUMArchive.LeftOut(session: $0.name, reason: "it has no recording (\(ScanSession.scanFileName))")
                }
                + withRecording.dropFirst(tumSessionLimit).map {
                    TUMArchive.LeftOut(
                        session: $0.name,
                        reason:
                            "one TUM download exports at most \(tumSessionLimit) sessions; narrow the filter (from, to, site) and download the rest")
                }
            body = ResponseBody { writer in
                var zip = StreamingZip()
                try await self.writeTUM(recorded, leftOut: leftOut, to: &zip, &writer, principal: principal, name: name, address: address)
                try await zip.finish(&writer)
                try await writer.finish(nil)
            }
        }
        let file = format == .zip ? "\(name).zip" : "\(name)-tum.zip"
        return Response(
            status: .ok, headers: [.contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(file)\""], body: body)
    }

    /// `sessions.json`, then every stored file as `SITE/NAME-ID/FILE`.
    private func writeFiles(_ sessions: [SessionSummary], to zip: inout StreamingZip, _ out: inout any ResponseBodyWriter) async throws {
        try await zip.add("sessions.json", data: try Self.listing(sessions), to: &out)
        for session in sessions {
            for file in session.files {
                guard let blob = blobs.blobURL(file.sha256), FileManager.default.fileExists(atPath: blob.path) else {
                    logger.error("the stored file \(file.sha256) is missing from the data folder")
                    continue
                }
                try await zip.add("\(ArchivePath.folder(session))/\(file.name)", file: blob, to: &out)
            }
        }
    }

    /// One session at a time: exported into a scratch folder (in a process of its own when the
    /// server has `isolation`), streamed, deleted; then `sessions.json` and `left-out.txt`.
    private func writeTUM(
        _ sessions: [SessionSummary], leftOut: [TUMArchive.LeftOut], to zip: inout StreamingZip, _ out: inout any ResponseBodyWriter,
        principal: Principal,
        name: String, address: String
    ) async throws {
        var leftOut = leftOut
        var exported: [SessionSummary] = []
        for session in sessions {
            let folder = blobs.root.appendingPathComponent("tmp/tum-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = await exportTUM(session, to: folder)
            if let reason = result.reason {
                leftOut.append(TUMArchive.LeftOut(session: session.name, reason: reason))
                continue
            }
            if let skipped = result.skipped, skipped > 0 {
                leftOut.append(TUMArchive.LeftOut(session: session.name, reason: "\(skipped) damaged frames left out"))
            }
            try await TUMArchive.add(folder, as: ArchivePath.folder(session), to: &zip, &out)
            exported.append(session)
            try await store.audit(
                AuditEntry(actor: principal.auditName, action: DownloadFormat.tum.auditAction, sessionID: session.id, detail: name, address: address))
        }
        try await zip.add("sessions.json", data: try Self.listing(exported), to: &out)
        if !leftOut.isEmpty {
            try await zip.add("left-out.txt", data: Data(leftOut.map { "\($0.session): \($0.reason)\n" }.joined().utf8), to: &out)
        }
    }

    /// Exports one session's recording into `folder`.
    private func exportTUM(_ session: SessionSummary, to folder: URL) async -> TUMArchive.Result {
        let blobs = self.blobs
        guard let isolation else {
            return (try? await Self.offload { TUMArchive.exportResult(session, blobs: blobs, to: folder) })
                ?? TUMArchive.Result(reason: "its recording could not be exported")
        }
        do {
            try BlobStore.makeFolder(folder)
            let list = folder.appendingPathComponent("session.json")
            try JSONEncoder().encode(session).write(to: list)
            let data = try await isolation.run([
                "tum-export", "--blobs", blobs.root.path, "--session", list.path, "--folder", folder.appendingPathComponent("out").path,
            ])
            try? FileManager.default.removeItem(at: list)
            let result = try JSONDecoder().decode(TUMArchive.Result.self, from: data)
            if result.reason == nil {
                // The helper wrote into out/; the archive takes the folder's content.
                let out = folder.appendingPathComponent("out")
                for item in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                    try FileManager.default.moveItem(at: out.appendingPathComponent(item), to: folder.appendingPathComponent(item))
                }
                try FileManager.default.removeItem(at: out)
            }
            return result
        } catch {
            logger.error("a TUM export of session \(session.id) failed: \(error)")
            return TUMArchive.Result(reason: "its recording could not be exported (the export stopped on it)")
        }
    }

    static func listing(_ sessions: [SessionSummary]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(SessionList(sessions: sessions))
    }

    /// Runs blocking work (file checks, waiting for a helper) on a thread of its own. Not on
    /// Dispatch's global queues: on Linux Swift's concurrency runtime runs its jobs there, so
    /// blocked work items would hold up every other request.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }
}

import Foundation
import Logging
import ScanLibrary
import Upload

/// The upload protocol: announce, send chunks with checksums, complete; the server verifies
/// every whole file before the session appears. Every check runs before anything is written.
public struct UploadService: Sendable {
    public let store: Store
    public let blobs: BlobStore
    public var logger = Logger(label: "headscan.uploads")
    public var limits = StorageLimits()
    /// Where uploaded files are checked: a helper process (always, when serving); nil checks
    /// them in this process (tests).
    public var isolation: Isolation? {
        didSet { inspectors = isolation.map { InspectorPool(isolation: $0) } }
    }
    /// The helpers that check uploads, kept between uploads (see `InspectorPool`).
    private(set) var inspectors: InspectorPool?
    /// One `complete` of an upload at a time in this process: the others wait and answer as the
    /// first finished (several processes still meet at the database's state).
    let completions = KeyedSerializer()

    public init(store: Store, blobs: BlobStore) {
        self.store = store
        self.blobs = blobs
    }

    /// Checks an announced upload; throws a 4xx error for anything malformed.
    static func validate(_ request: CreateUploadRequest) throws(APIError) -> SessionName {
        let name: SessionName
        do { name = try SessionName(parsing: request.sessionName) } catch {
            throw APIError(.badRequest, "the session name is not valid: \(error)")
        }
        guard name.rawValue == request.sessionName else { throw APIError(.badRequest, "the session name must be in composed Unicode form") }
        if let problem = ResearchFiles.problem(withSessionName: request.sessionName) {
            throw APIError(.unprocessableContent, "the session name is not pseudonymised: \(problem)")
        }
        guard (1024...UploadProtocol.maximumChunkSize).contains(request.chunkSize) else {
            throw APIError(.badRequest, "the chunk size must lie between 1 KiB and \(UploadProtocol.maximumChunkSize / 1_048_576) MiB")
        }
        guard (1...UploadProtocol.maximumFiles).contains(request.files.count) else {
            throw APIError(.badRequest, "a session has 1 to \(UploadProtocol.maximumFiles) files")
        }
        var seen = Set<String>()
        for file in request.files {
            guard UploadProtocol.isValidFileName(file.name) else {
                throw APIError(
                    .badRequest, "the file name \"\(file.name.prefix(100))\" is not allowed: use letters, digits, '.', '_' and '-', no folders")
            }
            guard seen.insert(file.name).inserted else { throw APIError(.badRequest, "the file \(file.name) is listed twice") }
            guard (0...UploadProtocol.maximumFileSize).contains(file.size) else {
                throw APIError(.contentTooLarge, "\(file.name) has a size the server does not accept (0 to \(UploadProtocol.maximumFileSize) bytes)")
            }
            guard UploadProtocol.isValidDigest(file.sha256) else {
                throw APIError(.badRequest, "the checksum of \(file.name) must be a SHA-256 in lower-case hex")
            }
        }
        try UploadInspector.checkManifest(request.files)
        guard seen.contains(ConsentRecord.fileName) else {
            throw APIError(
                .unprocessableContent,
                "the session has no consent record (\(ConsentRecord.fileName)); only sessions whose parents agreed to research use are accepted")
        }
        return name
    }

    /// Starts an upload, or returns the one this device has for the session.
    public func create(_ request: CreateUploadRequest, device: Device) async throws -> UploadStatus {
        _ = try Self.validate(request)
        try await checkLimits(request, device: device)
        guard var upload = try await store.uploads.insert(deviceID: device.id, request: request) else {
            throw APIError(.internalServerError, "the upload could not be stored; try again")
        }
        if upload.manifest != request.files || upload.chunkSize != request.chunkSize {
            guard upload.state == .open else {
                throw APIError(.conflict, "\(request.sessionName) was uploaded already with other files; it cannot be replaced")
            }
            try await store.uploads.replaceManifest(uploadID: upload.id, request: request)
            blobs.removeIncoming(upload.id)
            upload.manifest = request.files
            upload.chunkSize = request.chunkSize
        }
        return try await status(upload)
    }

    /// Refuses an upload past the device's limits (429, 413) or the disk's (503).
    func checkLimits(_ request: CreateUploadRequest, device: Device) async throws {
        if let existing = try await store.uploads.find(deviceID: device.id, sessionName: request.sessionName), existing.state == .complete { return }
        let (count, bytes) = try await store.uploads.unfinished(deviceID: device.id, except: request.sessionName)
        guard count < limits.openUploadsPerDevice else {
            var error = APIError(
                .tooManyRequests, "this device has \(count) unfinished uploads, the most allowed; finish them before starting another")
            error.headers[.retryAfter] = "60"
            throw error
        }
        let announced = request.files.reduce(Int64(0)) { $0 + $1.size }
        guard bytes + announced <= limits.announcedBytesPerDevice else {
            throw APIError(
                .contentTooLarge,
                "this device's unfinished uploads would hold more than \(limits.announcedBytesPerDevice >> 30) GiB; finish them first")
        }
        guard limits.fits(announced, in: blobs.root) else { throw StorageLimits.noSpace("this session") }
    }

    /// Deletes abandoned uploads, chunk folders of uploads that no longer exist and scratch files
    /// older than `scratchAge` seconds (a killed process's leftovers); returns what it removed.
    @discardableResult
    public func sweep(scratchAge: Double = 6 * 3600) async throws -> (uploads: Int, folders: Int, scratch: Int) {
        let abandoned = try await store.uploads.deleteAbandoned(before: Date().timeIntervalSince1970 - limits.abandonedAfter)
        for id in abandoned { blobs.removeIncoming(id) }
        let open = try await store.uploads.openIDs()
        let fm = FileManager.default
        var folders = 0, scratch = 0
        for name in (try? fm.contentsOfDirectory(atPath: blobs.root.appendingPathComponent("incoming").path)) ?? [] where !open.contains(name) {
            try? fm.removeItem(at: blobs.root.appendingPathComponent("incoming/\(name)"))
            folders += 1
        }
        let tmp = blobs.root.appendingPathComponent("tmp")
        for name in (try? fm.contentsOfDirectory(atPath: tmp.path)) ?? [] {
            let url = tmp.appendingPathComponent(name)
            let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            if Date().timeIntervalSince(modified) > scratchAge {
                try? fm.removeItem(at: url)
                scratch += 1
            }
        }
        if !abandoned.isEmpty || folders + scratch > 0 {
            logger.info("clean-up: \(abandoned.count) abandoned uploads, \(folders) chunk folders, \(scratch) scratch files removed")
        }
        return (abandoned.count, folders, scratch)
    }

    public func status(_ upload: UploadRecord) async throws -> UploadStatus {
        let chunks = upload.state == .open ? try await store.uploads.chunks(uploadID: upload.id) : [:]
        return UploadStatus(
            uploadID: upload.id, state: upload.state, chunkSize: upload.chunkSize,
            received: chunks.mapValues { $0.keys.sorted() }, sessionID: upload.sessionID)
    }

    /// The device's own upload, or 404.
    public func ownUpload(_ id: String, device: Device) async throws -> UploadRecord {
        guard id.utf8.count == 36, let upload = try await store.uploads.find(id: id), upload.deviceID == device.id else { throw APIError.notFound }
        return upload
    }

    /// Stores one chunk after every check passed.
    public func putChunk(
        uploadID: String, fileName: String, index indexText: String, checksum: String?, device: Device,
        body: () async throws -> Data
    ) async throws -> UploadStatus {
        let upload = try await ownUpload(uploadID, device: device)
        guard upload.state == .open else { throw APIError(.conflict, "the upload is complete already; nothing more is needed") }
        guard let fileIndex = upload.manifest.firstIndex(where: { $0.name == fileName }) else {
            throw APIError(.notFound, "the upload has no file named \"\(fileName.prefix(100))\"")
        }
        let file = upload.manifest[fileIndex]
        let count = file.chunkCount(chunkSize: upload.chunkSize)
        guard let index = Int(indexText), String(index) == indexText, (0..<count).contains(index) else {
            throw APIError(.badRequest, "the chunk index must be a whole number from 0 to \(count - 1)")
        }
        guard let checksum, UploadProtocol.isValidDigest(checksum) else {
            throw APIError(.badRequest, "send the chunk's SHA-256 in lower-case hex in the \(UploadProtocol.chunkChecksumHeader) header")
        }
        let received = try await store.uploads.chunks(uploadID: upload.id)[fileName] ?? [:]
        guard index == 0 || received[index - 1] != nil else {
            throw APIError(.conflict, "chunks go in order: send chunk \(Self.firstMissing(received, count: count)) of \(fileName) next")
        }
        let data = try await body()
        let expected = file.chunkLength(index, chunkSize: upload.chunkSize)
        guard data.count == expected else {
            throw APIError(.badRequest, "chunk \(index) of \(fileName) must have \(expected) bytes, it has \(data.count)")
        }
        let digest = Digest.sha256(data)
        guard digest == checksum else {
            throw APIError(
                .unprocessableContent, "chunk \(index) of \(fileName) does not match its checksum; it was damaged on the way, send it again")
        }
        if let stored = received[index] {
            guard stored == digest else { throw APIError(.conflict, "chunk \(index) of \(fileName) was received with other bytes before") }
            return try await status(upload)
        }
        guard limits.fits(Int64(data.count), in: blobs.root) else { throw StorageLimits.noSpace("this chunk") }
        let pending: URL
        do {
            pending = try blobs.writePendingChunk(data, uploadID: upload.id)
        } catch {
            logger.error("cannot write a chunk of upload \(upload.id): \(HelperError.summary(error))")
            throw StorageLimits.noSpace("this chunk")
        }
        do {
            try await store.uploads.recordChunk(uploadID: upload.id, file: fileName, index: index, sha256: digest, size: data.count)
        } catch {
            try? FileManager.default.removeItem(at: pending)
            // The upload went while its chunk arrived (the device was revoked, the upload
            // abandoned): the chunk goes too.
            if try await store.uploads.find(id: upload.id) == nil {
                blobs.removeIncoming(upload.id)
                throw APIError(
                    .gone, "the upload was withdrawn while this chunk arrived (a revoked device or an abandoned upload); nothing of it is kept")
            }
            throw error
        }
        // Two bodies of one chunk at once: the one the database took keeps its place.
        guard try await store.uploads.chunkDigest(uploadID: upload.id, file: fileName, index: index) == digest else {
            try? FileManager.default.removeItem(at: pending)
            throw APIError(
                .conflict,
                "chunk \(index) of \(fileName) was received with other bytes at the same time; send the file's chunks again from the status")
        }
        do {
            try blobs.commitChunk(pending, uploadID: upload.id, fileIndex: fileIndex, chunkIndex: index)
        } catch {
            try? FileManager.default.removeItem(at: pending)
            try await store.uploads.forgetChunks(uploadID: upload.id, file: fileName)
            throw StorageLimits.noSpace("this chunk")
        }
        return try await status(upload)
    }

    static func firstMissing(_ received: [Int: String], count: Int) -> Int {
        (0..<count).first { received[$0] == nil } ?? count
    }

    /// Verifies and checks every file and makes the upload a session; a finished upload answers
    /// as before. A refused upload is forgotten entirely: its chunks, its files and its rows.
    public func complete(uploadID: String, device: Device) async throws -> UploadStatus {
        let upload = try await ownUpload(uploadID, device: device)
        return try await completions.serialized(upload.id) { try await completeAlone(uploadID: uploadID, device: device) }
    }

    private func completeAlone(uploadID: String, device: Device) async throws -> UploadStatus {
        let upload = try await ownUpload(uploadID, device: device)
        guard upload.state == .open else { return try await status(upload) }
        let chunks = try await store.uploads.chunks(uploadID: upload.id)
        for file in upload.manifest {
            let count = file.chunkCount(chunkSize: upload.chunkSize)
            let have = chunks[file.name] ?? [:]
            if have.count < count {
                throw APIError(
                    .conflict, "\(file.name) is missing chunks from \(Self.firstMissing(have, count: count)) on; send them, then complete again")
            }
        }
        let total = upload.manifest.reduce(Int64(0)) { $0 + $1.size }
        guard limits.fits(total, in: blobs.root) else { throw StorageLimits.noSpace("this session") }
        let staging: URL
        do {
            staging = try blobs.stagingFolder()
        } catch {
            throw StorageLimits.noSpace("this session")
        }
        defer { try? FileManager.default.removeItem(at: staging) }
        let staged: [URL]
        do {
            staged = try await stage(upload, in: staging)
        } catch let error as APIError {
            // A concurrent `complete` finished the upload and removed the chunks first.
            if let stored = try await store.uploads.find(id: upload.id), stored.state == .complete { return try await status(stored) }
            throw error
        }
        let manifest = upload.manifest
        let values: SessionValues
        let kept = manifest.indices.map { UploadInspector.output($0, in: staging) }
        do {
            values = try await inspect(manifest.map(\.name), in: staging, session: upload.sessionName)
        } catch let error as APIError {
            try await forget(upload)
            logger.notice("upload \(upload.id) from device \(device.id) refused: \(error.status.code)")
            throw error
        }
        var files: [SessionFile] = []
        for (file, url) in zip(manifest, kept) {
            do {
                files.append(try blobs.keep(url, name: file.name))
            } catch {
                throw StorageLimits.noSpace("this session")
            }
        }
        let names = Set(manifest.map(\.name))
        let needsProcessing = names.contains(AnnotationsRecord.fileName) || names.contains(MeasurementRecord.fileName)
        let recordedAt = (try? SessionName(parsing: upload.sessionName))?.timestamp ?? ""
        _ = try await store.uploads.complete(
            upload, device: device, files: files, values: values, recordedAt: recordedAt, needsProcessing: needsProcessing)
        blobs.removeIncoming(upload.id)
        guard let finished = try await store.uploads.find(id: upload.id) else { throw APIError.notFound }
        logger.info("upload \(upload.id) from device \(device.id) verified")
        return try await status(finished)
    }

    /// Joins every file's chunks in `staging` and checks its digest; returns the files in
    /// manifest order. A file whose bytes do not match is forgotten so the client sends it again.
    private func stage(_ upload: UploadRecord, in staging: URL) async throws -> [URL] {
        var urls: [URL] = []
        for (fileIndex, file) in upload.manifest.enumerated() {
            let count = file.chunkCount(chunkSize: upload.chunkSize)
            let url = staging.appendingPathComponent("\(fileIndex)")
            let result: (sha256: String, size: Int64)
            do {
                result = try blobs.assemble(uploadID: upload.id, fileIndex: fileIndex, chunkCount: count, into: url)
            } catch {
                guard blobs.hasChunks(uploadID: upload.id, fileIndex: fileIndex, count: count) else {
                    try await store.uploads.forgetChunks(uploadID: upload.id, file: file.name)
                    throw APIError(.conflict, "the chunks of \(file.name) could not be read back; send the file again")
                }
                // The chunks are there: writing failed (a full disk). Keep them for the retry.
                throw StorageLimits.noSpace("this session")
            }
            guard result.sha256 == file.sha256, result.size == file.size else {
                try await store.uploads.forgetChunks(uploadID: upload.id, file: file.name)
                blobs.removeChunks(uploadID: upload.id, fileIndex: fileIndex, count: count)
                throw APIError(.unprocessableContent, "\(file.name) does not match its checksum as a whole; send it again")
            }
            urls.append(url)
        }
        return urls
    }

    /// Deletes every trace of a refused upload: chunks on disk, its chunk rows and its row.
    func forget(_ upload: UploadRecord) async throws {
        blobs.removeIncoming(upload.id)
        try await store.uploads.delete(id: upload.id)
    }

    /// Checks the staged files (`0`, `1`, … in `staging`) and writes what the service keeps of
    /// each beside them: in one helper process when the service has one, so that a decoder's
    /// fault, memory or time fails this upload with a 422 and the service answers on.
    func inspect(_ names: [String], in staging: URL, session: String) async throws -> SessionValues {
        guard let inspectors else {
            let name = try? SessionName(parsing: session)
            return try await ResearchServer.offload { try UploadInspector.inspect(names, in: staging, session: name) }
        }
        let answer: Data
        do {
            answer = try await inspectors.run(.init(folder: staging.path, names: names, session: session))
        } catch let failure as Isolation.Failure {
            logger.warning("the check of an upload stopped: \(failure.description)")
            let why = failure.timedOut ? "its check took longer than the service allows" : "a file in it stopped the service's reader"
            throw APIError(
                .unprocessableContent, "the session is not accepted: \(why); nothing of this upload is kept. Upload the session as HeadScan saved it")
        }
        guard let outcome = try? JSONDecoder().decode(InspectionOutcome.self, from: answer) else {
            throw APIError(.unprocessableContent, "the session is not accepted: the service's check gave no answer; nothing of this upload is kept")
        }
        if let refusal = outcome.refusal { throw refusal.error }
        return outcome.values
    }

    static func values(_ record: MeasurementRecord) -> SessionValues {
        var values = SessionValues()
        guard UploadInspector.implausible(record.measurement) == nil else { return values }
        values.measured = true
        values.cvai = record.measurement.cvai
        values.ci = record.measurement.ci
        values.circumferenceMM = record.measurement.circumferenceMM
        return values
    }
}

/// Runs work one at a time per key; callers with the same key wait their turn.
actor KeyedSerializer {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func serialized<T: Sendable>(_ key: String, _ work: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await work()
            release(key)
            return result
        } catch {
            release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        guard busy.contains(key) else {
            busy.insert(key)
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            busy.remove(key)
        }
    }
}

import Foundation
import Logging
import Processing
import ScanLibrary
import Upload

/// Takes processing jobs from the database and runs the session processor on them: several
/// workers, in one process or many, share the queue; a job whose worker stops renewing its
/// lease (killed, or hung) is taken again by another.
public struct ProcessingWorker: Sendable {
    public let store: Store
    public let blobs: BlobStore
    public let name: String
    /// Seconds a claim lasts without renewal; renewed every third of it while working.
    public var lease: Double = 60
    public var maximumAttempts = 3
    public var pollInterval: Duration = .seconds(2)
    /// How sessions are processed (the command line's `process` defaults).
    public var processing = ProcessingOptions()
    /// When set, each job's processing runs in a process of its own (with the default options),
    /// so that a session that trips a fault fails its job and not the worker.
    public var isolation: Isolation?
    public var logger = Logger(label: "headscan.worker")

    public init(store: Store, blobs: BlobStore, name: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))") {
        self.store = store
        self.blobs = blobs
        self.name = name
    }

    /// Works until the task is cancelled.
    public func run() async {
        logger.info("worker \(name) started")
        while !Task.isCancelled {
            do {
                if try await runOnce() == nil { try await Task.sleep(for: pollInterval) }
            } catch is CancellationError {
                break
            } catch {
                logger.error("worker \(name): \(error)")
                try? await Task.sleep(for: pollInterval)
            }
        }
    }

    /// Claims and runs one job; nil when none waits, else the error text (nil inside when it
    /// succeeded).
    @discardableResult
    public func runOnce() async throws -> Result<Int64, JobFailure>? {
        guard let job = try await store.claimJob(worker: name, lease: lease, maximumAttempts: maximumAttempts) else { return nil }
        logger.info("worker \(name) took job \(job.id) (session \(job.sessionID), attempt \(job.attempts))")
        let lost = Locked(false)
        let renewal = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(max(0.05, lease / 3)))
                if Task.isCancelled { break }
                if (try? await store.renewLease(jobID: job.id, worker: name, lease: lease)) == false {
                    lost.withLock { $0 = true }
                    break
                }
            }
        }
        defer { renewal.cancel() }
        do {
            try await process(job, isCancelled: { lost.withLock { $0 } })
            try await store.finishJob(jobID: job.id, worker: name, error: nil, maximumAttempts: maximumAttempts)
            return .success(job.id)
        } catch {
            let text = String(describing: error)
            logger.warning("job \(job.id) failed: \(text)")
            try await store.finishJob(jobID: job.id, worker: name, error: text, maximumAttempts: maximumAttempts)
            return .failure(JobFailure(message: text))
        }
    }

    /// Copies the session into a scratch library, processes it there and stores what changed.
    func process(_ job: Job, isCancelled: @escaping @Sendable () -> Bool) async throws {
        guard let (summary, _) = try await store.session(id: job.sessionID) else { throw JobFailure(message: "the session is gone") }
        let scratch = blobs.root.appendingPathComponent("tmp/work-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent(summary.name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in summary.files {
            guard let blob = blobs.blobURL(file.sha256), UploadProtocol.isValidFileName(file.name) else { continue }
            try FileManager.default.copyItem(at: blob, to: folder.appendingPathComponent(file.name))
        }
        if let isolation {
            do {
                _ = try await isolation.run(["process-folder", folder.path])
            } catch let failure as Isolation.Failure {
                throw JobFailure(message: failure.description)
            }
        } else {
            let options = processing
            try await Task.detached { try IsolatedWork.processFolder(folder, options: options, isCancelled: isCancelled) }.value
        }
        if isCancelled() { throw JobFailure(message: "the lease was lost; another worker has the job") }
        let before = Dictionary(uniqueKeysWithValues: summary.files.map { ($0.name, $0.sha256) })
        var changed: [SessionFile] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where UploadProtocol.isValidFileName(name) && name != PatientRecord.fileName {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let stored = try blobs.store(fileAt: url)
            if before[name] != stored.sha256 { changed.append(stored) }
        }
        var values = SessionValues()
        if let data = try? Data(contentsOf: folder.appendingPathComponent(MeasurementRecord.fileName)),
            let record = try? MeasurementRecord.decode(from: data)
        {
            values = UploadService.values(record)
        }
        try await store.updateProcessed(sessionID: job.sessionID, files: changed, values: values)
    }
}

/// The work on uploaded data that `Isolation` runs in a process of its own (and tests and
/// servers without isolation run in-process).
public enum IsolatedWork {
    /// Processes the session folder `folder` in place: with picks the whole pipeline, else the
    /// service's own (pseudonymous) report of the device's measurement.
    public static func processFolder(_ folder: URL, options: ProcessingOptions = ProcessingOptions(), isCancelled: @escaping @Sendable () -> Bool = { false }) throws {
        let library = ScanLibrary(root: folder.deletingLastPathComponent())
        let session = try library.session(named: folder.lastPathComponent)
        try restorePatientShape(library: library, session: session)
        let hasPicks = (try? library.annotations(in: session))?.isComplete ?? false
        if hasPicks {
            _ = try SessionProcessor(library: library, options: options).process(session, isCancelled: isCancelled)
        } else {
            _ = try ClinicalReportWriter(library: library, session: session).write()
        }
    }

    /// The session processor reads `patient.json` as the device writes it; the service holds the
    /// pseudonymised one (no entry time, no birth date). The scratch copy gets the device's shape
    /// with the week's start as the entry time; it is never stored back.
    static func restorePatientShape(library: ScanLibrary, session: ScanSession) throws {
        guard let data = try? Data(contentsOf: session.patientURL) else { return }
        let research: ResearchPatientRecord
        do {
            research = try ResearchPatientRecord.decode(from: data)
        } catch {
            throw JobFailure(message: "patient.json is not in the pseudonymised shape: \(error)")
        }
        let week = ResearchCalendar.weekStart(session.name.date(in: TimeZone(identifier: "UTC") ?? .current) ?? Date())
        try FileManager.default.removeItem(at: session.patientURL)
        try library.save(PatientRecord(patientID: research.patientID, calliper: research.calliper, enteredAt: week), in: session)
    }

    /// Exports the session in `sessionFile` (a `SessionSummary`) with the files under
    /// `blobsRoot` into `folder` in the TUM layout; returns the result as JSON.
    public static func tumExport(blobsRoot: URL, sessionFile: URL, folder: URL) throws -> Data {
        let session = try JSONDecoder().decode(SessionSummary.self, from: Data(contentsOf: sessionFile))
        return try JSONEncoder().encode(TUMArchive.exportResult(session, blobs: try BlobStore(root: blobsRoot), to: folder))
    }
}

/// Why a job failed.
public struct JobFailure: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { message }
}

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
    /// Seconds a job's helper may run before it is stopped (a whole reconstruction takes about
    /// a minute on two cores).
    public static let timeLimit = 1800.0

    public init(
        store: Store, blobs: BlobStore,
        name: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))"
    ) {
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
        guard let job = try await store.jobs.claim(worker: name, lease: lease, maximumAttempts: maximumAttempts) else { return nil }
        logger.info("worker \(name) took job \(job.id) (session \(job.sessionID), attempt \(job.attempts))")
        let lost = Locked(false)
        let renewal = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(max(0.05, lease / 3)))
                if Task.isCancelled { break }
                if (try? await store.jobs.renewLease(jobID: job.id, worker: name, lease: lease)) == false {
                    lost.withLock { $0 = true }
                    break
                }
            }
        }
        defer { renewal.cancel() }
        do {
            try await process(job, isCancelled: { lost.withLock { $0 } })
            try await store.jobs.finish(jobID: job.id, worker: name, error: nil, maximumAttempts: maximumAttempts)
            return .success(job.id)
        } catch {
            let text = (error as? JobFailure)?.message ?? "processing stopped: \(IsolatedWork.summary(error))"
            logger.warning("job \(job.id) failed: \(text)")
            try await store.jobs.finish(jobID: job.id, worker: name, error: text, maximumAttempts: maximumAttempts)
            return .failure(JobFailure(message: text))
        }
    }

    /// Copies the session into a scratch library, processes it there and stores what changed.
    func process(_ job: Job, isCancelled: @escaping @Sendable () -> Bool) async throws {
        guard let (summary, _) = try await store.sessions.find(id: job.sessionID) else { throw JobFailure(message: "the session is gone") }
        let scratch = blobs.root.appendingPathComponent("tmp/work-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent(summary.name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in summary.files {
            guard let blob = blobs.blobURL(file.sha256), UploadProtocol.isValidFileName(file.name) else { continue }
            try FileManager.default.copyItem(at: blob, to: folder.appendingPathComponent(file.name))
        }
        var values = SessionValues()
        if let isolation {
            do {
                let answer = try await isolation.run(["process-folder", folder.path])
                guard let decoded = try? JSONDecoder().decode(SessionValues.self, from: answer) else {
                    throw JobFailure(message: "the processing helper gave no values")
                }
                values = decoded
            } catch let failure as Isolation.Failure {
                throw JobFailure(message: failure.description)
            }
        } else {
            let options = processing
            values = try await Task.detached { try IsolatedWork.processFolder(folder, options: options, isCancelled: isCancelled) }.value
        }
        if isCancelled() { throw JobFailure(message: "the lease was lost; another worker has the job") }
        let before = Dictionary(uniqueKeysWithValues: summary.files.map { ($0.name, $0.sha256) })
        var changed: [SessionFile] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where UploadProtocol.isValidFileName(name) && name != PatientRecord.fileName {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let stored = try blobs.store(fileAt: url)
            if before[name] != stored.sha256 { changed.append(stored) }
        }
        try await store.sessions.updateProcessed(sessionID: job.sessionID, files: changed, values: values)
    }
}

/// The work on uploaded data that `Isolation` runs in a process of its own (and tests and
/// servers without isolation run in-process).
public enum IsolatedWork {
    /// Processes the session folder `folder` in place: with picks the whole pipeline, else the
    /// service's own (pseudonymous) report of the device's measurement. Every time it writes is
    /// the start of the session's week (the name's date); a document that would still name a
    /// finer time fails the job rather than be kept. Returns the values for the listing.
    public static func processFolder(
        _ folder: URL, options: ProcessingOptions = ProcessingOptions(), isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> SessionValues {
        let library = ScanLibrary(root: folder.deletingLastPathComponent())
        let session = try library.session(named: folder.lastPathComponent)
        let week = ResearchCalendar.weekStart(session.name.date(in: TimeZone(identifier: "UTC") ?? .current) ?? Date(timeIntervalSince1970: 0))
        var options = options
        options.clock = { week }
        // Research keeps a scan whose cap stood off the skin, marked with its warning, rather
        // than lose its values; the clinic's tools refuse it.
        options.measuresOverLiftedCap = true
        // The copy's file time is the copy's moment; the fingerprint keeps the week instead.
        try? FileManager.default.setAttributes([.modificationDate: week], ofItemAtPath: session.scanURL.path)
        try restorePatientShape(library: library, session: session, week: week)
        let hasPicks = (try? library.annotations(in: session))?.isComplete ?? false
        if hasPicks {
            _ = try SessionProcessor(library: library, options: options).process(session, isCancelled: isCancelled)
        } else {
            _ = try ClinicalReportWriter(library: library, session: session).write(now: week)
        }
        try checkTimes(in: session.url)
        guard let data = try? Data(contentsOf: session.url.appendingPathComponent(MeasurementRecord.fileName)),
            let record = try? MeasurementRecord.decode(from: data)
        else { return SessionValues() }
        return UploadService.values(record)
    }

    /// Fails when a document processing wrote names a time finer than a week's start.
    static func checkTimes(in folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") && name != PatientRecord.fileName {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let value = try? JSONDecoder().decode(JSONValue.self, from: data)
            else { continue }
            if ResearchCalendar.preciseDate(in: value) != nil {
                throw JobFailure(message: "processing wrote \(name) with a time finer than the week; it is not kept")
            }
        }
        if let record = try? ReconstructionRecord.decode(from: Data(contentsOf: folder.appendingPathComponent(ReconstructionRecord.fileName))),
            !ResearchCalendar.isWeekStart(Date(timeIntervalSince1970: record.scan.modified))
        {
            throw JobFailure(message: "processing wrote the recording's file time; it is not kept")
        }
    }

    /// The kind of an error without its text (which may quote a session's files).
    public static func summary(_ error: any Error) -> String { HelperError.summary(error) }

    /// The session processor reads `patient.json` as the device writes it; the service holds the
    /// pseudonymised one (no entry time, no birth date). The scratch copy gets the device's shape
    /// with the week's start as the entry time; it is never stored back.
    static func restorePatientShape(library: ScanLibrary, session: ScanSession, week: Date) throws {
        guard let data = try? Data(contentsOf: session.patientURL) else { return }
        let research: ResearchPatientRecord
        do {
            research = try ResearchPatientRecord.decode(from: data)
        } catch {
            throw JobFailure(message: "patient.json is not in the pseudonymised shape: \(error)")
        }
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

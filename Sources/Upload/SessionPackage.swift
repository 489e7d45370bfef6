import Foundation
import Recording
import ScanLibrary

/// A session folder made ready for upload: consent checked, only the files research may have,
/// the patient ID pseudonymised, the birth date turned into an age, every date moved to the
/// start of its week and free text left out; every file hashed.
public struct SessionPackage: Sendable {
    /// Where one file's bytes come from.
    public enum Source: Sendable, Hashable {
        case file(URL)
        case data(Data)
        /// A file whose first bytes are replaced (a scan with its header rewritten).
        case patchedFile(URL, head: Data)
    }

    /// One file to send.
    public struct Item: Sendable, Hashable {
        public var manifest: ManifestFile
        public var source: Source

        public init(manifest: ManifestFile, source: Source) {
            self.manifest = manifest
            self.source = source
        }
    }

    /// The pseudonymised session name.
    public var sessionName: String
    public var items: [Item]
    /// Files of the folder that stay on the device (reports with the patient ID, notes).
    public var leftOnDevice: [String]

    /// Prepares the session folder at `folder`; refuses sessions without a consent record that
    /// allows research use.
    public init(folder: URL, pseudonymiser: Pseudonymiser) throws(UploadError) {
        let folder = folder.standardizedFileURL
        let library = ScanLibrary(root: folder.deletingLastPathComponent())
        let session: ScanSession
        do {
            session = try library.session(named: folder.lastPathComponent)
        } catch {
            throw .notASession("\(folder.path) is not a scan session folder: \(error)")
        }
        let consent: ConsentRecord?
        do {
            consent = try library.consent(in: session)
        } catch {
            throw .unreadable("cannot read the consent record of \(session.name): \(error)")
        }
        guard let consent else { throw .noConsent(session.name.rawValue) }
        guard consent.researchUse else { throw .consentRefused(session.name.rawValue) }
        sessionName = try Self.researchName(session.name, library: folder.deletingLastPathComponent(), pseudonymiser: pseudonymiser)

        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw .unreadable("cannot list \(folder.path): \(error.localizedDescription)")
        }
        var items: [Item] = []
        var left: [String] = []
        for file in names where !file.hasPrefix(".") {
            let url = folder.appendingPathComponent(file, isDirectory: false)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard let kind = ResearchFiles.accepted[file]?.kind else {
                left.append(file)
                continue
            }
            items.append(try Self.item(file, kind: kind, url: url, session: session, pseudonymiser: pseudonymiser))
        }
        self.items = items
        leftOnDevice = left
    }

    static func item(
        _ file: String, kind: ResearchFiles.Kind, url: URL, session: ScanSession, pseudonymiser: Pseudonymiser
    ) throws(UploadError) -> Item {
        switch kind {
        case .document:
            let data =
                file == PatientRecord.fileName
                ? try Self.researchPatient(url, session: session, pseudonymiser: pseudonymiser)
                : try Self.researchDocument(url, name: file)
            return Item(manifest: ManifestFile(name: file, size: Int64(data.count), sha256: Digest.sha256(data)), source: .data(data))
        case .scan:
            let head: Data
            do {
                head = try ScanHeaderRewrite.header(of: url, Self.researchHeader)
            } catch {
                throw .unreadable("cannot read the recording's header in \(url.path): \(error)")
            }
            let source = Source.patchedFile(url, head: head)
            return Item(manifest: try manifest(file, source: source), source: source)
        case .mesh:
            return Item(manifest: try manifest(file, source: .file(url)), source: .file(url))
        }
    }

    private static func manifest(_ name: String, source: Source) throws(UploadError) -> ManifestFile {
        do {
            let (digest, size) = try Digest.sha256(source)
            return ManifestFile(name: name, size: size, sha256: digest)
        } catch {
            throw .unreadable("cannot read \(name): \(error)")
        }
    }

    /// The recording's header without the clock time, free-text notes or long labels.
    static func researchHeader(_ header: inout ScanHeader) {
        header.createdAt = ResearchCalendar.weekStart(header.createdAt)
        header.metadata = header.metadata.filter {
            ResearchFiles.scanMetadataKeys.contains($0.key) && $0.value.count <= ResearchFiles.maximumLabelLength
        }
        header.device = String(header.device.prefix(ResearchFiles.maximumLabelLength))
        header.appVersion = String(header.appVersion.prefix(ResearchFiles.maximumLabelLength))
    }

    /// `ID_DATE_Scan` → `PSEUDONYM_MONDAY-T00-MM-SS_Scan`, the time replaced by the scan's place
    /// among the patient's scans that week in this library.
    static func researchName(_ name: SessionName, library: URL, pseudonymiser: Pseudonymiser) throws(UploadError) -> String {
        let id: String
        if let patient = name.patientID {
            id = String(pseudonymiser.pseudonym(patientID: patient))
        } else if name.isTemporary {
            id = SessionName.temporaryID
        } else {
            // A renamed session may carry a name in its ID part: never send it.
            throw .notASession(
                "\(name) is not named by a patient ID, and its name may identify the patient; enter the patient data (a numeric patient ID) first")
        }
        let week = ResearchCalendar.dayOfTimestamp(name.timestamp).map(ResearchCalendar.weekStart)
        func key(_ n: SessionName) -> String { n.isTemporary ? SessionName.temporaryID : n.id }
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? [])
            .compactMap { try? SessionName(parsing: $0) }
            .filter { key($0) == key(name) && ResearchCalendar.dayOfTimestamp($0.timestamp).map(ResearchCalendar.weekStart) == week }
            .sorted()
        let sequence = (siblings.firstIndex(of: name) ?? siblings.count) + 1
        guard let timestamp = ResearchCalendar.sessionTimestamp(name.timestamp, sequence: sequence),
            let research = try? SessionName(id: id, timestamp: timestamp)
        else {
            throw .notASession("cannot name \(name) for research: more than 3599 scans of one patient in one week, or a broken date")
        }
        return research.rawValue
    }

    /// `patient.json` as research may have it (see `ResearchPatientRecord`).
    static func researchPatient(_ url: URL, session: ScanSession, pseudonymiser: Pseudonymiser) throws(UploadError) -> Data {
        let patient: PatientRecord
        do {
            patient = try PatientRecord.decode(from: try Data(contentsOf: url))
        } catch {
            throw .unreadable("cannot read \(url.path): \(error); enter the patient data again")
        }
        let visit = ResearchCalendar.dayOfTimestamp(session.name.timestamp) ?? patient.enteredAt
        let age = patient.birthDate.flatMap { ResearchCalendar.age(birth: $0, visit: visit) }
        let record = ResearchPatientRecord(pseudonym: pseudonymiser.pseudonym(patientID: patient.patientID), calliper: patient.calliper, age: age)
        do {
            try record.validate()
            return try record.encodedAlone()
        } catch {
            throw .unreadable("cannot pseudonymise \(url.path): \(error)")
        }
    }

    /// Any other document: its own fields only, dates moved to the start of their week, typed
    /// text left out.
    static func researchDocument(_ url: URL, name: String) throws(UploadError) -> Data {
        do {
            var value = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
            guard case .object(var fields) = value else { throw UploadError.unreadable("\(url.path) is not a JSON object") }
            for field in ResearchFiles.keptFields[name] ?? [] { fields.removeValue(forKey: field) }
            if name == "reconstruction.json", case .object(var scan)? = fields["scan"], case .number(let seconds)? = scan["modified"] {
                // The recording's file time is a clock time too.
                scan["modified"] = .number(ResearchCalendar.weekStart(Date(timeIntervalSince1970: seconds)).timeIntervalSince1970)
                fields["scan"] = .object(scan)
            }
            value = ResearchCalendar.coarsened(.object(fields))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return try encoder.encode(value)
        } catch let error as UploadError {
            throw error
        } catch {
            throw .unreadable("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// The manifest the server is told about.
    public var manifest: [ManifestFile] { items.map(\.manifest) }

    /// Bytes `offset..<offset+length` of `item`.
    public static func read(_ item: Item, offset: Int64, length: Int) throws(UploadError) -> Data {
        do {
            return try read(item.source, offset: offset, length: length)
        } catch {
            throw .unreadable("cannot read \(item.manifest.name): \(error.localizedDescription)")
        }
    }

    static func read(_ source: Source, offset: Int64, length: Int) throws -> Data {
        switch source {
        case .data(let data):
            let start = Int(clamping: max(0, offset))
            guard start < data.count else { return Data() }
            return data.subdata(in: start..<min(data.count, start + length))
        case .file(let url):
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(max(0, offset)))
            return try handle.read(upToCount: length) ?? Data()
        case .patchedFile(let url, let head):
            var bytes = Data()
            if offset < Int64(head.count) {
                bytes = try read(.data(head), offset: offset, length: length)
            }
            if bytes.count < length {
                bytes += try read(.file(url), offset: offset + Int64(bytes.count), length: length - bytes.count)
            }
            return bytes
        }
    }
}

extension Digest {
    /// The SHA-256 and size of a package file's bytes, read in pieces.
    static func sha256(_ source: SessionPackage.Source) throws -> (digest: String, size: Int64) {
        switch source {
        case .data(let data): return (sha256(data), Int64(data.count))
        case .file(let url): return try sha256(fileAt: url)
        case .patchedFile:
            var hasher = StreamingHasher()
            var offset: Int64 = 0
            while true {
                let piece = try SessionPackage.read(source, offset: offset, length: 1 << 20)
                if piece.isEmpty { break }
                hasher.update(piece)
                offset += Int64(piece.count)
            }
            return (hasher.finalize(), offset)
        }
    }
}

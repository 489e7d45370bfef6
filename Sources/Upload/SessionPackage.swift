import Foundation
import ScanLibrary

/// A session folder made ready for upload: consent checked, patient ID pseudonymised, every
/// file hashed.
public struct SessionPackage: Sendable {
    /// Where one file's bytes come from.
    public enum Source: Sendable, Hashable {
        case file(URL)
        case data(Data)
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

    /// Files the device keeps: the reports print the patient ID in clear text, so the service
    /// writes its own from the pseudonymised documents.
    public static let keptOnDevice: Set<String> = ["report.html", "report.pdf"]
    /// The field in the uploaded `patient.json` that says how the ID was pseudonymised.
    public static let pseudonymField = "pseudonymisation"
    /// Its value.
    public static let pseudonymMethod = "hmac-sha256-v1"

    /// The pseudonymised session name.
    public var sessionName: String
    public var items: [Item]

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

        var name = session.name
        if let id = name.patientID {
            do {
                name = try SessionName(id: String(pseudonymiser.pseudonym(patientID: id)), timestamp: name.timestamp)
            } catch {
                throw .notASession("cannot pseudonymise \(session.name): \(error)")
            }
        } else if !name.isTemporary {
            // A renamed session may carry a name in its ID part: never send it.
            throw .notASession(
                "\(session.name) is not named by a patient ID, and its name may identify the patient; enter the patient data (a numeric patient ID) first")
        }
        sessionName = name.rawValue

        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw .unreadable("cannot list \(folder.path): \(error.localizedDescription)")
        }
        var items: [Item] = []
        for file in names where !file.hasPrefix(".") && !Self.keptOnDevice.contains(file) {
            let url = folder.appendingPathComponent(file, isDirectory: false)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard UploadProtocol.isValidFileName(file) else { throw .badFileName(file) }
            if file == PatientRecord.fileName {
                let data = try Self.pseudonymisedPatient(url, pseudonymiser: pseudonymiser)
                items.append(Item(manifest: ManifestFile(name: file, size: Int64(data.count), sha256: Digest.sha256(data)), source: .data(data)))
            } else {
                do {
                    let (digest, size) = try Digest.sha256(fileAt: url)
                    items.append(Item(manifest: ManifestFile(name: file, size: size, sha256: digest), source: .file(url)))
                } catch {
                    throw .unreadable("cannot read \(url.path): \(error.localizedDescription)")
                }
            }
        }
        guard items.count <= UploadProtocol.maximumFiles else {
            throw .unreadable("\(folder.path) holds \(items.count) files, more than the \(UploadProtocol.maximumFiles) a session may have; move the extra files out")
        }
        self.items = items
    }

    /// `patient.json` with the ID replaced by its pseudonym and the birth date replaced by the
    /// age in days at the visit.
    static func pseudonymisedPatient(_ url: URL, pseudonymiser: Pseudonymiser) throws(UploadError) -> Data {
        do {
            let data = try Data(contentsOf: url)
            guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let id = (object["patientID"] as? NSNumber)?.intValue, id > 0
            else {
                throw UploadError.unreadable("\(url.path) holds no patient ID; enter the patient data again")
            }
            object["patientID"] = pseudonymiser.pseudonym(patientID: id)
            if let birth = (object["birthDate"] as? String).flatMap(Self.date), let entered = (object["enteredAt"] as? String).flatMap(Self.date) {
                object["ageAtVisitDays"] = Int((entered.timeIntervalSince(birth) / 86_400).rounded(.down))
            }
            object.removeValue(forKey: "birthDate")
            object[pseudonymField] = pseudonymMethod
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        } catch let error as UploadError {
            throw error
        } catch {
            throw .unreadable("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    private static func date(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }

    /// The manifest the server is told about.
    public var manifest: [ManifestFile] { items.map(\.manifest) }

    /// Bytes `offset..<offset+length` of `item`.
    public static func read(_ item: Item, offset: Int64, length: Int) throws(UploadError) -> Data {
        switch item.source {
        case .data(let data):
            let start = Int(offset)
            return data.subdata(in: start..<min(data.count, start + length))
        case .file(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(offset))
                return try handle.read(upToCount: length) ?? Data()
            } catch {
                throw .unreadable("cannot read \(url.path): \(error.localizedDescription)")
            }
        }
    }
}

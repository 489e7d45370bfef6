import Foundation

/// Knee measurements on disk: one folder per patient, one JSON file per measurement,
/// `ROOT/<patient>/knee-<side>_<yyyy-MM-ddTHH-mm-ss>.json`. Results stay on the device.
public struct RangeOfMotionStore: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Saves a measurement under the patient's folder, created if needed; a second one in
    /// the same second gets "-2", "-3" … rather than replacing the first.
    @discardableResult
    public func save(_ analysis: RangeOfMotionAnalysis, patientID: String, date: Date, source: String) throws(RangeOfMotionError) -> StoredRecord {
        try Self.validate(patientID: patientID)
        let folder = root.appendingPathComponent(patientID, isDirectory: true)
        let record = RangeOfMotionRecord(patientID: patientID, date: date, source: source, analysis: analysis)
        let stem = "knee-\(analysis.side.rawValue)_\(Self.stamp(date))"
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var url = folder.appendingPathComponent(stem + ".json")
            var n = 2
            while FileManager.default.fileExists(atPath: url.path) {
                url = folder.appendingPathComponent("\(stem)-\(n).json")
                n += 1
            }
            try Self.encoder.encode(record).write(to: url, options: .withoutOverwriting)
            return StoredRecord(record: record, url: url)
        } catch {
            throw .cannotSave(path: folder.path, reason: error.localizedDescription)
        }
    }

    /// The patient's measurements, oldest first; unreadable files are listed as problems
    /// while the others still read.
    public func history(patientID: String) throws(RangeOfMotionError) -> RangeOfMotionHistory {
        try Self.validate(patientID: patientID)
        let folder = root.appendingPathComponent(patientID, isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return RangeOfMotionHistory(records: [], problems: [])
        }
        var records: [StoredRecord] = [], problems: [RangeOfMotionError] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            do throws(RangeOfMotionError) {
                records.append(StoredRecord(record: try Self.read(url), url: url))
            } catch {
                problems.append(error)
            }
        }
        records.sort { $0.record.date != $1.record.date ? $0.record.date < $1.record.date : $0.url.path < $1.url.path }
        return RangeOfMotionHistory(records: records, problems: problems)
    }

    /// Patients with a folder in the store, sorted.
    public func patients() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { (try? Self.validate(patientID: $0)) != nil }.sorted()
    }

    /// One stored measurement.
    public static func read(_ url: URL) throws(RangeOfMotionError) -> RangeOfMotionRecord {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadableRecord(path: url.path, reason: error.localizedDescription) }
        struct Version: Decodable { var version: Int }
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
            throw .unreadableRecord(path: url.path, reason: "not a measurement: no \"version\"")
        }
        guard version.version <= RangeOfMotionRecord.currentVersion else {
            throw .newerRecord(path: url.path, version: version.version, supported: RangeOfMotionRecord.currentVersion)
        }
        do { return try decoder.decode(RangeOfMotionRecord.self, from: data) } catch {
            throw .unreadableRecord(path: url.path, reason: "\(error)")
        }
    }

    /// A patient ID names a folder: letters, digits, '-' and '_', at most 64.
    public static func validate(patientID: String) throws(RangeOfMotionError) {
        let allowed = patientID.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
        }
        guard !patientID.isEmpty, patientID.count <= 64, allowed else { throw .invalidPatientID(patientID) }
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss"
        return formatter.string(from: date)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

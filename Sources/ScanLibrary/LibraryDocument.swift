import Foundation

/// A small JSON document kept in a session folder.
///
/// On disk it is one object: `"version"`, the document's own fields, and any field a newer
/// or other tool added, which is kept unchanged when the document is saved again.
public protocol LibraryDocument: Codable, Sendable, Equatable {
    /// The file name inside the session folder.
    static var fileName: String { get }
    /// The version this code writes and the newest it reads.
    static var currentVersion: Int { get }
    /// The document's own top-level field names (everything else is kept as unknown).
    static var fieldNames: Set<String> { get }
    /// Throws when a value is out of range.
    func validate() throws(ScanLibraryError)
}

extension LibraryDocument {
    public func validate() throws(ScanLibraryError) {}
}

/// Encoding and decoding of library documents with their version and unknown fields.
enum DocumentCoding {
    static let versionKey = "version"

    /// The document's bytes: its fields over `unknown`, with the current version.
    static func encode<D: LibraryDocument>(_ document: D, keeping unknown: [String: JSONValue]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard case .object(let own) = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(document)) else {
            throw EncodingError.invalidValue(document, .init(codingPath: [], debugDescription: "a document must be an object"))
        }
        var merged = unknown.filter { !D.fieldNames.contains($0.key) && $0.key != versionKey }
        merged.merge(own) { _, new in new }
        merged[versionKey] = .number(Double(D.currentVersion))
        return try encoder.encode(JSONValue.object(merged))
    }

    /// The document and its unknown fields, or why the bytes are not one.
    static func decode<D: LibraryDocument>(_ type: D.Type, from data: Data) throws(DocumentProblem) -> (D, [String: JSONValue]) {
        let object: [String: JSONValue]
        do {
            guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: data) else {
                throw DocumentProblem.unreadable("not a JSON object")
            }
            object = o
        } catch let problem as DocumentProblem {
            throw problem
        } catch {
            throw .unreadable("not valid JSON")
        }
        guard case .number(let v) = object[versionKey], v == v.rounded(), v >= 1, v < 1_000_000 else {
            throw .unreadable("\"version\" is missing or not a positive whole number")
        }
        guard Int(v) <= D.currentVersion else { throw .newer(Int(v)) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let document = try decoder.decode(D.self, from: data)
            return (document, object.filter { !D.fieldNames.contains($0.key) && $0.key != versionKey })
        } catch let DecodingError.keyNotFound(key, _) {
            throw .unreadable("\"\(key.stringValue)\" is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .unreadable("\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .unreadable("\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is null")
        } catch let DecodingError.dataCorrupted(context) {
            throw .unreadable(context.debugDescription)
        } catch {
            throw .unreadable("\(error)")
        }
    }
}

/// Why stored bytes are not a readable document.
enum DocumentProblem: Error {
    case unreadable(String)
    case newer(Int)
}

import Foundation

extension LibraryDocument {
    /// The document in `data`, checked against its own limits; unknown fields are ignored.
    public static func decode(from data: Data) throws(ScanLibraryError) -> Self {
        let document: Self
        do {
            document = try DocumentCoding.decode(Self.self, from: data).0
        } catch {
            switch error {
            case .newer(let version):
                throw .newerDocument(session: "", file: fileName, version: version, supported: currentVersion)
            case .unreadable(let reason):
                throw .invalidDocument(file: fileName, reason: reason)
            }
        }
        try document.validate()
        return document
    }

    /// The document's bytes on its own: its fields and the current version, nothing else.
    public func encodedAlone() throws(ScanLibraryError) -> Data {
        do {
            return try DocumentCoding.encode(self, keeping: [:])
        } catch {
            throw .invalidDocument(file: Self.fileName, reason: "\(error)")
        }
    }
}

extension JSONValue {
    /// Whether two values are the same JSON, numbers equal to a relative 1e-6 (single-precision
    /// fields print fewer digits than they were parsed from).
    public func sameShape(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return abs(a - b) <= 1e-6 * max(1, abs(a), abs(b))
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameShape(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.sameShape(as: $0) } ?? false }
        default: return false
        }
    }

    /// The first path (`a.b[2]`) where `other` has something this value lacks or differs.
    public func firstDifference(from other: JSONValue, path: String = "") -> String? {
        switch (self, other) {
        case (.object(let a), .object(let b)):
            for key in b.keys.sorted() {
                let inner = path.isEmpty ? key : "\(path).\(key)"
                guard let mine = a[key] else { return inner }
                if let difference = mine.firstDifference(from: b[key] ?? .null, path: inner) { return difference }
            }
            return a.keys.first { b[$0] == nil }.map { path.isEmpty ? $0 : "\(path).\($0)" }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return path }
            for (index, pair) in zip(a, b).enumerated() {
                if let difference = pair.0.firstDifference(from: pair.1, path: "\(path)[\(index)]") { return difference }
            }
            return nil
        default:
            return sameShape(as: other) ? nil : (path.isEmpty ? "the document" : path)
        }
    }
}

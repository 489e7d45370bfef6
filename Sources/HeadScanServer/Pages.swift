import Foundation
import Hummingbird
import Mustache
import ScanLibrary
import Upload

/// The researchers' pages, rendered on the server from Mustache templates.
struct Pages: Sendable {
    let library: MustacheLibrary

    init() throws {
        MustacheContentTypes.register(ScalarHTML(), named: ScalarHTML.name)
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all {
            // Every template, partials too (they start over with the library's escaping).
            try library.register("{{% CONTENT_TYPE: \(ScalarHTML.name)}}" + text, named: name)
        }
        self.library = library
    }

    /// A page with the request's form token in its forms (set as a cookie when new).
    func render(_ name: String, _ values: [String: Any], request: Request, secure: Bool) -> Response {
        let (token, isNew) = FormToken.of(request)
        var values = values
        values["csrf"] = token
        let html = library.render(values, withTemplate: name) ?? "template \(name) is missing"
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        if isNew { response.headers[.setCookie] = FormToken.cookie(token, secure: secure) }
        return response
    }
}

/// HTML escaping per Unicode scalar: a quote followed by a combining accent is one Swift
/// `Character` that escaping per character would let through unescaped.
struct ScalarHTML: MustacheContentType {
    static let name = "HTML_SCALARS"

    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension ResearchServer {
    var threeAvailable: Bool { FileManager.default.fileExists(atPath: threeDirectory + "/build/three.min.js") }

    /// The first view of the mesh, from the landmarks in the session's `measurement.json`.
    func meshViewDirection(_ session: SessionSummary) -> MeshViewDirection? {
        guard let file = session.files.first(where: { $0.name == MeasurementRecord.fileName }), file.size < 1 << 20,
            let url = blobs.blobURL(file.sha256), let data = try? Data(contentsOf: url)
        else { return nil }
        return MeshViewDirection(measurement: data)
    }

    static var toLogin: Response { Response(status: .seeOther, headers: [.location: "/login"]) }

    static func row(_ session: SessionSummary) -> [String: Any] {
        func format(_ value: Double?, _ digits: Int) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "–" }
        return [
            "id": session.id, "name": session.name, "site": session.site, "device": session.device,
            "recordedAt": recorded(session.recordedAt), "uploadedAt": uploaded(session.uploadedAt),
            "measured": session.measured, "cvai": format(session.cvai, 1), "ci": format(session.ci, 1),
            "circumference": format(session.circumferenceMM, 0), "rating": session.rating.map { String($0) } ?? "–",
            "processing": session.processing, "fileCount": session.files.count,
        ]
    }

    /// `2026-04-27T00-00-02` (a research session name's date) as `week of 2026-04-27, scan 2`.
    static func recorded(_ text: String) -> String {
        guard ResearchCalendar.isResearchTimestamp(text), let sequence = ResearchCalendar.sequence(of: text) else { return text }
        return "week of \(text.prefix(10)), scan \(sequence)"
    }

    /// An ISO 8601 time as its day, `2026-04-27`.
    static func uploaded(_ text: String) -> String {
        String(text.prefix(10))
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.1f kB", Double(bytes) / 1024)
    }

    /// `application/x-www-form-urlencoded` fields.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            func decode(_ s: Substring) -> String { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            fields[decode(parts[0])] = decode(parts[1])
        }
        return fields
    }
}

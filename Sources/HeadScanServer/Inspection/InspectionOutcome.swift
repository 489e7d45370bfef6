import Foundation
import HTTPTypes
import ScanLibrary

/// What the `inspect-upload` helper answers on standard output: the refusal, or the values the
/// listing shows (the kept bytes are in the output file).
public struct InspectionOutcome: Codable, Sendable {
    public struct Refusal: Codable, Sendable {
        public var status: Int
        public var message: String

        var error: APIError {
            let code = (400...499).contains(status) ? status : 422
            return APIError(HTTPResponse.Status(code: code), message)
        }
    }

    public var refusal: Refusal?
    public var values = SessionValues()
}

extension IsolatedWork {
    /// Checks the uploaded files `names`, staged in `folder` by their place in the list (`0`,
    /// `1`, …), writes the service's encoding of each beside it (`0.kept`, …) and answers with
    /// the outcome as JSON: the first refusal, or the listing's values (a refusal is an answer,
    /// not a failure).
    public static func inspect(names: [String], folder: URL, session: String? = nil) -> Data {
        var outcome = InspectionOutcome()
        do {
            let name = try session.map { text throws(APIError) -> SessionName in
                guard let name = try? SessionName(parsing: text) else { throw APIError(.badRequest, "the session name is not valid") }
                return name
            }
            outcome.values = try UploadInspector.inspect(names, in: folder, session: name)
        } catch {
            outcome.refusal = .init(status: Int(error.status.code), message: error.message)
        }
        return (try? JSONEncoder().encode(outcome)) ?? Data(#"{"refusal":{"status":422,"message":"the check failed"}}"#.utf8)
    }
}

extension IsolatedWork {
    /// The pooled helper's loop (`inspect-upload --serve`): one request line in (an
    /// `InspectorPool.Request`), one answer line out, until its input closes.
    public static func serveInspections() {
        while let line = readLine(strippingNewline: true) {
            guard let request = try? JSONDecoder().decode(InspectorPool.Request.self, from: Data(line.utf8)) else {
                // Not the service's words: no answer can name the request, so none is given.
                FileHandle.standardError.write(Data("inspect-upload: a request it cannot read\n".utf8))
                exit(2)
            }
            let answer = inspect(names: request.names, folder: URL(fileURLWithPath: request.folder, isDirectory: true), session: request.session)
            Isolation.answer(Data("\(request.id) ".utf8) + answer + Data([0x0A]))
        }
    }
}

extension UploadInspector {
    static func input(_ index: Int, in folder: URL) -> URL { folder.appendingPathComponent("\(index)") }
    static func output(_ index: Int, in folder: URL) -> URL { folder.appendingPathComponent("\(index).kept") }

    /// Every staged file checked in order; the first refusal ends it and removes what was kept.
    static func inspect(_ names: [String], in folder: URL, session: SessionName? = nil) throws(APIError) -> SessionValues {
        var values = SessionValues()
        do {
            for (index, name) in names.enumerated() {
                values = values.merging(try inspect(name, at: input(index, in: folder), writingTo: output(index, in: folder), session: session))
            }
        } catch {
            for index in names.indices { try? FileManager.default.removeItem(at: output(index, in: folder)) }
            throw error
        }
        return values
    }
}

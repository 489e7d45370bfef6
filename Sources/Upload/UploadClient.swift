import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends sessions to the research service: announces the files, sends only the chunks the
/// server lacks (so an interrupted upload resumes where it stopped), then asks the server to
/// verify every file; retries when the network or the server fails on the way.
public struct UploadClient: Sendable {
    /// Progress of one upload.
    public struct Progress: Sendable, Equatable {
        public var sentBytes: Int64
        public var totalBytes: Int64
    }

    public let server: URL
    private let token: String
    private let session: URLSession
    public var chunkSize: Int
    /// Attempts per request before giving up.
    public var attempts: Int
    /// Wait before the first retry; doubled each time.
    public var retryDelay: Duration

    public init(
        server: URL, token: String, session: URLSession = .shared, chunkSize: Int = UploadProtocol.defaultChunkSize, attempts: Int = 8,
        retryDelay: Duration = .milliseconds(250)
    ) {
        self.server = server
        self.token = token
        self.session = session
        self.chunkSize = chunkSize
        self.attempts = attempts
        self.retryDelay = retryDelay
    }

    /// Uploads `package` and returns the server's session ID once the server has verified every
    /// file.
    public func upload(_ package: SessionPackage, progress: @Sendable (Progress) -> Void = { _ in }) async throws(UploadError) -> String {
        let request = CreateUploadRequest(sessionName: package.sessionName, chunkSize: chunkSize, files: package.manifest)
        let total = package.items.reduce(Int64(0)) { $0 + $1.manifest.size }
        var status: UploadStatus = try await send("POST", "api/uploads", json: request)
        if status.state == .complete, let id = status.sessionID {
            progress(Progress(sentBytes: total, totalBytes: total))
            return id
        }
        let chunkSize = status.chunkSize
        var sent: Int64 = 0
        for item in package.items {
            let received = Set(status.received[item.manifest.name] ?? [])
            for index in 0..<item.manifest.chunkCount(chunkSize: chunkSize) {
                let length = item.manifest.chunkLength(index, chunkSize: chunkSize)
                if !received.contains(index) {
                    let bytes = try SessionPackage.read(item, offset: Int64(index) * Int64(chunkSize), length: length)
                    guard bytes.count == length else {
                        throw .unreadable("\(item.manifest.name) changed while it was uploaded; start the upload again")
                    }
                    let _: EmptyAnswer = try await send(
                        "PUT", "api/uploads/\(status.uploadID)/files/\(item.manifest.name)/chunks/\(index)", body: bytes,
                        headers: [UploadProtocol.chunkChecksumHeader: Digest.sha256(bytes)])
                }
                sent += Int64(length)
                progress(Progress(sentBytes: sent, totalBytes: total))
            }
        }
        status = try await send("POST", "api/uploads/\(status.uploadID)/complete", body: Data())
        guard status.state == .complete, let id = status.sessionID else {
            throw .verificationFailed("the server did not confirm the session; run the upload again to resume it")
        }
        return id
    }

    /// The sessions this device uploaded.
    public func sessions() async throws(UploadError) -> [SessionSummary] {
        let list: SessionList = try await send("GET", "api/sessions", body: nil)
        return list.sessions
    }

    private struct EmptyAnswer: Decodable {}

    private func send<Body: Encodable, Answer: Decodable>(_ method: String, _ path: String, json: Body) async throws(UploadError) -> Answer {
        let data: Data
        do { data = try JSONEncoder().encode(json) } catch { throw .unreadable("cannot encode the request: \(error)") }
        return try await send(method, path, body: data, headers: ["Content-Type": "application/json"])
    }

    /// One request, retried on network errors and server failures (5xx); 4xx answers are final.
    private func send<Answer: Decodable>(
        _ method: String, _ path: String, body: Data?, headers: [String: String] = [:]
    ) async throws(UploadError) -> Answer {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        for (field, value) in headers { request.setValue(value, forHTTPHeaderField: field) }
        request.timeoutInterval = 120
        var delay = retryDelay
        var lastProblem = ""
        for attempt in 1...max(1, attempts) {
            do {
                let (data, response) = try await Self.perform(session, request, body: body)
                let status = response.statusCode
                if (200..<300).contains(status) {
                    if Answer.self == EmptyAnswer.self { return EmptyAnswer() as! Answer }
                    do { return try JSONDecoder().decode(Answer.self, from: data) } catch {
                        throw UploadError.verificationFailed(
                            "the server's answer could not be read (\(error)); is \(server) a HeadScan research server?")
                    }
                }
                let message = (try? JSONDecoder().decode(APIErrorBody.self, from: data))?.error ?? String(decoding: data.prefix(300), as: UTF8.self)
                if status < 500 { throw UploadError.rejected(status: status, message: message) }
                lastProblem = "HTTP \(status): \(message)"
            } catch let error as UploadError {
                throw error
            } catch {
                lastProblem = error.localizedDescription
            }
            if attempt < attempts {
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(10))
            }
        }
        throw .network(
            "cannot reach \(server) (\(lastProblem)); check the address and the network, then run the upload again: it resumes where it stopped")
    }

    private static func perform(_ session: URLSession, _ request: URLRequest, body: Data?) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let completion: @Sendable (Data?, URLResponse?, Error?) -> Void = { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            let task: URLSessionTask
            if let body {
                task = session.uploadTask(with: request, from: body, completionHandler: completion)
            } else {
                task = session.dataTask(with: request, completionHandler: completion)
            }
            task.resume()
        }
    }
}

import Foundation

/// The wire format of the research service, shared by the client and the server so that both
/// sides agree on every field.
public enum UploadProtocol {
    /// Bytes per chunk the client sends; the last chunk of a file may be shorter.
    public static let defaultChunkSize = 1 << 20
    /// Largest chunk the server accepts.
    public static let maximumChunkSize = 8 << 20
    /// Largest file the server accepts.
    public static let maximumFileSize: Int64 = 4 << 30
    /// Most files in one session.
    public static let maximumFiles = 64
    /// The header that carries a chunk's SHA-256 (lower-case hex).
    public static let chunkChecksumHeader = "X-Chunk-SHA256"

    /// Whether `name` may be a file name in an upload: one plain file name, no folders, no
    /// hidden files, nothing a file system or shell treats specially.
    public static func isValidFileName(_ name: String) -> Bool {
        guard (1...100).contains(name.utf8.count), !name.contains(".."), let first = name.unicodeScalars.first,
            first != "." && first != "-"
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "-"
        }
    }

    /// Whether `text` is a SHA-256 in lower-case hex.
    public static func isValidDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ("0"..."9").contains(Unicode.Scalar($0)) || ("a"..."f").contains(Unicode.Scalar($0)) }
    }
}

/// One file of a session as announced before its bytes are sent.
public struct ManifestFile: Codable, Sendable, Hashable {
    public var name: String
    public var size: Int64
    /// SHA-256 of the whole file, lower-case hex.
    public var sha256: String

    public init(name: String, size: Int64, sha256: String) {
        self.name = name
        self.size = size
        self.sha256 = sha256
    }

    /// How many chunks of `chunkSize` bytes the file takes (at least one, for empty files).
    public func chunkCount(chunkSize: Int) -> Int {
        max(1, Int((size + Int64(chunkSize) - 1) / Int64(chunkSize)))
    }

    /// The byte count of chunk `index`.
    public func chunkLength(_ index: Int, chunkSize: Int) -> Int {
        let start = Int64(index) * Int64(chunkSize)
        return Int(max(0, min(Int64(chunkSize), size - start)))
    }
}

/// `POST /api/uploads`: announces a session and its files.
public struct CreateUploadRequest: Codable, Sendable, Hashable {
    /// The (pseudonymised) session folder name, `ID_yyyy-MM-ddTHH-mm-ss_Scan`.
    public var sessionName: String
    public var chunkSize: Int
    public var files: [ManifestFile]

    public init(sessionName: String, chunkSize: Int, files: [ManifestFile]) {
        self.sessionName = sessionName
        self.chunkSize = chunkSize
        self.files = files
    }
}

/// The server's view of an upload: what it holds so far, so that a client can resume.
public struct UploadStatus: Codable, Sendable, Hashable {
    public enum State: String, Codable, Sendable {
        case open, complete
    }

    public var uploadID: String
    public var state: State
    public var chunkSize: Int
    /// Chunk indices received so far, per file name (missing names: none yet).
    public var received: [String: [Int]]
    /// The session's ID once the upload is complete and verified.
    public var sessionID: String?

    public init(uploadID: String, state: State, chunkSize: Int, received: [String: [Int]], sessionID: String?) {
        self.uploadID = uploadID
        self.state = state
        self.chunkSize = chunkSize
        self.received = received
        self.sessionID = sessionID
    }
}

/// One stored file of a session.
public struct SessionFile: Codable, Sendable, Hashable {
    public var name: String
    public var size: Int64
    public var sha256: String

    public init(name: String, size: Int64, sha256: String) {
        self.name = name
        self.size = size
        self.sha256 = sha256
    }
}

/// One session as the listing API returns it.
public struct SessionSummary: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var site: String
    public var device: String
    /// The recording's week and place in it from the session name, `yyyy-MM-ddT00-MM-SS`: the
    /// Monday of the week, then the patient's scan number that week as minutes and seconds.
    public var recordedAt: String
    /// The Monday (00:00 UTC) of the week the upload was verified in, ISO 8601.
    public var uploadedAt: String
    public var measured: Bool
    public var cvai: Double?
    public var ci: Double?
    public var circumferenceMM: Double?
    /// The operator's scan quality rating (1–5), when given.
    public var rating: Int?
    /// `none`, `queued`, `running`, `done` or `failed`.
    public var processing: String
    public var files: [SessionFile]

    public init(
        id: String, name: String, site: String, device: String, recordedAt: String, uploadedAt: String, measured: Bool, cvai: Double?,
        ci: Double?, circumferenceMM: Double?, rating: Int?, processing: String, files: [SessionFile]
    ) {
        self.id = id
        self.name = name
        self.site = site
        self.device = device
        self.recordedAt = recordedAt
        self.uploadedAt = uploadedAt
        self.measured = measured
        self.cvai = cvai
        self.ci = ci
        self.circumferenceMM = circumferenceMM
        self.rating = rating
        self.processing = processing
        self.files = files
    }
}

/// `GET /api/sessions`.
public struct SessionList: Codable, Sendable, Hashable {
    public var sessions: [SessionSummary]
    public init(sessions: [SessionSummary]) { self.sessions = sessions }
}

/// The body of every error answer.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var error: String
    public init(error: String) { self.error = error }
}

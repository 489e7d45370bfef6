import ArgumentParser
import Foundation
import Upload

/// `headscan upload`: sends sessions to the research data service.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload scan sessions to the research data service.",
        discussion: """
            Only sessions whose consent record says yes (`headscan consent SESSION_DIR --research \
            yes`) are sent. The patient ID is replaced on this computer by a pseudonym, a keyed \
            hash with the site's key (HMAC-SHA256), in the folder name and in patient.json. Nothing \
            that leaves gives a day: the birth date becomes the age in whole weeks (months after \
            the first year), every date becomes the Monday of its week, and the time of day in the \
            folder name becomes the scan's number that week. The reports, typed notes and any file \
            research does not take stay here. Every device of a site must use the same key file so \
            that a patient's visits stay linked: the first upload creates one when the file does \
            not exist yet.

            The device token comes from --token-file, else $HEADSCAN_UPLOAD_TOKEN, else --token \
            (which other users of the computer can see in the process list).

            The upload is sent in chunks with checksums and resumes where it stopped when run \
            again. The command exits with 0 only when the server has verified every file.

            Example:
              headscan upload Scans/12_2026-05-01T10-30-00_Scan --server https://research.example.org --token-file ~/.config/headscan/token
            """)

    @Argument(help: "Session folders to upload.", completion: .directory)
    var sessionDirs: [String]

    @Option(help: "The service's address, e.g. https://research.example.org.")
    var server: String

    @Option(help: "A file holding this device's upload token (from `headscan-server device add`).")
    var tokenFile: String?

    @Option(help: "This device's upload token; prefer --token-file or $HEADSCAN_UPLOAD_TOKEN, which the process list does not show.")
    var token: String?

    @Option(help: "The site key file (64 hex digits); created when missing. Default: $HEADSCAN_SITE_KEY or ~/.config/headscan/site-key.")
    var siteKey: String?

    func run() async throws {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server must be an http:// or https:// address")
        }
        if scheme == "http", !["127.0.0.1", "localhost", "::1"].contains(url.host ?? "") {
            FileHandle.standardError.write(Data("warning: \(server) is not encrypted; use https:// outside a test setup\n".utf8))
        }
        guard !sessionDirs.isEmpty else { throw ValidationError("give at least one session folder") }
        let pseudonymiser = try Pseudonymiser(siteKeyFile: try keyFile())
        let client = UploadClient(server: url, token: try uploadToken())
        var failures = 0
        for dir in sessionDirs {
            do {
                let package = try SessionPackage(folder: URL(fileURLWithPath: dir, isDirectory: true), pseudonymiser: pseudonymiser)
                let total = package.manifest.reduce(Int64(0)) { $0 + $1.size }
                let id = try await client.upload(package)
                print("\(dir): verified by the server as \(package.sessionName) (\(package.items.count) files, \(total) bytes, session \(id))")
                if !package.leftOnDevice.isEmpty { print("  kept on this computer: \(package.leftOnDevice.joined(separator: ", "))") }
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("error: \(dir): \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The token from the file, the environment or the option, in that order.
    func uploadToken() throws -> String {
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw ValidationError("cannot read the token file \(tokenFile)")
            }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
                throw ValidationError("the token file \(tokenFile) must hold the token alone")
            }
            return token
        }
        if let token = ProcessInfo.processInfo.environment["HEADSCAN_UPLOAD_TOKEN"], !token.isEmpty { return token }
        if let token, !token.isEmpty { return token }
        throw ValidationError("give the device token with --token-file FILE or $HEADSCAN_UPLOAD_TOKEN (or --token)")
    }

    /// The site key file, created with a new random key when it does not exist.
    func keyFile() throws -> URL {
        let path =
            siteKey ?? ProcessInfo.processInfo.environment["HEADSCAN_SITE_KEY"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/headscan/site-key").path
        let url = URL(fileURLWithPath: path)
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            FileManager.default.createFile(
                atPath: url.path, contents: Data((Pseudonymiser.newSiteKeyHex() + "\n").utf8), attributes: [.posixPermissions: 0o600])
            FileHandle.standardError.write(
                Data(
                    "note: created a new site key in \(url.path); copy it to the site's other devices so that their pseudonyms match, and keep it secret\n"
                        .utf8))
        }
        return url
    }
}

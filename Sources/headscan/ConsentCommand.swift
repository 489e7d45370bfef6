import ArgumentParser
import Foundation
import ScanLibrary

/// `headscan consent`: records the parent's decision on research use in a session.
struct ConsentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Record whether the parent agrees that a scan may be used for research.",
        discussion: """
            Writes consent.json into the session folder. Scans stay on the device (or in this \
            folder) until someone exports them; only sessions whose consent says yes are ever \
            uploaded for research. Recording "no" later withdraws an earlier "yes" for future \
            uploads.

            Examples:
              headscan consent Scans/12_2026-05-01T10-30-00_Scan --research yes
              headscan consent Scans/12_2026-05-01T10-30-00_Scan --research no
            """)

    /// The parent's answer.
    enum Answer: String, ExpressibleByArgument, CaseIterable {
        case yes, no
    }

    @Argument(help: "The session folder.", completion: .directory)
    var sessionDir: String

    @Option(help: "The parent's decision: \(Answer.allCases.map(\.rawValue).joined(separator: " or ")).")
    var research: Answer

    func run() throws {
        let folder = try SessionFolder(sessionDir)
        try folder.library.saveConsent(
            ConsentRecord(researchUse: research == .yes, decidedAt: Date(), recordedBy: "headscan command line"), in: folder.session)
        print("Recorded: research use \(research == .yes ? "allowed" : "not allowed") for \(folder.session.name.rawValue)")
    }
}

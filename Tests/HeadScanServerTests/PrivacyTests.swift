import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import ScanLibrary
import Testing
import Upload

@testable import HeadScanServer

/// What a modified client sends that would identify a patient is refused before anything is
/// stored, every byte of it is deleted, and none of it reaches the log.
@Suite struct PrivacyTests {
    /// One way a modified client breaks the pseudonymised shape.
    struct Variant: Sendable, CustomTestStringConvertible {
        var label: String
        var sessionName: String?
        var replace: [String: Data] = [:]
        var add: [String: Data] = [:]
        var drop: Set<String> = []
        var testDescription: String { label }
    }

    static let rawPatient = Data(
        """
        {"version": 1, "patientID": 12, "name": "Anna Mueller", "address": "Hauptstrasse 5", "enteredAt": "2026-05-01T10:40:00Z",
         "birthDate": "2026-01-01T00:00:00Z", "calliper": {"lengthMM": 140, "widthMM": 120, "diagonalAMM": 150, "diagonalBMM": 145}}
        """.utf8)
    static let patientWithDays = Data(
        """
        {"version": 1, "patientID": 1708731610961, "pseudonymisation": "hmac-sha256-v1", "ageAtVisitDays": 120,
         "calliper": {"lengthMM": 140, "widthMM": 120, "diagonalAMM": 150, "diagonalBMM": 145}}
        """.utf8)
    static let consentAsText = Data(#"{"version": 1, "researchUse": "true", "decidedAt": "2026-04-27T00:00:00Z", "recordedBy": "app"}"#.utf8)
    static let consentRefused = Data(#"{"version": 1, "researchUse": false, "decidedAt": "2026-04-27T00:00:00Z", "recordedBy": "app"}"#.utf8)

    static let variants: [Variant] = [
        Variant(label: "named after the patient", sessionName: "Mueller-Anna_2026-04-27T00-00-01_Scan"),
        Variant(label: "the raw patient ID", sessionName: "12_2026-04-27T00-00-01_Scan"),
        Variant(label: "the clock time in the name", sessionName: "1708731610961_2026-05-01T10-30-00_Scan"),
        Variant(label: "a temporary name with a name in it", sessionName: "new-Anna_2026-04-27T00-00-01_Scan"),
        Variant(label: "patient.json with ID, name and address", replace: ["patient.json": rawPatient]),
        Variant(label: "patient.json with the age in days", replace: ["patient.json": patientWithDays]),
        Variant(label: "a report naming the patient", add: ["report.html": Data("<html>Anna Mueller, 12</html>".utf8)]),
        Variant(label: "a file of its own", add: ["notes.txt": Data("Anna Mueller".utf8)]),
        Variant(label: "consent as text", replace: ["consent.json": consentAsText]),
        Variant(label: "consent refused", replace: ["consent.json": consentRefused]),
        Variant(label: "no consent", drop: ["consent.json"]),
        Variant(label: "a precise date in a document", replace: ["measurement.json": SessionFixture.measurement(cvai: 6)]),
        Variant(label: "a rating with a typed note", replace: ["rating.json": SessionFixture.rating(3)]),
        Variant(label: "a rating of 1e300", replace: ["rating.json": Data(#"{"version": 1, "scanQuality": 1e300}"#.utf8)]),
    ]

    @Test(arguments: Backend.available, variants)
    func aModifiedClientIsRefusedAndNothingIsKept(_ backend: Backend, _ variant: Variant) async throws {
        let made = try await Harness.make(backend)
        let log = LogCapture.Lines()
        var server = made.server
        server.logger = LogCapture.logger(log)
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try SessionFixture(patientID: 12, extra: ["measurement.json": SessionFixture.measurement(cvai: 6)])
        defer { fixture.remove() }
        var package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        if let name = variant.sessionName { package.sessionName = name }
        package.items.removeAll { variant.drop.contains($0.manifest.name) || variant.replace[$0.manifest.name] != nil }
        for (name, data) in variant.replace.merging(variant.add, uniquingKeysWith: { a, _ in a }) {
            package.items.append(.init(manifest: ManifestFile(name: name, size: Int64(data.count), sha256: Digest.sha256(data)), source: .data(data)))
        }
        let submitted = package
        try await harness.app().test(.router) { client in
            let before = try await harness.state()
            let outcome = try await UploadFuzzTests.upload(client, token: token, package: submitted)
            #expect((400..<500).contains(outcome.code), "\(variant.label): \(outcome)")
            let after = try await harness.state()
            #expect(after.0 == before.0, "files left behind: \(Set(after.0.keys).subtracting(before.0.keys))")
            #expect(after.1 == before.1)
        }
        let written = log.all.joined(separator: "\n")
        for secret in ["Anna", "Mueller", "Hauptstrasse", "2026-05-01", "12_2026"] {
            #expect(!written.contains(secret), "the log holds \(secret): \(written)")
        }
    }

    @Test(arguments: Backend.available)
    func nothingTheServiceHoldsGivesTheBirthDate(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let id = try #require(try await rawUpload(client, token: token, package: package).sessionID)
            let (session, _) = try #require(try await harness.store.sessions.find(id: id))
            // Every stored byte and every listed value: no day other than a week's Monday.
            var texts = [session.name, session.recordedAt, session.uploadedAt]
            for file in session.files {
                texts.append(String(decoding: try Data(contentsOf: try #require(harness.server.blobs.blobURL(file.sha256))), as: UTF8.self))
            }
            for text in texts {
                for day in Self.days(in: text) {
                    #expect(ResearchCalendar.isWeekStart(day), "\(ResearchCalendar.instantText(day)) in \(text.prefix(200))")
                }
                #expect(!text.contains("10-30-00") && !text.contains("10:30"))
            }
            // The attacker's best guess: week of the visit minus the age in whole weeks leaves at
            // least a week of possible birth dates (here born 2026-01-01, seen Friday 2026-05-01).
            let patientFile = try #require(session.files.first { $0.name == "patient.json" })
            let patient = try ResearchPatientRecord.decode(from: Data(contentsOf: try #require(harness.server.blobs.blobURL(patientFile.sha256))))
            let weeks = try #require(patient.ageAtVisitWeeks)
            let monday = try #require(ISO8601DateFormatter().date(from: String(session.recordedAt.prefix(10)) + "T00:00:00Z"))
            let earliest = monday.addingTimeInterval(-Double(weeks * 7 + 6) * 86_400)
            let latest = monday.addingTimeInterval(6 * 86_400 - Double(weeks * 7) * 86_400)
            #expect(latest.timeIntervalSince(earliest) >= 7 * 86_400)
            #expect((earliest...latest).contains(SessionFixture.birthDate))
        }
    }

    /// Every `yyyy-MM-dd` in `text`, as midnight UTC, with the time when one follows.
    static func days(in text: String) -> [Date] {
        let pattern = try! NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}(T\d{2}[:-]\d{2}[:-]\d{2})?"#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            guard let r = Range(match.range, in: text) else { return nil }
            var day = String(text[r])
            if day.count == 10 { day += "T00:00:00" }
            // Session names write the time with '-', and their minutes and seconds count scans.
            let time = day.dropFirst(11)
            let hours = time.prefix(2)
            return ISO8601DateFormatter().date(from: day.prefix(10) + "T" + hours + ":00:00Z")
        }
    }
}

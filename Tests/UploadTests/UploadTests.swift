import Crypto
import Foundation
import HeadScanTesting
import Recording
import Testing

@testable import Upload

@Suite struct PseudonymiserTests {
    let key = Data((0..<32).map { UInt8($0) })

    @Test func sameKeySamePseudonymOtherKeyOther() throws {
        let site = try Pseudonymiser(siteKey: key)
        let other = try Pseudonymiser(siteKey: Data((0..<32).map { UInt8(255 - $0) }))
        #expect(site.pseudonym(patientID: 12) == site.pseudonym(patientID: 12))
        #expect(site.pseudonym(patientID: 12) != site.pseudonym(patientID: 13))
        #expect(site.pseudonym(patientID: 12) != other.pseudonym(patientID: 12))
        for id in 1...200 {
            let pseudonym = site.pseudonym(patientID: id)
            #expect(String(pseudonym).count == 13)
            #expect(pseudonym != id)
        }
    }

    @Test func knownValue() throws {
        // HMAC-SHA256(key 00…1f, "headscan-patient-v1:12"), first 8 bytes big-endian,
        // mod 9e12 plus 1e12: a fixed value guards the documented recipe.
        let site = try Pseudonymiser(siteKey: key)
        let mac = Array(HMACCheck.mac(key: key, message: "headscan-patient-v1:12"))
        let value = mac.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(site.pseudonym(patientID: 12) == Int(value % 9_000_000_000_000) + 1_000_000_000_000)
    }

    @Test func refusesShortKeys() {
        #expect(throws: UploadError.self) { try Pseudonymiser(siteKey: Data(repeating: 1, count: 16)) }
    }

    @Test func readsAndRefusesKeyFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data((Pseudonymiser.newSiteKeyHex() + "\n").utf8).write(to: url)
        _ = try Pseudonymiser(siteKeyFile: url)
        try Data("not a key".utf8).write(to: url)
        #expect(throws: UploadError.self) { try Pseudonymiser(siteKeyFile: url) }
    }
}

enum HMACCheck {
    static func mac(key: Data, message: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: key)))
    }
}

@Suite struct SessionPackageTests {
    let pseudonymiser = try! Pseudonymiser(siteKey: Data(repeating: 7, count: 32))

    @Test func pseudonymisesAndKeepsReportsOnTheDevice() throws {
        let fixture = try SessionFixture(patientID: 12, extra: ["rating.json": SessionFixture.rating(4)])
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: pseudonymiser)
        let pseudonym = pseudonymiser.pseudonym(patientID: 12)
        // Friday 2026-05-01 10:30 → the Monday of its week, first scan of the patient that week.
        #expect(package.sessionName == "\(pseudonym)_2026-04-27T00-00-01_Scan")
        #expect(Set(package.manifest.map(\.name)) == ["consent.json", "head.ply", "patient.json", "rating.json", "scan.hscan"])
        #expect(package.leftOnDevice == ["report.html", "report.pdf"])
        let patient = try #require(package.items.first { $0.manifest.name == "patient.json" })
        guard case .data(let data) = patient.source else { Issue.record("patient.json must be rewritten"); return }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["version", "patientID", "pseudonymisation", "calliper", "ageAtVisitWeeks"])
        #expect((object["patientID"] as? NSNumber)?.intValue == pseudonym)
        // Born 2026-01-01, seen 2026-05-01: 120 days, 17 whole weeks.
        #expect((object["ageAtVisitWeeks"] as? NSNumber)?.intValue == 17)
        for item in package.items {
            let bytes = try SessionPackage.read(item, offset: 0, length: Int(item.manifest.size))
            #expect(Digest.sha256(bytes) == item.manifest.sha256)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("2026-05-01") && !text.contains("10:30") && !text.contains("2026-01-01"), "\(item.manifest.name)")
            #expect(!text.contains("Anna") && !text.contains("notes"), "\(item.manifest.name)")
        }
        // The recording keeps its size and every frame offset; only the header changed.
        let scan = try #require(package.items.first { $0.manifest.name == "scan.hscan" })
        let original = try Data(contentsOf: fixture.folder.appendingPathComponent("scan.hscan"))
        #expect(scan.manifest.size == Int64(original.count))
        let sent = try SessionPackage.read(scan, offset: 0, length: original.count)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sent-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: copy) }
        try sent.write(to: copy)
        let header = try ScanReader(url: copy).header
        #expect(ResearchCalendar.instantText(header.createdAt) == "2026-04-27T00:00:00Z")
        #expect(header.metadata == ["scenario": "ideal"])
    }

    @Test func aPatientsScansOfOneWeekAreNumberedInOrder() throws {
        let fixture = try SessionFixture(patientID: 12)
        defer { fixture.remove() }
        for name in ["12_2026-04-27T08-00-00_Scan", "12_2026-05-03T23-59-59_Scan", "12_2026-05-04T08-00-00_Scan", "13_2026-04-28T08-00-00_Scan"] {
            try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: pseudonymiser)
        #expect(package.sessionName.hasSuffix("_2026-04-27T00-00-02_Scan"))
    }

    @Test func refusesWithoutConsentOrWithRefusal() throws {
        let none = try SessionFixture(consent: nil)
        defer { none.remove() }
        #expect(throws: UploadError.noConsent(none.folder.lastPathComponent)) {
            try SessionPackage(folder: none.folder, pseudonymiser: pseudonymiser)
        }
        let refused = try SessionFixture(consent: false)
        defer { refused.remove() }
        #expect(throws: UploadError.consentRefused(refused.folder.lastPathComponent)) {
            try SessionPackage(folder: refused.folder, pseudonymiser: pseudonymiser)
        }
    }

    @Test func leavesFilesResearchDoesNotTakeOnTheDevice() throws {
        let fixture = try SessionFixture(extra: ["notes copy.txt": Data("x".utf8), "truth.json": Data("{}".utf8)])
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: pseudonymiser)
        #expect(package.leftOnDevice == ["notes copy.txt", "report.html", "report.pdf", "truth.json"])
    }

    @Test func fileNameRules() {
        for good in ["scan.hscan", "head.ply", "a-b_c.json", "0.txt"] { #expect(UploadProtocol.isValidFileName(good)) }
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", ".hidden", "-rf", "x..y", "a b", "é.json", String(repeating: "a", count: 101), "a\u{0}b"] {
            #expect(!UploadProtocol.isValidFileName(bad), "\(bad)")
        }
    }

    @Test func chunkArithmetic() {
        let file = ManifestFile(name: "a", size: 2500, sha256: String(repeating: "0", count: 64))
        #expect(file.chunkCount(chunkSize: 1024) == 3)
        #expect(file.chunkLength(2, chunkSize: 1024) == 452)
        #expect(ManifestFile(name: "e", size: 0, sha256: "").chunkCount(chunkSize: 1024) == 1)
    }
}

import Foundation
import ScanLibrary
import Testing

@testable import Processing

struct ScanReuseTests {
    @Test func theContentHashIsSHA256() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headscan-hash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("abc".utf8).write(to: url)
        #expect(try SessionProcessor.contentHash(url) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A session copied or uploaded elsewhere gets a new file time; its reconstruction is
    /// still the scan's when the content is the same, and is not when it differs.
    @Test func aCopiedSessionIsReusedByItsContentNotItsTime() throws {
        let fixture = try LiftingFixture()
        defer { fixture.remove() }
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        var record = try #require(try fixture.library.document(ReconstructionRecord.self, in: fixture.session))
        record.scan.modified -= 3600
        record.scan.sha256 = try SessionProcessor.contentHash(fixture.session.scanURL)
        try fixture.library.save(record, in: fixture.session)
        #expect(try !SessionProcessor(library: fixture.library).process(fixture.session).reconstructed)

        // Another content: the scan is reconstructed, which fails here (its frames show no
        // markers), so the stored mesh was not taken for it.
        record.scan.sha256 = String(repeating: "0", count: 64)
        try fixture.library.save(record, in: fixture.session)
        #expect(throws: (any Error).self) { try SessionProcessor(library: fixture.library).process(fixture.session) }
    }
}

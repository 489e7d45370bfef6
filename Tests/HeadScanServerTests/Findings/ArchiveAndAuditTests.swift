import Foundation
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Upload
import ZIPFoundation

@testable import HeadScanServer

/// Datasets whose entries never collide, the mesh only for accounts that may download, and an
/// audit log whose changed or deleted rows are found.
@Suite struct ArchiveAndAuditTests {
    @Test(arguments: Backend.available)
    func twoDevicesSessionsOfOneNameKeepTheirOwnFolders(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, tokenA) = try await harness.device("phone-a", site: "clinic-a")
        let (_, tokenB) = try await harness.device("phone-b", site: "clinic-a")
        let (_, tokenC) = try await harness.device("phone-c", site: "../../clinic c")
        let password = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            // The same patient at the same site in the same week on three devices: one name.
            var names: Set<String> = []
            for (token, seed) in [(tokenA, UInt8(1)), (tokenB, 2), (tokenC, 3)] {
                let fixture = try SessionFixture(seed: seed)
                defer { fixture.remove() }
                let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
                names.insert(package.sessionName)
                try await rawUpload(client, token: token, package: package)
            }
            #expect(names.count == 1)
            let zip = try await client.execute(uri: "/api/download", method: .get, headers: basic("r@example.org", password))
            let archive = try Archive(data: Data(zip.body.readableBytesView), accessMode: .read)
            let paths = archive.map(\.path)
            #expect(Set(paths).count == paths.count, "duplicate entries")
            let folders = Set(paths.filter { $0.hasSuffix("/scan.hscan") }.map { $0.split(separator: "/").dropLast().joined(separator: "/") })
            #expect(folders.count == 3)
            #expect(paths.allSatisfy { !$0.contains("..") && !$0.hasPrefix("/") }, "\(paths)")
            #expect(folders.contains { $0.hasPrefix("______clinic_c/") }, "\(folders)")
        }
    }

    @Test(arguments: Backend.available)
    func viewersSeeNoMesh(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let viewer = try await harness.researcher("v@example.org", role: .viewer)
        let fixture = try SessionFixture()
        defer { fixture.remove() }
        try await harness.app().test(.router) { client in
            let id = try #require(
                try await rawUpload(client, token: token, package: try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser))
                    .sessionID)
            let mesh = try await client.execute(uri: "/api/sessions/\(id)/mesh", method: .get, headers: basic("v@example.org", viewer))
            #expect(mesh.status == .forbidden)
            let page = String(buffer: try await client.execute(uri: "/sessions/\(id)", method: .get, headers: basic("v@example.org", viewer)).body)
            #expect(!page.contains("/mesh") && !page.contains("id=\"viewer\""))
            #expect(try await harness.auditActions().suffix(2) == ["refused", "view"])
        }
    }

    /// Drops the append-only triggers, as whoever owns the database can.
    static func dropTriggers(_ harness: Harness, _ backend: Backend) async throws {
        let statements =
            backend == .sqlite
            ? ["DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete"]
            : ["DROP TRIGGER audit_log_no_change ON audit_log", "DROP TRIGGER audit_log_no_truncate ON audit_log"]
        for statement in statements { _ = try await harness.store.database.query(statement, []) }
    }

    static func writeRows(_ harness: Harness, _ count: Int) async throws {
        // Writers from many tasks at once still make one chain.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await harness.store.audit(AuditEntry(actor: "researcher:r\(index)@example.org", action: "list", address: "10.0.0.\(index)"))
                }
            }
            try await group.waitForAll()
        }
    }

    @Test(arguments: Backend.available)
    func theAuditLogIsAppendOnly(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        try await Self.writeRows(harness, 3)
        await #expect(throws: (any Error).self) { _ = try await harness.store.database.query("UPDATE audit_log SET address = '10.9.9.9'", []) }
        await #expect(throws: (any Error).self) { _ = try await harness.store.database.query("DELETE FROM audit_log", []) }
        if backend == .postgres {
            await #expect(throws: (any Error).self) { _ = try await harness.store.database.query("TRUNCATE audit_log", []) }
        }
        #expect(try await harness.store.verifyAudit().keyed == 3)
    }

    @Test(arguments: Backend.available)
    func theAuditChainFindsChangedAndDeletedRows(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        try await Self.writeRows(harness, 40)
        let intact = try await harness.store.verifyAudit()
        #expect(intact.chained == 40 && intact.keyed == 40 && intact.brokenAt == nil && intact.headID > 0)
        try await Self.dropTriggers(harness, backend)

        let rows = try await harness.store.auditLog(limit: 40).map(\.id).sorted()
        _ = try await harness.store.database.query("UPDATE audit_log SET address = '10.9.9.9' WHERE id = ?", [.int(rows[10])])
        let changed = try await harness.store.verifyAudit()
        #expect(changed.brokenAt == rows[10] && changed.problem?.contains("changed") == true)

        _ = try await harness.store.database.query("DELETE FROM audit_log WHERE id <= ?", [.int(rows[10])])
        _ = try await harness.store.database.query("DELETE FROM audit_log WHERE id = ?", [.int(rows[20])])
        let deleted = try await harness.store.verifyAudit()
        #expect(deleted.brokenAt == rows[11] && deleted.problem?.contains("deleted") == true, "\(deleted)")
    }

    /// Whoever holds the database but not the data folder's key cannot rewrite the chain, mark
    /// rows as written before chaining, cut rows off the end or empty the log unnoticed.
    @Test(arguments: Backend.available)
    func rewritingTheChainWithoutTheKeyIsFound(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        try await Self.writeRows(harness, 12)
        try await Self.dropTriggers(harness, backend)
        let rows = try await harness.store.auditLog(limit: 100).sorted { $0.id < $1.id }

        // The attacker changes row 5 and computes every hash after it again, as the code shows.
        let unkeyed = Store(database: harness.store.database)
        var previousHash = try #require(try await harness.store.auditLog(containing: rows[4].id)?.hash)
        for (index, row) in rows.enumerated() where index >= 5 {
            var entry = row
            if index == 5 { entry.address = "10.9.9.9" }
            let hash = unkeyed.rowHash(entry, previousID: rows[index - 1].id, previousHash: previousHash)
            _ = try await harness.store.database.query(
                "UPDATE audit_log SET address = ?, row_hash = ? WHERE id = ?", [SQLValue(entry.address), .text(hash), .int(row.id)])
            previousHash = hash
        }
        let rewritten = try await harness.store.verifyAudit()
        #expect(rewritten.brokenAt == rows[5].id, "\(rewritten)")

        // Rows marked as written before chaining.
        _ = try await harness.store.database.query("UPDATE audit_log SET row_hash = NULL WHERE id <= ?", [.int(rows[5].id)])
        #expect(try await harness.store.verifyAudit().brokenAt == rows[0].id)

        // The end cut off, then everything.
        _ = try await harness.store.database.query("DELETE FROM audit_log WHERE id < ?", [.int(rows[6].id)])
        _ = try await harness.store.database.query("DELETE FROM audit_log WHERE id > ?", [.int(rows[6].id)])
        let cut = try await harness.store.verifyAudit()
        #expect(cut.brokenAt != nil && (cut.problem ?? "").contains("cut off the end") || cut.brokenAt == rows[6].id, "\(cut)")
        _ = try await harness.store.database.query("DELETE FROM audit_log", [])
        let empty = try await harness.store.verifyAudit()
        #expect(empty.brokenAt != nil, "an emptied log passed")
    }
}

import Foundation
import Testing

@testable import RangeOfMotion

@Suite("Stored measurements")
struct StoreTests {
    private func temporaryStore() throws -> RangeOfMotionStore {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rom-store-\(UUID().uuidString)")
        return RangeOfMotionStore(root: root)
    }

    private func analysis(to flexion: Double) throws -> RangeOfMotionAnalysis {
        try Poses.analyze(Poses.sequence(Poses.bending(from: 0, to: flexion)))
    }

    @Test("measurements are kept per patient and list oldest first, with the whole analysis")
    func history() throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store.root) }
        let first = Date(timeIntervalSince1970: 1_760_000_000)
        let later = first.addingTimeInterval(86_400)
        try store.save(analysis(to: 100), patientID: "12", date: later, source: "b.json")
        let saved = try store.save(analysis(to: 90), patientID: "12", date: first, source: "a.json")
        try store.save(analysis(to: 80), patientID: "Huber-7", date: first, source: "c.json")
        #expect(saved.url.lastPathComponent.hasPrefix("knee-left_"))
        let history = try store.history(patientID: "12")
        #expect(history.records.map { $0.record.neutralZero } == ["0-0-90", "0-0-100"])
        #expect(history.records[0].record.analysis == (try analysis(to: 90)))
        #expect(history.problems.isEmpty)
        #expect(store.patients() == ["12", "Huber-7"])
        #expect(try store.history(patientID: "99").records.isEmpty)
    }

    @Test("two measurements in the same second are both kept")
    func sameSecond() throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store.root) }
        let date = Date(timeIntervalSince1970: 1_760_000_000)
        let a = try store.save(analysis(to: 90), patientID: "5", date: date, source: "x")
        let b = try store.save(analysis(to: 95), patientID: "5", date: date, source: "x")
        #expect(a.url != b.url && b.url.lastPathComponent.hasSuffix("-2.json"))
        #expect(try store.history(patientID: "5").records.count == 2)
    }

    @Test("a broken or newer file is named while the others still list")
    func problems() throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store.root) }
        try store.save(analysis(to: 90), patientID: "5", date: Date(), source: "x")
        let folder = store.root.appendingPathComponent("5")
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("knee-left_broken.json"))
        try Data(#"{"version": 9}"#.utf8).write(to: folder.appendingPathComponent("knee-left_future.json"))
        let history = try store.history(patientID: "5")
        #expect(history.records.count == 1 && history.problems.count == 2)
        #expect(history.problems.contains { if case .newerRecord(_, 9, 1) = $0 { true } else { false } })
        #expect(history.problems.allSatisfy { $0.description.contains("knee-left_") })
    }

    @Test("a patient ID must name a folder safely", arguments: ["", "../x", "a/b", ".hidden", String(repeating: "7", count: 65), "Mü"])
    func invalidPatient(id: String) throws {
        let store = try temporaryStore()
        #expect(throws: RangeOfMotionError.invalidPatientID(id)) { try store.save(analysis(to: 90), patientID: id, date: Date(), source: "x") }
    }
}

import Foundation
import SettingsSchema
import Testing

/// A settings type as the products write theirs: defaults, fields listed once.
private struct Example: Codable, Equatable {
    var count = 3
    var name = "plain"
    var gate: Double? = 0.5

    static var schema: SettingsSchema<Example> {
        SettingsSchema([.field("count", \.count), .field("name", \.name), .gate("gate", \.gate)], otherNames: ["preset"])
    }

    init() {}

    init(from decoder: any Decoder) throws {
        self.init()
        try Self.schema.decode(decoder, into: &self) { "no setting \($0)" }
    }

    func encode(to encoder: any Encoder) throws { try Self.schema.encode(self, to: encoder) }
}

@Suite("Settings schema")
struct SettingsSchemaTests {
    private func decode(_ json: String) throws -> Example {
        try JSONDecoder().decode(Example.self, from: Data(json.utf8))
    }

    @Test func aFileNamesOnlyWhatItChanges() throws {
        #expect(try decode("{}") == Example())
        var expected = Example()
        expected.count = 7
        #expect(try decode(#"{"count": 7}"#) == expected)
    }

    @Test func nullTurnsAGateOffAndAbsenceKeepsIt() throws {
        #expect(try decode(#"{"gate": null}"#).gate == nil)
        #expect(try decode(#"{"gate": 2}"#).gate == 2)
        #expect(try decode(#"{"count": 1}"#).gate == 0.5)
    }

    @Test func aMisspeltNameIsRefusedByName() throws {
        do {
            _ = try decode(#"{"cuont": 7, "zzz": 1}"#)
            Issue.record("a misspelt setting was accepted")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription == "no setting cuont")
        }
        // A name the type reads itself (a preset) is not a misspelling.
        #expect(try decode(#"{"preset": "x"}"#) == Example())
    }

    @Test func aWrongTypeIsAnError() {
        #expect(throws: DecodingError.self) { try decode(#"{"count": "many"}"#) }
    }

    @Test func writingGivesEverySettingAndReadsBackTheSame() throws {
        var settings = Example()
        settings.gate = nil
        settings.name = "other"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(settings)
        #expect(String(decoding: data, as: UTF8.self) == #"{"count":3,"gate":null,"name":"other"}"#)
        #expect(try JSONDecoder().decode(Example.self, from: data) == settings)
        #expect(Example.schema.names == ["count", "name", "gate"])
    }
}

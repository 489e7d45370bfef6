import Foundation
import ScanLibrary
import Testing

struct SessionNameTests {
    @Test func parsesAndFormats() throws {
        let name = try SessionName(parsing: "123_2024-05-01T10-30-00_Scan")
        #expect(name.id == "123")
        #expect(name.patientID == 123)
        #expect(name.timestamp == "2024-05-01T10-30-00")
        #expect(!name.isTemporary)
        #expect(try SessionName(id: "new", date: may1, timeZone: utc).rawValue == "new_2024-05-01T10-30-00_Scan")
        #expect(try SessionName(id: "new-2", date: may1, timeZone: utc).isTemporary)
        #expect(name.date(in: utc) == may1)
    }

    @Test func acceptsLettersOfAnyScriptAndComposesThem() throws {
        let decomposed = "Mu\u{308}ller-7_2024-05-01T10-30-00_Scan"
        let name = try SessionName(parsing: decomposed)
        #expect(name.id == "Müller-7")
        #expect(name.patientID == nil)
        #expect(try SessionName(parsing: "Łukasz_2024-05-01T10-30-00_Scan").id == "Łukasz")
    }

    @Test(arguments: [
        ("", NameProblem.empty),
        ("a/b_2024-05-01T10-30-00_Scan", .pathSeparator),
        ("a\\b_2024-05-01T10-30-00_Scan", .pathSeparator),
        ("a:b_2024-05-01T10-30-00_Scan", .pathSeparator),
        ("..", .pathTraversal),
        ("a..b_2024-05-01T10-30-00_Scan", .pathTraversal),
        (".hidden_2024-05-01T10-30-00_Scan", .pathTraversal),
        ("123_2024-05-01T10-30-00", .wrongShape),
        ("123_2024-05-01T10-30-00_scan", .wrongShape),
        ("1_2_2024-05-01T10-30-00_Scan", .wrongShape),
        ("_2024-05-01T10-30-00_Scan", .emptyID),
        ("123_2024-02-30T10-30-00_Scan", .badDate("2024-02-30T10-30-00")),
        ("123_2024-05-01_Scan", .badDate("2024-05-01")),
        ("a b_2024-05-01T10-30-00_Scan", .forbiddenCharacter("U+0020")),
        ("a\u{200B}b_2024-05-01T10-30-00_Scan", .forbiddenCharacter("U+200B")),
        ("a\u{202E}b_2024-05-01T10-30-00_Scan", .forbiddenCharacter("U+202E")),
        ("a😀_2024-05-01T10-30-00_Scan", .forbiddenCharacter("\"😀\" (U+1F600)")),
        ("a\u{FF0F}b_2024-05-01T10-30-00_Scan", .forbiddenCharacter("\"／\" (U+FF0F)")),
    ])
    func rejectsBadNames(name: String, problem: NameProblem) {
        #expect(throws: ScanLibraryError.invalidName(name: name, reason: problem)) { try SessionName(parsing: name) }
    }

    @Test func rejectsOverlongNames() {
        let name = String(repeating: "ä", count: 60) + "_2024-05-01T10-30-00_Scan"
        #expect(throws: ScanLibraryError.invalidName(name: name, reason: .tooLong(limit: 120))) { try SessionName(parsing: name) }
    }

    @Test func messagesSayWhatToDo() {
        let error = ScanLibraryError.invalidName(name: "x", reason: .pathSeparator)
        #expect(error.description.contains("[ID]_yyyy-MM-ddTHH-mm-ss_Scan"))
    }
}

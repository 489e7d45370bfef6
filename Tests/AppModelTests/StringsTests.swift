import AppModel
import AppSupport
import Feedback
import Foundation
import Testing

struct StringsTests {
    @Test func bothLanguagesHoldEveryKeyAndNoOther() throws {
        for language in Language.allCases {
            let table = try Strings.table(language)
            let keys = Set(StringKey.allCases.map(\.rawValue))
            #expect(
                Set(table.keys) == keys,
                "\(language): missing \(keys.subtracting(table.keys).sorted()), extra \(Set(table.keys).subtracting(keys).sorted())")
            #expect(table.values.allSatisfy { !$0.isEmpty })
        }
    }

    @Test func placeholdersMatchAcrossLanguages() throws {
        let en = try Strings.table(.en)
        let de = try Strings.table(.de)
        func placeholders(_ s: String) -> Set<String> {
            Set((0..<4).map { "{\($0)}" }.filter { s.contains($0) })
        }
        for key in StringKey.allCases {
            #expect(placeholders(en[key.rawValue] ?? "") == placeholders(de[key.rawValue] ?? ""), "\(key)")
        }
    }

    @Test func fillsArgumentsAndFormatsDecimals() {
        #expect(strings(.en)(.homeStorageFree, "12.5") == "12.5 GB free")
        #expect(strings(.de)(.homeStorageFree, strings(.de).decimal(12.5)) == "12,5 GB frei")
        #expect(strings(.de)(.scanSaved) == "Scan gespeichert")
    }
}

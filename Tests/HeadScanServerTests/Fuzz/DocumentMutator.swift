import Foundation
import Geometry
import ScanLibrary

/// Seeded mutations of an uploaded file, as a modified client or a damaged transfer would
/// produce: JSON-aware ones (a field removed, added, retyped, a huge or negative number, a
/// precise date, an empty array where numbers belong) and byte-level ones (flips, cuts,
/// repeats) for every kind of file.
struct DocumentMutator {
    var random: Xoshiro256

    init(seed: UInt64) { random = Xoshiro256(seed: seed) }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(random.next() % UInt64(n)) }

    /// One mutation of `data`; JSON-aware for JSON documents half of the time.
    mutating func mutate(_ data: Data) -> Data {
        if below(2) == 0, let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let bytes = try? encoder.encode(mutate(value, depth: 0)) { return bytes }
        }
        return mutateBytes(data)
    }

    mutating func mutateBytes(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        switch below(6) {
        case 0 where !bytes.isEmpty:
            for _ in 0...below(8) { bytes[below(bytes.count)] ^= UInt8(1 << below(8)) }
        case 1: bytes = Array(bytes.prefix(below(bytes.count + 1)))
        case 2 where !bytes.isEmpty:
            let start = below(bytes.count)
            bytes.insert(contentsOf: bytes[start..<min(bytes.count, start + 1 + below(64))], at: below(bytes.count))
        case 3 where !bytes.isEmpty: bytes[below(bytes.count)] = [0, 0xFF, 0x22, 0x5C, 0x7B, 0x5D][below(6)]
        case 4: bytes.insert(contentsOf: Array(" comment Anna Mueller\n".utf8), at: below(bytes.count + 1))
        default: bytes.append(contentsOf: (0..<below(32)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        return Data(bytes)
    }

    /// Values an attacker would put anywhere.
    mutating func hostile() -> JSONValue {
        let choices: [JSONValue] = [
            .null, .bool(true), .bool(false), .number(1e300), .number(-1e300), .number(-1), .number(0), .number(9_223_372_036_854_775_807),
            .number(0.5), .string(""), .string("Anna Mueller, Hauptstr. 5"), .string("2026-05-01T10:30:00Z"), .string("2026-04-27T00:00:00Z"),
            .string(String(repeating: "x", count: 5000)), .array([]), .array([.number(1)]), .object([:]),
            .object(["name": .string("Anna")]), .string("\u{0}"), .string("e\u{301}\""),
        ]
        return choices[below(choices.count)]
    }

    mutating func mutate(_ value: JSONValue, depth: Int) -> JSONValue {
        switch value {
        case .object(var fields) where !fields.isEmpty && below(3) != 0 && depth < 6:
            let keys = fields.keys.sorted()
            let key = keys[below(keys.count)]
            switch below(4) {
            case 0: fields.removeValue(forKey: key)
            case 1: fields[["name", "address", "birthDate", "enteredAt", "ageAtVisitDays", "behaviourNote", key + "x"][below(7)]] = hostile()
            default: fields[key] = mutate(fields[key] ?? .null, depth: depth + 1)
            }
            return .object(fields)
        case .array(var items) where !items.isEmpty && below(3) != 0 && depth < 6:
            let index = below(items.count)
            switch below(4) {
            case 0: items.remove(at: index)
            case 1: items.append(hostile())
            default: items[index] = mutate(items[index], depth: depth + 1)
            }
            return .array(items)
        default:
            return hostile()
        }
    }
}

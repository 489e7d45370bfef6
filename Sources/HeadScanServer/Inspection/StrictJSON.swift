import Foundation

/// A check of JSON text before any decoder sees it: a key twice in one object (checks would read
/// one, a researcher's tool the other), nesting deeper than a document needs, or text that is
/// not JSON at all. Keys are compared after their escapes are resolved (`"a"` and `"\u0061"` are
/// the same key). Linear in the input; nothing is allocated but the keys of the open objects.
enum StrictJSON {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case duplicateKey(String)
        case tooDeep
        case malformed(offset: Int)

        var description: String {
            switch self {
            case .duplicateKey(let key): "the key \(LogText.label(key, limit: 40)) appears twice in one object"
            case .tooDeep: "it is nested deeper than \(StrictJSON.maximumDepth) levels"
            case .malformed(let offset): "it is not JSON (at byte \(offset))"
            }
        }
    }

    static let maximumDepth = 64

    static func check(_ data: Data) throws(Problem) {
        var scanner = Scanner(bytes: [UInt8](data))
        scanner.skipSpace()
        try scanner.value(depth: 0)
        scanner.skipSpace()
        guard scanner.offset == scanner.bytes.count else { throw .malformed(offset: scanner.offset) }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Problem) {
            guard current == byte else { throw .malformed(offset: offset) }
            offset += 1
        }

        mutating func value(depth: Int) throws(Problem) {
            guard depth < StrictJSON.maximumDepth else { throw .tooDeep }
            switch current {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
        }

        mutating func object(depth: Int) throws(Problem) {
            try expect(UInt8(ascii: "{"))
            skipSpace()
            if current == UInt8(ascii: "}") { offset += 1; return }
            var keys = Set<String>()
            while true {
                skipSpace()
                let key = try string()
                guard keys.insert(key).inserted else { throw .duplicateKey(key) }
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "}"))
                return
            }
        }

        mutating func array(depth: Int) throws(Problem) {
            try expect(UInt8(ascii: "["))
            skipSpace()
            if current == UInt8(ascii: "]") { offset += 1; return }
            while true {
                skipSpace()
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "]"))
                return
            }
        }

        mutating func literal(_ word: StaticString) throws(Problem) {
            let text = Array(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            guard offset + text.count <= bytes.count, Array(bytes[offset..<offset + text.count]) == text else { throw .malformed(offset: offset) }
            offset += text.count
        }

        mutating func number() throws(Problem) {
            let start = offset
            if current == UInt8(ascii: "-") { offset += 1 }
            let digits = offset
            while let byte = current, (0x30...0x39).contains(byte) { offset += 1 }
            guard offset > digits else { throw .malformed(offset: start) }
            if current == UInt8(ascii: ".") {
                offset += 1
                let fraction = offset
                while let byte = current, (0x30...0x39).contains(byte) { offset += 1 }
                guard offset > fraction else { throw .malformed(offset: start) }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                let exponent = offset
                while let byte = current, (0x30...0x39).contains(byte) { offset += 1 }
                guard offset > exponent else { throw .malformed(offset: start) }
            }
        }

        /// A string's value with its escapes resolved (invalid UTF-8 and lone surrogates refused).
        mutating func string() throws(Problem) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() throws(Problem) {
                guard !raw.isEmpty else { return }
                guard let text = String(validating: raw, as: UTF8.self) else { throw .malformed(offset: offset) }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll(keepingCapacity: true)
            }
            while true {
                guard let byte = current else { throw .malformed(offset: offset) }
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    try flush()
                    scalars.append(try escape())
                case 0x00..<0x20:
                    throw .malformed(offset: offset - 1)
                default:
                    raw.append(byte)
                }
            }
        }

        mutating func escape() throws(Problem) -> Unicode.Scalar {
            guard let byte = current else { throw .malformed(offset: offset) }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4()
                if (0xD800..<0xDC00).contains(high) {
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                        throw .malformed(offset: offset)
                    }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(high) else { throw .malformed(offset: offset) }
                return scalar
            default: throw .malformed(offset: offset - 1)
            }
        }

        mutating func hex4() throws(Problem) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw .malformed(offset: offset) }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                offset += 1
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw .malformed(offset: offset - 1)
                }
                value = value << 4 | digit
            }
            return value
        }
    }
}

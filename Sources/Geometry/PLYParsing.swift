/// One property of a PLY element: a scalar, or a list with a count type.
struct PLYProperty {
    var name: String
    var type: String
    var listCountType: String?
}

/// One element of a PLY header.
struct PLYElement {
    var name: String
    var count: Int
    var properties: [PLYProperty]
}

/// The parsed header of a PLY file.
struct PLYHeader {
    var ascii: Bool
    var elements: [PLYElement] = []
    var bodyOffset: Int

    init(_ bytes: [UInt8]) throws(PLY.Error) {
        guard bytes.starts(with: Array("ply".utf8)) else { throw .notPLY }
        let marker = Array("end_header".utf8)
        guard let range = bytes.firstRange(of: marker) else { throw .truncated }
        var end = range.upperBound
        while end < bytes.count, bytes[end] == 13 || bytes[end] == 10 {
            end += 1
            if bytes[end - 1] == 10 { break }
        }
        bodyOffset = end
        ascii = false
        let text = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
        var sawFormat = false
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "format":
                guard words.count >= 2, ["ascii", "binary_little_endian"].contains(words[1]) else {
                    throw .unsupported("format \(words.dropFirst().joined(separator: " "))")
                }
                ascii = words[1] == "ascii"
                sawFormat = true
            case "element":
                guard words.count == 3, let count = Int(words[2]), count >= 0 else { throw .unsupported(String(line)) }
                elements.append(PLYElement(name: words[1], count: count, properties: []))
            case "property":
                guard !elements.isEmpty else { throw .unsupported("property before element") }
                if words.count == 5, words[1] == "list" {
                    elements[elements.count - 1].properties.append(PLYProperty(name: words[4], type: words[3], listCountType: words[2]))
                } else if words.count == 3 {
                    elements[elements.count - 1].properties.append(PLYProperty(name: words[2], type: words[1]))
                } else {
                    throw .unsupported(String(line))
                }
            default: continue
            }
        }
        guard sawFormat else { throw .unsupported("missing format line") }
    }
}

/// Reads the values of a PLY body, ASCII or binary little-endian.
struct PLYBody {
    let bytes: [UInt8]
    var offset: Int
    let ascii: Bool

    /// Position and colour (zero when the element has none) of one vertex.
    mutating func readVertex(_ element: PLYElement) throws(PLY.Error) -> (SIMD3<Double>, SIMD3<UInt8>) {
        var v = SIMD3<Double>.zero
        var c = SIMD3<UInt8>.zero
        for property in element.properties {
            if property.listCountType != nil { try skipList(property); continue }
            let value = try scalar(property.type)
            switch property.name {
            case "x": v.x = value
            case "y": v.y = value
            case "z": v.z = value
            case "red": c.x = Self.channel(value, property.type)
            case "green": c.y = Self.channel(value, property.type)
            case "blue": c.z = Self.channel(value, property.type)
            default: break
            }
        }
        return (v, c)
    }

    private static func channel(_ value: Double, _ type: String) -> UInt8 {
        let scaled = ["float", "float32", "double", "float64"].contains(type) ? value * 255 : value
        return UInt8(max(0, min(255, scaled.rounded())))
    }

    mutating func readFace(_ element: PLYElement, into mesh: inout TriangleMesh) throws(PLY.Error) {
        for property in element.properties {
            guard let countType = property.listCountType else { _ = try scalar(property.type); continue }
            let count = try listCount(countType)
            var indices: [Int32] = []
            for _ in 0..<count { indices.append(try Self.vertexIndex(try scalar(property.type))) }
            guard ["vertex_indices", "vertex_index"].contains(property.name), count >= 3 else { continue }
            for k in 1..<(count - 1) { mesh.faces.append(SIMD3(indices[0], indices[k], indices[k + 1])) }
        }
    }

    mutating func skip(_ element: PLYElement) throws(PLY.Error) {
        for property in element.properties {
            if property.listCountType != nil { try skipList(property) } else { _ = try scalar(property.type) }
        }
    }

    private mutating func skipList(_ property: PLYProperty) throws(PLY.Error) {
        guard let countType = property.listCountType else { return }
        let count = try listCount(countType)
        for _ in 0..<count { _ = try scalar(property.type) }
    }

    /// Longest list a polygon may have; a count beyond it (or not a whole number) is damage.
    static let maximumListCount = 1024

    /// A list's length, checked before anything traps on it: a count of 1e30 or -1 is refused.
    private mutating func listCount(_ type: String) throws(PLY.Error) -> Int {
        let value = try scalar(type)
        guard value.isFinite, value == value.rounded(), (0...Double(Self.maximumListCount)).contains(value) else {
            throw .unsupported("a list of \(value) entries (at most \(Self.maximumListCount))")
        }
        return Int(value)
    }

    /// A vertex index, refused when it is not a whole number in Int32's range (the caller checks
    /// it against the vertex count).
    static func vertexIndex(_ value: Double) throws(PLY.Error) -> Int32 {
        guard value.isFinite, value == value.rounded(), value >= Double(Int32.min), value <= Double(Int32.max) else {
            throw .unsupported("vertex index \(value) is not a whole number of a vertex")
        }
        return Int32(value)
    }

    private mutating func scalar(_ type: String) throws(PLY.Error) -> Double {
        if ascii { return try asciiNumber() }
        switch type {
        case "char", "int8": return Double(Int8(bitPattern: try raw(UInt8.self)))
        case "uchar", "uint8": return Double(try raw(UInt8.self))
        case "short", "int16": return Double(Int16(bitPattern: try raw(UInt16.self)))
        case "ushort", "uint16": return Double(try raw(UInt16.self))
        case "int", "int32": return Double(Int32(bitPattern: try raw(UInt32.self)))
        case "uint", "uint32": return Double(try raw(UInt32.self))
        case "float", "float32": return Double(Float(bitPattern: try raw(UInt32.self)))
        case "double", "float64": return Double(bitPattern: try raw(UInt64.self))
        default: throw .unsupported("property type \(type)")
        }
    }

    private mutating func raw<T: FixedWidthInteger>(_: T.Type) throws(PLY.Error) -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { throw .truncated }
        defer { offset += size }
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    private mutating func asciiNumber() throws(PLY.Error) -> Double {
        while offset < bytes.count, bytes[offset] == 32 || bytes[offset] == 10 || bytes[offset] == 13 || bytes[offset] == 9 {
            offset += 1
        }
        let start = offset
        while offset < bytes.count, !(bytes[offset] == 32 || bytes[offset] == 10 || bytes[offset] == 13 || bytes[offset] == 9) {
            offset += 1
        }
        guard start < offset, let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
            throw .truncated
        }
        return value
    }
}

/// A set of square binary codes, with OpenCV's bit layout, so IDs match OpenCV's.
///
/// A code is the marker's inner `markerSize x markerSize` bits (black = 0, white = 1, as in
/// OpenCV), row by row from the top-left as drawn, the first bit most significant. The black
/// border around the code is not part of it.
public struct MarkerDictionary: Sendable, Hashable {
    /// OpenCV's name without the `DICT_` prefix, lower case (`4x4_50`, `apriltag_36h11`).
    public let name: String
    /// Bits per side of the code, without the border.
    public let markerSize: Int
    /// The most bit errors a code of this dictionary can correct (OpenCV's value).
    public let maxCorrectionBits: Int
    /// The codes, indexed by marker ID.
    public let codes: [UInt64]

    /// A custom dictionary; codes use the layout described on the type.
    public init(name: String, markerSize: Int, maxCorrectionBits: Int, codes: [UInt64]) {
        precondition((1...7).contains(markerSize), "codes are stored in 64 bits: markerSize 1...7")
        self.name = name
        self.markerSize = markerSize
        self.maxCorrectionBits = maxCorrectionBits
        self.codes = codes
    }

    /// Number of markers (IDs 0..<count).
    public var count: Int { codes.count }

    /// Names of OpenCV's predefined dictionaries, in OpenCV's enum order.
    public static let predefinedNames: [String] = predefinedData.map(\.name)

    /// All predefined dictionaries, decoded once.
    public static let predefined: [MarkerDictionary] = predefinedData.map { entry in
        let digits = (entry.markerSize * entry.markerSize + 3) / 4
        let hex = Array(entry.codes.utf8)
        var codes: [UInt64] = []
        codes.reserveCapacity(hex.count / digits)
        var start = 0
        while start + digits <= hex.count {
            var value: UInt64 = 0
            for c in hex[start..<(start + digits)] {
                let nibble = c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : c &- UInt8(ascii: "a") &+ 10
                value = value << 4 | UInt64(nibble)
            }
            codes.append(value)
            start += digits
        }
        return MarkerDictionary(
            name: entry.name, markerSize: entry.markerSize,
            maxCorrectionBits: entry.maxCorrectionBits, codes: codes)
    }

    /// OpenCV's DICT_4X4_100 (its enum value 1), the dictionary of the standard cap.
    public static var standardCap: MarkerDictionary { predefined[1] }

    /// The predefined dictionary called `name` (case-insensitive, `DICT_` prefix optional).
    public static func named(_ name: String) throws(MarkerError) -> MarkerDictionary {
        var key = name.lowercased()
        if key.hasPrefix("dict_") { key.removeFirst(5) }
        guard let found = predefined.first(where: { $0.name == key }) else {
            throw .unknownDictionary(name)
        }
        return found
    }

    /// The code of marker `id`, checked.
    public func code(id: Int) throws(MarkerError) -> UInt64 {
        guard id >= 0, id < codes.count else {
            throw .idOutOfRange(id: id, dictionary: name, count: codes.count)
        }
        return codes[id]
    }

    /// Bit `(row, column)` of `code`; true is white.
    @inlinable
    public func bit(_ code: UInt64, row: Int, column: Int) -> Bool {
        let index = row * markerSize + column
        return (code >> UInt64(markerSize * markerSize - 1 - index)) & 1 == 1
    }

    /// The code as seen after turning the marker a quarter turn clockwise: the bit drawn at
    /// (row, column) moves to (column, n-1-row).
    public func rotatedClockwise(_ code: UInt64) -> UInt64 {
        let n = markerSize
        var out: UInt64 = 0
        for row in 0..<n {
            for column in 0..<n {
                // Output bit (r, c) comes from input bit (n-1-c, r).
                let r = row, c = column
                out = out << 1 | (bit(code, row: n - 1 - c, column: r) ? 1 : 0)
            }
        }
        return out
    }

    /// The code turned `clockwiseTurns` quarter turns clockwise.
    public func rotated(_ code: UInt64, clockwiseTurns: Int) -> UInt64 {
        var out = code
        for _ in 0..<((clockwiseTurns % 4 + 4) % 4) { out = rotatedClockwise(out) }
        return out
    }

    /// The marker whose code is nearest to `observed`, over all four rotations, if its
    /// Hamming distance is at most `maxDistance`. `rotation` counts the clockwise quarter
    /// turns that map the marker as drawn onto the observation.
    public func identify(_ observed: UInt64, maxDistance: Int) -> (id: Int, rotation: Int, distance: Int)? {
        var rotations = [observed]
        for _ in 1..<4 { rotations.append(rotatedClockwise(rotations[rotations.count - 1])) }
        var best: (id: Int, rotation: Int, distance: Int)?
        for (id, code) in codes.enumerated() {
            for k in 0..<4 {
                let distance = (code ^ rotations[k]).nonzeroBitCount
                if distance <= maxDistance, distance < (best?.distance ?? Int.max) {
                    // rotations[k] is the observation turned k times clockwise; it equals the
                    // code, so the observation is the code turned (4 - k) % 4 times clockwise.
                    best = (id, (4 - k) % 4, distance)
                    if distance == 0 { return best }
                }
            }
        }
        return best
    }
}

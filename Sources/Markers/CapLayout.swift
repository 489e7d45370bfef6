import Foundation

/// Where on the head a marker sits; coverage of every region tells the scan is complete.
public enum HeadRegion: String, Sendable, Hashable, Codable, CaseIterable {
    case front, left, right, back, top
}

/// One marker on the cap.
public struct CapMarker: Sendable, Hashable, Codable {
    /// Its ID in the cap's dictionary.
    public var id: Int
    /// The part of the head it covers.
    public var region: HeadRegion

    /// A marker entry.
    public init(id: Int, region: HeadRegion) {
        self.id = id
        self.region = region
    }
}

/// The cap's description: which dictionary and IDs it carries, how large its markers are
/// printed, and which head region each marker sits on.
public struct CapLayout: Sendable, Hashable, Codable {
    /// The layout's name, as scan headers record it (the built-in cap is "standard-57").
    public var name: String
    /// Predefined dictionary name, as `MarkerDictionary.named` accepts it.
    public var dictionaryName: String
    /// Printed side of each marker (outer black border), in millimetres as on the print order.
    public var markerSideMillimetres: Double
    /// The markers, each ID once.
    public var markers: [CapMarker]

    /// A layout; call `validate()` before trusting one read from a file.
    public init(name: String = "custom", dictionaryName: String, markerSideMillimetres: Double, markers: [CapMarker]) {
        self.name = name
        self.dictionaryName = dictionaryName
        self.markerSideMillimetres = markerSideMillimetres
        self.markers = markers
    }

    /// Printed marker side in metres, the unit used inside the code.
    public var markerSide: Double { markerSideMillimetres / 1000 }

    /// The IDs in layout order.
    public var ids: [Int] { markers.map(\.id) }

    /// The cap's dictionary.
    public func dictionary() throws(MarkerError) -> MarkerDictionary {
        try MarkerDictionary.named(dictionaryName)
    }

    /// The region of marker `id`, or nil when the cap has no such marker.
    public func region(of id: Int) -> HeadRegion? {
        markers.first { $0.id == id }?.region
    }

    /// The IDs on `region`.
    public func ids(in region: HeadRegion) -> [Int] {
        markers.filter { $0.region == region }.map(\.id)
    }

    /// Checks that the dictionary exists, every ID is in it and appears once, and the size
    /// is positive.
    public func validate() throws(MarkerError) {
        let dictionary = try dictionary()
        guard markerSideMillimetres > 0 else {
            throw .invalidLayout("marker side must be positive, not \(markerSideMillimetres) mm")
        }
        guard !markers.isEmpty else { throw .invalidLayout("the cap has no markers") }
        var seen = Set<Int>()
        for marker in markers {
            _ = try dictionary.code(id: marker.id)
            guard seen.insert(marker.id).inserted else {
                throw .invalidLayout("marker ID \(marker.id) appears more than once")
            }
        }
    }

    /// The cap used in the study: 57 markers of 4x4_100 (IDs 0-56), 14 mm, 12 each on the
    /// front, both sides and the back and 9 on top. 4x4 codes have the largest cells for a
    /// given printed size, which matters for 12-20 px markers, and 4x4_100 is the smallest
    /// predefined 4x4 dictionary with 57 IDs, so its codes are as far apart as possible.
    public static let standard: CapLayout = {
        let regions: [(HeadRegion, Int)] = [(.front, 12), (.left, 12), (.right, 12), (.back, 12), (.top, 9)]
        var markers: [CapMarker] = []
        for (region, count) in regions {
            for _ in 0..<count { markers.append(CapMarker(id: markers.count, region: region)) }
        }
        return CapLayout(name: "standard-57", dictionaryName: "4x4_100", markerSideMillimetres: 14, markers: markers)
    }()

    private enum CodingKeys: String, CodingKey { case name, dictionaryName, markerSideMillimetres, markers }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name) ?? "custom",
            dictionaryName: try c.decode(String.self, forKey: .dictionaryName),
            markerSideMillimetres: try c.decode(Double.self, forKey: .markerSideMillimetres),
            markers: try c.decode([CapMarker].self, forKey: .markers))
    }

    /// Reads and validates a layout from JSON.
    public static func decode(json: [UInt8]) throws -> CapLayout {
        let layout = try JSONDecoder().decode(CapLayout.self, from: Data(json))
        try layout.validate()
        return layout
    }

    /// The layout as pretty-printed JSON with sorted keys.
    public func encodedJSON() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(self))
    }
}

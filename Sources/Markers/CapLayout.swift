import Foundation

/// Where on the head a marker sits; coverage of every region tells the scan is complete.
public enum HeadRegion: String, Sendable, Hashable, Codable, CaseIterable {
    case front, left, right, back, top
}

/// Where a marker sits on the template head: the direction from the head's centre, as the
/// simulator's head model uses it.
public struct CapPlacement: Sendable, Hashable, Codable {
    /// Angle around the head, degrees: 0 right ear, 90 forehead, 180 left ear, 270 back.
    public var azimuthDegrees: Double
    /// Angle above the ear-to-ear plane, degrees: 90 is the crown.
    public var elevationDegrees: Double

    /// A placement.
    public init(azimuthDegrees: Double, elevationDegrees: Double) {
        self.azimuthDegrees = azimuthDegrees
        self.elevationDegrees = elevationDegrees
    }
}

/// Where a marker's centre is printed on a flat board, millimetres: x to the right, y up, the
/// marker upright (its top edge toward +y). Any origin.
public struct BoardPosition: Sendable, Hashable, Codable {
    public var xMillimetres: Double
    public var yMillimetres: Double

    public init(xMillimetres: Double, yMillimetres: Double) {
        self.xMillimetres = xMillimetres
        self.yMillimetres = yMillimetres
    }
}

/// One marker on the cap.
public struct CapMarker: Sendable, Hashable, Codable {
    /// Its ID in the cap's dictionary.
    public var id: Int
    /// The part of the head it covers.
    public var region: HeadRegion
    /// Its printed side in millimetres when it differs from the cap's `markerSideMillimetres`.
    public var sideMillimetres: Double?
    /// Where it sits on the template head; without one, the region's next free spot is used.
    public var placement: CapPlacement?
    /// Where it is printed on a flat board (board layouts only): what a phone check measures
    /// the board's size by.
    public var boardPosition: BoardPosition?

    /// A marker entry.
    public init(
        id: Int, region: HeadRegion, sideMillimetres: Double? = nil, placement: CapPlacement? = nil, boardPosition: BoardPosition? = nil
    ) {
        self.id = id
        self.region = region
        self.sideMillimetres = sideMillimetres
        self.placement = placement
        self.boardPosition = boardPosition
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

    /// Printed side of marker `id` in metres: its own size when the layout gives one.
    public func side(of id: Int) -> Double {
        (markers.first { $0.id == id }?.sideMillimetres).map { $0 / 1000 } ?? markerSide
    }

    /// Printed sides in metres of the markers whose size differs from `markerSide`, by ID.
    public var sideOverrides: [Int: Double] {
        var sides: [Int: Double] = [:]
        for marker in markers {
            if let mm = marker.sideMillimetres, mm != markerSideMillimetres { sides[marker.id] = mm / 1000 }
        }
        return sides
    }

    /// The region of marker `id`, or nil when the cap has no such marker.
    public func region(of id: Int) -> HeadRegion? {
        markers.first { $0.id == id }?.region
    }

    /// The IDs on `region`.
    public func ids(in region: HeadRegion) -> [Int] {
        markers.filter { $0.region == region }.map(\.id)
    }

    /// Checks that the dictionary exists, every ID is in it and appears once, and every size
    /// is positive; throws with every problem found.
    public func validate() throws(MarkerError) {
        let found = problems()
        guard found.isEmpty else { throw .invalidLayout(found.joined(separator: "; ")) }
    }

    /// Everything wrong with the layout, each worded so it can be fixed in the file; empty
    /// when it is usable.
    public func problems() -> [String] {
        var problems: [String] = []
        if name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("the name is empty; give the cap a name") }
        let dictionary: MarkerDictionary?
        do {
            dictionary = try self.dictionary()
        } catch {
            dictionary = nil
            problems.append(
                "dictionary \"\(dictionaryName)\" is unknown; use one of \(MarkerDictionary.predefinedNames.joined(separator: ", "))")
        }
        if !(markerSideMillimetres > 0) || !markerSideMillimetres.isFinite {
            problems.append("markerSideMillimetres must be a positive number of millimetres, not \(markerSideMillimetres)")
        }
        if markers.isEmpty { problems.append("the cap has no markers; list at least one under \"markers\"") }
        var seen = Set<Int>()
        var duplicates: [Int] = []
        var outside: [Int] = []
        for marker in markers {
            if !seen.insert(marker.id).inserted, !duplicates.contains(marker.id) { duplicates.append(marker.id) }
            if let dictionary, marker.id < 0 || marker.id >= dictionary.count, !outside.contains(marker.id) {
                outside.append(marker.id)
            }
            if let side = marker.sideMillimetres, !(side > 0) || !side.isFinite {
                problems.append("marker \(marker.id): sideMillimetres must be positive, not \(side)")
            }
            if let placement = marker.placement {
                if !(-90...90).contains(placement.elevationDegrees) {
                    problems.append("marker \(marker.id): elevationDegrees must lie in -90...90, not \(placement.elevationDegrees)")
                }
                if !placement.azimuthDegrees.isFinite {
                    problems.append("marker \(marker.id): azimuthDegrees must be a number")
                }
            }
            if let position = marker.boardPosition, !(position.xMillimetres.isFinite && position.yMillimetres.isFinite) {
                problems.append("marker \(marker.id): boardPosition needs finite xMillimetres and yMillimetres")
            }
        }
        for id in duplicates { problems.append("marker ID \(id) appears more than once") }
        if let dictionary, !outside.isEmpty {
            problems.append(
                "marker IDs \(outside.map(String.init).joined(separator: ", ")) are not in dictionary \(dictionaryName), which has IDs 0-\(dictionary.count - 1)"
            )
        }
        return problems
    }

    /// The cap used in the study: 57 markers of 4x4_100 (IDs 0-56), 14 mm, 12 each on the
    /// front, both sides and the back and 9 on top. 4x4 codes have the largest cells for a
    /// given printed size, which matters for 12-20 px markers, and 4x4_100 is the smallest
    /// predefined 4x4 dictionary with 57 IDs, so its codes are as far apart as possible.
    /// The built-in cap: twelve markers on each of the front, left, right and back in three
    /// rings (4° below, 14° and 30° above the widest outline, four per ring, alternate rings
    /// turned by 11.25°) and nine on top (a ring of eight at 52° and one on the crown).
    public static let standard: CapLayout = {
        let regions: [(HeadRegion, Int)] = [(.front, 12), (.left, 12), (.right, 12), (.back, 12), (.top, 9)]
        var markers: [CapMarker] = []
        for (region, _) in regions {
            for placement in standardPlacements(region) {
                markers.append(CapMarker(id: markers.count, region: region, placement: placement))
            }
        }
        return CapLayout(name: "standard-57", dictionaryName: MarkerDictionary.standardCap.name, markerSideMillimetres: 14, markers: markers)
    }()

    /// Where the built-in cap's markers of `region` sit, in ID order.
    static func standardPlacements(_ region: HeadRegion) -> [CapPlacement] {
        if region == .top {
            return [CapPlacement(azimuthDegrees: 0, elevationDegrees: 90)]
                + (0..<8).map { CapPlacement(azimuthDegrees: Double($0) * 45 + 22.5, elevationDegrees: 52) }
        }
        let centre: Double =
            switch region {
            case .right: 0
            case .front: 90
            case .left: 180
            default: 270
            }
        return [(-4.0, 11.25), (14, 0), (30, 11.25)].flatMap { ring in
            [-45.0, -22.5, 0, 22.5].map { CapPlacement(azimuthDegrees: centre + $0 + ring.1, elevationDegrees: ring.0) }
        }
    }

    /// The markers right above an ear (within 15° of its side, no more than 15° above the widest
    /// outline, so their normals are nearly level with the ear's), the
    /// ones whose view tells that the ear faces the camera; all of the region's markers when
    /// the layout does not say where they sit.
    public func earMarkers(_ region: HeadRegion) -> [Int] {
        let side: Double = region == .right ? 0 : 180
        let inRegion = markers.filter { $0.region == region }
        guard inRegion.allSatisfy({ $0.placement != nil }) else { return inRegion.map(\.id) }
        return inRegion.filter { marker in
            guard let p = marker.placement else { return false }
            var off = (p.azimuthDegrees - side).truncatingRemainder(dividingBy: 360)
            if off > 180 { off -= 360 } else if off < -180 { off += 360 }
            return abs(off) <= 15 && p.elevationDegrees <= 15
        }.map(\.id)
    }

    private enum CodingKeys: String, CodingKey { case name, dictionaryName, markerSideMillimetres, markers }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name) ?? "custom",
            dictionaryName: try c.decode(String.self, forKey: .dictionaryName),
            markerSideMillimetres: try c.decode(Double.self, forKey: .markerSideMillimetres),
            markers: try c.decode([CapMarker].self, forKey: .markers))
    }

    /// Reads and validates a layout from JSON; a malformed file is reported with the key or
    /// value at fault.
    public static func decode(json: [UInt8]) throws(MarkerError) -> CapLayout {
        let layout: CapLayout
        do {
            layout = try JSONDecoder().decode(CapLayout.self, from: Data(json))
        } catch let error as DecodingError {
            throw .invalidLayout(describe(error))
        } catch {
            throw .invalidLayout("the file is not JSON (\(error.localizedDescription))")
        }
        try layout.validate()
        return layout
    }

    /// A decoding error as a sentence about the file.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        let regions = HeadRegion.allCases.map(\.rawValue).joined(separator: ", ")
        switch error {
        case .keyNotFound(let key, let context):
            let at = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
            return
                "\"\(key.stringValue)\" is missing\(at); a layout needs name, dictionaryName, markerSideMillimetres and markers (each with id and region)"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null but should be \(describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.last?.stringValue == "region" {
                return "\(path(context.codingPath)) is not a head region; use one of \(regions)"
            }
            return context.codingPath.isEmpty
                ? "the file is not valid JSON"
                : "\(path(context.codingPath)) is invalid: \(context.debugDescription)"
        @unknown default:
            return "the file could not be read as a cap layout"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [CapMarker].Type: "a list of markers"
        default: "\(type)"
        }
    }

    /// The layout as pretty-printed JSON with sorted keys.
    public func encodedJSON() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(self))
    }
}

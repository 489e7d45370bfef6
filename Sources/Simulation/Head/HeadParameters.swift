import Foundation

/// Which side of the back of the head is flattened.
public enum FlatSide: String, Sendable, Codable, CaseIterable {
    case left, right
}

/// The measurements a simulated head is built to have, and its general proportions.
///
/// Frame of the head (and of its mesh): origin at the midpoint between the tragions, x toward
/// the infant's right ear, y forward (toward the nose), z up. The reference plane through
/// both tragions and the nasion is z = 0. Lengths in millimetres, as clinicians give them.
public struct HeadParameters: Sendable, Codable, Equatable {
    /// Greatest front-to-back length of the head outline, in mm (infants: 120–160).
    public var lengthMM: Double
    /// Width / length × 100 of the outline (normal around 75–85; brachycephaly above 90).
    public var cranialIndex: Double
    /// Cranial vault asymmetry index in percent (0 = symmetric; severe above 11).
    public var cvai: Double
    /// The flattened side of the back of the head.
    public var flatSide: FlatSide
    /// Height of the widest outline above the reference plane, in mm.
    public var widestOutlineHeightMM: Double
    /// Height of the crown above the widest outline, in mm.
    public var crownHeightMM: Double
    /// Depth of the face and chin below the widest outline, in mm.
    public var faceDepthMM: Double
    /// How far the outline's centre lies in front of the ear-to-ear line, in mm.
    public var centreOffsetMM: Double
    /// Egg shape: how much wider the back is than the front (0 = ellipse).
    public var eggness: Double
    /// The outer ears' size, lean and protrusion (both ears alike).
    public var ears: EarShape

    /// A head of a typical 6-month-old: 140 mm long, cranial index 82, symmetric.
    public init(
        lengthMM: Double = 140, cranialIndex: Double = 82, cvai: Double = 0, flatSide: FlatSide = .right,
        widestOutlineHeightMM: Double = 30, crownHeightMM: Double = 85, faceDepthMM: Double = 100,
        centreOffsetMM: Double = 5, eggness: Double = 0.04, ears: EarShape = EarShape()
    ) {
        self.lengthMM = lengthMM
        self.cranialIndex = cranialIndex
        self.cvai = cvai
        self.flatSide = flatSide
        self.widestOutlineHeightMM = widestOutlineHeightMM
        self.crownHeightMM = crownHeightMM
        self.faceDepthMM = faceDepthMM
        self.centreOffsetMM = centreOffsetMM
        self.eggness = eggness
        self.ears = ears
    }

    private enum CodingKeys: String, CodingKey {
        case lengthMM, cranialIndex, cvai, flatSide, widestOutlineHeightMM, crownHeightMM, faceDepthMM, centreOffsetMM, eggness, ears
    }

    // Truth files written before ears were modelled have no `ears`: they read as the standard ear.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            lengthMM: try c.decode(Double.self, forKey: .lengthMM), cranialIndex: try c.decode(Double.self, forKey: .cranialIndex),
            cvai: try c.decode(Double.self, forKey: .cvai), flatSide: try c.decode(FlatSide.self, forKey: .flatSide),
            widestOutlineHeightMM: try c.decode(Double.self, forKey: .widestOutlineHeightMM),
            crownHeightMM: try c.decode(Double.self, forKey: .crownHeightMM), faceDepthMM: try c.decode(Double.self, forKey: .faceDepthMM),
            centreOffsetMM: try c.decode(Double.self, forKey: .centreOffsetMM), eggness: try c.decode(Double.self, forKey: .eggness),
            ears: try c.decodeIfPresent(EarShape.self, forKey: .ears) ?? EarShape())
    }

    /// Checks that the targets describe an infant head the model can build.
    public func validate() throws(SimulationError) {
        guard (100...180).contains(lengthMM) else { throw .invalidHead("length \(lengthMM) mm is outside 100–180 mm") }
        guard (60...110).contains(cranialIndex) else {
            throw .invalidHead("cranial index \(cranialIndex) is outside 60–110")
        }
        guard (0...20).contains(cvai) else { throw .invalidHead("CVAI \(cvai) % is outside 0–20 %") }
        guard widestOutlineHeightMM > 15, crownHeightMM > 40, faceDepthMM > 60 else {
            throw .invalidHead("vault proportions are too small to carry a cap")
        }
        if let problem = ears.problems().first { throw .invalidHead(problem) }
    }
}

/// Errors of the simulator, in words a user can act on.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
    /// The head parameters cannot be built.
    case invalidHead(String)
    /// The cap layout cannot be placed on the head.
    case invalidCap(String)
    /// An unknown scenario name.
    case unknownScenario(String)
    /// The marker board cannot be built.
    case invalidBoard(String)

    public var description: String {
        switch self {
        case .invalidHead(let why): "cannot build the head: \(why)"
        case .invalidCap(let why): "cannot place the cap: \(why)"
        case .invalidBoard(let why): "cannot build the board: \(why)"
        case .unknownScenario(let name):
            "unknown scenario '\(name)'; choose one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension SimulationError: LocalizedError {
    public var errorDescription: String? { description }
}

import Foundation
import Geometry

/// The four landmarks a measurement needs, in the mesh's frame (metres).
///
/// JSON form: `{"nasion":[x,y,z],"noseTip":[x,y,z],"leftTragion":[x,y,z],"rightTragion":[x,y,z]}`.
public struct HeadLandmarks: Sendable, Codable, Equatable {
    /// Deepest point between forehead and nose.
    public var nasion: SIMD3<Double>
    /// The nose tip (pronasale): where the nose stands out furthest from the face.
    public var noseTip: SIMD3<Double>
    /// The notch in front of the infant's left ear.
    public var leftTragion: SIMD3<Double>
    /// The notch in front of the infant's right ear.
    public var rightTragion: SIMD3<Double>

    /// Landmarks from their positions.
    public init(nasion: SIMD3<Double>, noseTip: SIMD3<Double>, leftTragion: SIMD3<Double>, rightTragion: SIMD3<Double>) {
        self.nasion = nasion
        self.noseTip = noseTip
        self.leftTragion = leftTragion
        self.rightTragion = rightTragion
    }

    private enum CodingKeys: String, CodingKey {
        case nasion, noseTip, leftTragion, rightTragion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func point(_ key: CodingKeys) throws -> SIMD3<Double> {
            let values = try container.decode([Double].self, forKey: key)
            guard values.count == 3, values.allSatisfy(\.isFinite) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.stringValue) must be three finite numbers [x, y, z] in metres")
            }
            return SIMD3(values[0], values[1], values[2])
        }
        self.init(
            nasion: try point(.nasion), noseTip: try point(.noseTip),
            leftTragion: try point(.leftTragion), rightTragion: try point(.rightTragion))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (key, p) in [(CodingKeys.nasion, nasion), (.noseTip, noseTip), (.leftTragion, leftTragion), (.rightTragion, rightTragion)] {
            try container.encode([p.x, p.y, p.z], forKey: key)
        }
    }

    /// Reads the JSON form, turning decoding failures into a message naming the bad field.
    public static func decode(json data: Data) throws(CephalometryError) -> HeadLandmarks {
        do {
            return try JSONDecoder().decode(HeadLandmarks.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .unreadableLandmarks("'\(key.stringValue)' is missing; give nasion, noseTip, leftTragion and rightTragion as [x, y, z] in metres")
        } catch let DecodingError.dataCorrupted(context) {
            throw .unreadableLandmarks(context.debugDescription)
        } catch let DecodingError.typeMismatch(_, context) {
            let field = context.codingPath.first?.stringValue ?? "the document"
            throw .unreadableLandmarks("\(field) has the wrong type; expected [x, y, z] numbers in metres")
        } catch {
            throw .unreadableLandmarks("not a landmarks JSON object (\(error))")
        }
    }

    /// The landmarks moved into another frame.
    public func transformed(by transform: RigidTransform) -> HeadLandmarks {
        HeadLandmarks(
            nasion: transform.apply(nasion), noseTip: transform.apply(noseTip),
            leftTragion: transform.apply(leftTragion), rightTragion: transform.apply(rightTragion))
    }

    /// Infants' tragions lie this far apart (metres); outside, a landmark is misplaced or the
    /// mesh is not in metres.
    public static let plausibleTragionDistance = 0.090...0.160
    /// The nasion lies at least this far in front of the ear line (metres).
    static let minimumNasionForward = 0.030
    /// The nasion lies on the mid-sagittal plane within this (metres).
    static let maximumNasionSideways = 0.020

    /// Doubts about where the landmarks are, judged in the head frame they define.
    public func plausibilityWarnings(in frame: HeadFrame) -> [MeasurementWarning] {
        var warnings: [MeasurementWarning] = []
        func warn(_ message: String) { warnings.append(MeasurementWarning(.implausibleLandmarks, message)) }
        let earDistance = length(rightTragion - leftTragion)
        if !Self.plausibleTragionDistance.contains(earDistance) {
            warn("the tragions are \(mm(earDistance)) mm apart, outside 90–160 mm; check both ear landmarks and that the mesh is in metres")
        }
        let n = frame.headFromMesh.apply(nasion)
        // The frame's forward axis points at the nasion, so its distance along the axis (the
        // part not along the ear line) is what can be too small.
        if n.y < Self.minimumNasionForward {
            warn("the nasion is only \(mm(n.y)) mm in front of the ear line (expected more than 30 mm); check the nasion")
        }
        if abs(n.x) > Self.maximumNasionSideways {
            warn("the nasion is \(mm(abs(n.x))) mm off the midline between the tragions; check the nasion and both tragions")
        }
        let tip = frame.headFromMesh.apply(noseTip)
        if tip.y <= n.y {
            warn("the nose tip is not in front of the nasion; check the nose tip")
        }
        if tip.z > 0 {
            warn("the nose tip lies above the plane of the tragions and nasion; left and right tragion may be swapped")
        }
        return warnings
    }
}

/// Metres as a millimetre string with one decimal.
func mm(_ metres: Double) -> String { String(format: "%.1f", metres * 1000) }

import Foundation
import Geometry

/// The four landmarks a measurement needs, in the mesh's frame (metres): the nasion (deepest
/// point between forehead and nose), the nose tip (pronasale), and the notch in front of the
/// infant's left and right ear (tragion).
///
/// JSON form: `{"nasion":[x,y,z],"noseTip":[x,y,z],"leftTragion":[x,y,z],"rightTragion":[x,y,z]}`.
public typealias HeadLandmarks = LandmarkSet<SIMD3<Double>>

extension SIMD3: LandmarkValue where Scalar == Double {
    /// Three finite numbers, metres.
    public static func decodeLandmark(
        from container: KeyedDecodingContainer<Landmark.CodingKeys>, _ landmark: Landmark
    ) throws -> SIMD3<Double> {
        let key = Landmark.CodingKeys(landmark)
        let values = try container.decode([Double].self, forKey: key)
        guard values.count == 3, values.allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(landmark.rawValue) must be three finite numbers [x, y, z] in metres")
        }
        return SIMD3(values[0], values[1], values[2])
    }

    public func encodeLandmark(into container: inout KeyedEncodingContainer<Landmark.CodingKeys>, _ landmark: Landmark) throws {
        try container.encode([x, y, z], forKey: Landmark.CodingKeys(landmark))
    }
}

extension LandmarkSet where Value == SIMD3<Double> {
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
        map { _, point in transform.apply(point) }
    }

    /// Infants' tragions lie this far apart (metres); outside, a landmark is misplaced or the
    /// mesh is not in metres.
    public static var plausibleTragionDistance: ClosedRange<Double> { 0.090...0.160 }
    /// The nasion lies at least this far in front of the ear line (metres).
    static var minimumNasionForward: Double { 0.030 }
    /// The nasion lies on the mid-sagittal plane within this (metres).
    static var maximumNasionSideways: Double { 0.020 }

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

import Foundation
import Markers

/// Which parts of the head's surface the camera has seen, for the guide without markers.
///
/// The surface is stood for by directions from the head's centre, evenly spread (a Fibonacci
/// sphere) from 15° below the ears' level up to the crown: the vault, the forehead, the ears
/// and the upper face; the chin and neck are not needed. A direction counts as seen once a
/// placed frame's camera looked at the head from within `viewAngle` of it. Each direction
/// belongs to a region as the cap's markers do: the top above 55°, else by its angle around
/// the head (right ear 0°, face 90°, left ear 180°, back 270°, each region ±45°). The face and
/// each ear count as seen when the camera itself was within `viewAngle` of them.
public struct HeadCoverage: Sendable, Equatable {
    /// Directions standing for the surface; 500 keep a region's share within a percent.
    public static let sampleCount = 500
    /// The lowest direction counted, radians below the ears' level.
    public static let lowestElevation = -15.0 * Double.pi / 180
    /// Above this elevation a direction belongs to the top.
    public static let topElevation = 55.0 * Double.pi / 180

    /// The cosine of the largest angle between a direction and the camera that sees it.
    private let cosine: Double
    private let directions: [SIMD3<Double>]
    private let regionOf: [Int]
    private let totals: [Int]
    private var seen: [Bool]
    private var regionSeen: [Int]
    /// Directions seen so far.
    public private(set) var seenCount = 0
    /// The features seen so far.
    public private(set) var features: Set<HeadFeature> = []

    /// An empty coverage, seeing each direction from up to `viewAngleDegrees` away.
    public init(viewAngleDegrees: Double) {
        cosine = cos(viewAngleDegrees * Double.pi / 180)
        var directions: [SIMD3<Double>] = []
        // A Fibonacci sphere, kept from the lowest elevation up.
        let all = 2 * Self.sampleCount
        let golden = Double.pi * (3 - 5.0.squareRoot())
        for i in 0..<all {
            let z = 1 - (Double(i) + 0.5) * 2 / Double(all)
            guard asin(z) >= Self.lowestElevation else { continue }
            let r = (1 - z * z).squareRoot()
            directions.append(SIMD3(r * cos(golden * Double(i)), r * sin(golden * Double(i)), z))
        }
        self.directions = directions
        regionOf = directions.map { HeadRegion.allCases.firstIndex(of: Self.region(of: $0)) ?? 0 }
        var totals = [Int](repeating: 0, count: HeadRegion.allCases.count)
        for r in regionOf { totals[r] += 1 }
        self.totals = totals
        seen = [Bool](repeating: false, count: directions.count)
        regionSeen = [Int](repeating: 0, count: totals.count)
    }

    /// Directions standing for the surface.
    public var total: Int { directions.count }

    /// The region a direction from the head's centre (head frame) belongs to.
    public static func region(of d: SIMD3<Double>) -> HeadRegion {
        let elevation = atan2(d.z, (d.x * d.x + d.y * d.y).squareRoot())
        if elevation >= topElevation { return .top }
        var azimuth = atan2(d.y, d.x) * 180 / Double.pi
        if azimuth < -45 { azimuth += 360 }
        switch azimuth {
        case ..<45: return .right
        case ..<135: return .front
        case ..<225: return .left
        default: return .back
        }
    }

    /// Where a feature lies from the head's centre (head frame): the face straight ahead, the
    /// ears straight out at their level.
    public static func direction(of feature: HeadFeature) -> SIMD3<Double> {
        switch feature {
        case .face: SIMD3(0, 1, 0)
        case .leftEar: SIMD3(-1, 0, 0)
        case .rightEar: SIMD3(1, 0, 0)
        }
    }

    /// Marks what a camera at `camera` (from the head's centre, head frame) sees; returns how
    /// many directions it saw first.
    @discardableResult
    public mutating func see(from camera: SIMD3<Double>) -> Int {
        let length = (camera * camera).sum().squareRoot()
        guard length > 0, length.isFinite else { return 0 }
        let towards = camera / length
        var new = 0
        for i in directions.indices where !seen[i] && (directions[i] * towards).sum() >= cosine {
            seen[i] = true
            regionSeen[regionOf[i]] += 1
            new += 1
        }
        seenCount += new
        for feature in HeadFeature.allCases where (Self.direction(of: feature) * towards).sum() >= cosine {
            features.insert(feature)
        }
        return new
    }

    /// The share of `region`'s surface seen.
    public func share(of region: HeadRegion) -> Double {
        guard let r = HeadRegion.allCases.firstIndex(of: region), totals[r] > 0 else { return 1 }
        return Double(regionSeen[r]) / Double(totals[r])
    }

    /// Directions of `region` seen, and how many it has.
    public func counts(of region: HeadRegion) -> (seen: Int, total: Int) {
        guard let r = HeadRegion.allCases.firstIndex(of: region) else { return (0, 0) }
        return (regionSeen[r], totals[r])
    }
}

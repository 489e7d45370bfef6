import Foundation
import Geometry
import Markers

extension MarkerMap {
    /// Where the head's nominal marker directions point, per region, when a marker has no
    /// placement: (azimuth, elevation) in degrees.
    static let regionDirections: [HeadRegion: (Double, Double)] = [
        .right: (0, 10), .front: (90, 10), .left: (180, 10), .back: (270, 10), .top: (0, 90),
    ]

    /// How far, as a share of the head's radius, the mapped markers may lie from the layout's
    /// places (root mean square) for the layout to tell how the head lies. A head is no
    /// sphere: the cap benchmark's heads (cranial index 72–98) lie 0.08–0.19 of the radius
    /// off; markers numbered as the cap's but laid out otherwise, 0.45.
    static let layoutMismatch = 1.0 / 3

    /// The head's rough frame from the cap: where the layout places each mapped marker on a
    /// sphere (from its placement, or its region's middle), fitted rigidly to where the map has
    /// it. Maps map coordinates into a frame with x toward the infant's right, y forward, z
    /// up, origin at the fitted sphere's centre. Nil with fewer than six mapped markers that
    /// the layout places, or when they lie nothing like the layout says (another cap's file);
    /// lost stickers do not tilt it, as they tilt the markers' mean.
    public func headFrame(layout: CapLayout) -> (headFromMap: RigidTransform, sphere: (centre: SIMD3<Double>, radius: Double))? {
        guard let sphere = fittedSphere() else { return nil }
        var nominal: [SIMD3<Double>] = [], mapped: [SIMD3<Double>] = [], placed: [Bool] = []
        for marker in layout.markers {
            guard let corners = corners[marker.id], corners.count == 4,
                let (azimuth, elevation) = marker.placement.map({ ($0.azimuthDegrees, $0.elevationDegrees) })
                    ?? Self.regionDirections[marker.region]
            else { continue }
            let a = azimuth * Double.pi / 180, e = elevation * Double.pi / 180
            nominal.append(SIMD3(cos(e) * cos(a), cos(e) * sin(a), sin(e)) * sphere.radius)
            mapped.append(corners.reduce(SIMD3<Double>.zero, +) / 4)
            placed.append(marker.placement != nil)
        }
        guard nominal.count >= 6, let fit = try? RigidAlignment.fit(from: nominal, to: mapped) else { return nil }
        // Only markers the layout places say whether it fits: a region's middle is half a
        // radius from most of the region's markers.
        let misfits = zip(nominal, mapped).enumerated().filter { placed[$0.offset] }.map { length(fit.apply($0.element.0) - $0.element.1) }
        if misfits.count >= 6, (misfits.map { $0 * $0 }.reduce(0, +) / Double(misfits.count)).squareRoot() > Self.layoutMismatch * sphere.radius {
            return nil
        }
        return (fit.transform.inverse, sphere)
    }

    /// How far below the lowest mapped sticker the cap's edge lies because its lowest rings
    /// were never seen (a cap that rode up and folded them under, or lost them): the height
    /// between the lowest ring seen and the layout's lowest, on the fitted sphere; 0 when the
    /// layout does not say where its stickers sit.
    public func unseenRingsDrop(layout: CapLayout, radius: Double) -> Double {
        let placed = layout.markers.compactMap { marker in marker.placement.map { (marker.id, $0.elevationDegrees) } }
        guard let layoutLowest = placed.map(\.1).min(),
            let seenLowest = placed.filter({ corners[$0.0]?.count == 4 }).map(\.1).min()
        else { return 0 }
        return radius * (sin(seenLowest * Double.pi / 180) - sin(layoutLowest * Double.pi / 180))
    }
}

import Foundation
import Geometry
import Markers

/// One printed marker glued flat onto the cap, in the head frame (metres).
public struct MarkerSticker: Sendable, Equatable {
    /// Marker ID in the cap's dictionary.
    public var id: Int
    /// The head region the layout assigns it to.
    public var region: HeadRegion
    /// Centre of the marker square.
    public var centre: SIMD3<Double>
    /// Outward normal of the sticker.
    public var normal: SIMD3<Double>
    /// Unit vector along the marker's top edge, left to right as printed.
    public var right: SIMD3<Double>
    /// Unit vector from the marker's bottom edge to its top edge.
    public var up: SIMD3<Double>
    /// Side of the black square, metres.
    public var side: Double
    /// What became of its print (smeared, torn, creased); nil for a clean sticker.
    public var damage: StickerDamage?

    /// The four outer corners of the black square in OpenCV's order: top-left, top-right,
    /// bottom-right, bottom-left as printed.
    public var corners: [SIMD3<Double>] {
        let h = side / 2
        return [
            centre - right * h + up * h, centre + right * h + up * h,
            centre + right * h - up * h, centre - right * h - up * h,
        ]
    }

    /// Corners of the paper around it, which adds a white margin of one cell on every side.
    func paperCorners(cells: Int) -> [SIMD3<Double>] {
        let h = side / 2 * Double(cells + 2) / Double(cells)
        return [
            centre - right * h + up * h, centre + right * h + up * h,
            centre + right * h - up * h, centre - right * h - up * h,
        ]
    }
}

/// The marker cap on a simulated head: where each marker of a `CapLayout` is glued.
///
/// Markers sit in three rings of sixteen around the vault (four per ring in each of the
/// front, left, back and right quarters) and nine on top (a ring of eight and one on the
/// crown), as flat squares touching the head at their centre.
public struct Cap: Sendable {
    /// The layout the cap carries.
    public let layout: CapLayout
    /// The markers still on the cap.
    public internal(set) var stickers: [MarkerSticker]
    /// IDs of markers that fell off.
    public let dropped: [Int]
    /// IDs of markers folded under a cap that rides up, or where a given head's surface cannot
    /// hold them flat (over an ear): on the cap, never seen.
    public let folded: [Int]
    /// Height of the cap's lower edge in the head frame (above ears and brows), metres.
    public static let lowerEdge = 0.012
    /// Where each sticker sits: azimuth and elevation (radians) of its spot on the head, by ID.
    let spots: [Int: SIMD2<Double>]
    /// How far stickers stand off the fabric: the thickness of label paper, metres.
    static let standOff = 0.0001

    /// Places `layout` on `head`, leaving out `dropped` IDs; `hair` lifts the stickers off the
    /// skull, and a cap that `ridesUp` has its lowest ring folded under (left out as well).
    public init(layout: CapLayout, head: any CapSurface, dropped: Set<Int> = []) throws(SimulationError) {
        try self.init(layout: layout, head: head, dropped: dropped, hair: nil, ridesUp: false)
    }

    init(layout: CapLayout, head: any CapSurface, dropped: Set<Int>, hair: HairField?, ridesUp: Bool) throws(SimulationError) {
        do { try layout.validate() } catch { throw .invalidCap("\(error)") }
        self.layout = layout
        self.dropped = layout.ids.filter(dropped.contains)
        var stickers: [MarkerSticker] = []
        var folded: [Int] = []
        var placedSpots: [Int: SIMD2<Double>] = [:]
        let deg = Double.pi / 180
        for region in HeadRegion.allCases {
            // Markers with a placement in the layout sit there; the others take the region's
            // spots in order.
            let placed = layout.markers.filter { $0.region == region && $0.placement != nil }
            let free = layout.markers.filter { $0.region == region && $0.placement == nil }
            let spots = Self.spots(in: region)
            guard free.count <= spots.count else {
                throw .invalidCap(
                    "\(free.count) markers without a placement on the \(region) region; the cap has room for \(spots.count) (give the others a placement)"
                )
            }
            let chosen =
                placed.map { ($0, (phi: $0.placement!.azimuthDegrees * deg, psi: $0.placement!.elevationDegrees * deg)) }
                + zip(free, spots).map { ($0, $1) }
            for (marker, spot) in chosen where !dropped.contains(marker.id) {
                guard !(ridesUp && spot.psi < 0), head.holdsSticker(phi: spot.phi, psi: spot.psi) else {
                    folded.append(marker.id)
                    continue
                }
                stickers.append(
                    Self.sticker(id: marker.id, region: region, at: spot, on: head, side: layout.side(of: marker.id), hair: hair))
                placedSpots[marker.id] = SIMD2(spot.phi, spot.psi)
            }
        }
        self.stickers = stickers.sorted { $0.id < $1.id }
        self.folded = folded.sorted()
        self.spots = placedSpots
    }

    /// Marker positions of a region as (outline angle, elevation) in radians.
    static func spots(in region: HeadRegion) -> [(phi: Double, psi: Double)] {
        let deg = Double.pi / 180
        if region == .top {
            var spots: [(phi: Double, psi: Double)] = [(0, 90 * deg)]
            for k in 0..<8 {
                let phi: Double = (Double(k) * 45 + 22.5) * deg
                spots.append((phi, 52 * deg))
            }
            return spots
        }
        let centre: Double =
            switch region {
            case .right: 0
            case .front: 90
            case .left: 180
            default: 270
            }
        let rings: [(psi: Double, offset: Double)] = [(-4, 11.25), (14, 0), (30, 11.25)]
        let steps: [Double] = [-45, -22.5, 0, 22.5]
        var spots: [(phi: Double, psi: Double)] = []
        for ring in rings {
            for step in steps {
                let phi: Double = (centre + step + ring.offset) * deg
                spots.append((phi, ring.psi * deg))
            }
        }
        return spots
    }

    /// A sticker tangent to the head at a spot, its top edge facing the crown.
    static func sticker(
        id: Int, region: HeadRegion, at spot: (phi: Double, psi: Double), on head: any CapSurface, side: Double, hair: HairField? = nil
    )
        -> MarkerSticker
    {
        let normal = head.surfaceNormal(phi: spot.phi, psi: spot.psi)
        let skin = head.surfacePoint(phi: spot.phi, psi: spot.psi)
        // On the crown "toward the crown" is undefined; there the top edge faces forward.
        let toward = spot.psi > 1.5 ? SIMD3<Double>(0, 1, 0) : SIMD3<Double>(0, 0, 1)
        let up = normalized(toward - normal * dot(toward, normal))
        let right = cross(up, normal)
        // The paper with its white margin (a cell of six on each side) rests on the surface's
        // highest points under it.
        let rest = head.restingLift(at: skin, normal: normal, right: right, up: up, halfWidth: side * 4 / 6)
        let centre = skin + normal * (standOff + rest + (hair?.standOff(toward: skin) ?? 0))
        return MarkerSticker(id: id, region: region, centre: centre, normal: normal, right: right, up: up, side: side)
    }
}

/// The cap's lower edge: the ring of stickers that sits over the forehead, above the ears and
/// on the neck, and the ring just above it. A cap too small rides up and folds that lowest ring
/// under (or leaves it on the hair above the ears) while the ring above still shows: what the
/// scan guide and the processing tell the therapist by.
public struct CapEdgeRings: Sendable, Equatable {
    /// IDs of the lowest ring's stickers.
    public var lowest: [Int]
    /// IDs of the stickers of the next ring up.
    public var above: [Int]
}

extension CapLayout {
    /// Stickers within this many degrees of elevation count as one ring.
    static let ringTolerance = 5.0
    /// The ring above the lowest is at most this much higher, degrees.
    static let nextRingReach = 25.0
    /// A lowest ring higher than this (degrees above the widest outline) is no lower edge.
    static let lowestEdgeElevation = 10.0

    /// The lowest ring and the one above it, from the stickers' placements; nil when the layout
    /// does not say where every sticker sits or has no ring near the widest outline (a board).
    public var edgeRings: CapEdgeRings? {
        let placed = markers.compactMap { marker in marker.placement.map { (marker.id, $0.elevationDegrees) } }
        guard placed.count == markers.count, let bottom = placed.map(\.1).min(), bottom <= Self.lowestEdgeElevation else {
            return nil
        }
        let lowest = placed.filter { $0.1 <= bottom + Self.ringTolerance }.map(\.0)
        let above = placed.filter { $0.1 > bottom + Self.ringTolerance && $0.1 <= bottom + Self.nextRingReach }.map(\.0)
        guard lowest.count >= 4, above.count >= 4 else { return nil }
        return CapEdgeRings(lowest: lowest, above: above)
    }
}

extension CapEdgeRings {
    /// A ring counts as shown when at least this share of it was seen.
    public static let shownShare = 0.75
    /// The lowest ring counts as missing when at most this share of it was seen.
    public static let missingShare = 0.125

    /// Whether the stickers `seen` say the cap sits too high: the ring above its edge shown,
    /// the edge itself (nearly) never seen.
    public func ridesUp(seen: Set<Int>) -> Bool {
        let shownAbove = Double(above.filter(seen.contains).count) / Double(above.count)
        let shownLowest = Double(lowest.filter(seen.contains).count) / Double(lowest.count)
        return shownAbove >= Self.shownShare && shownLowest <= Self.missingShare
    }
}

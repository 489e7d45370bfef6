import Geometry

/// Stickers on the cap whose code no frame could read (smeared, torn or creased prints), placed
/// by their outlines: each keyframe's unread outlines carried into the map by its pose, and
/// kept where several keyframes agree on one sticker-sized square on the cap that is not a
/// mapped marker.
/// They place no frame; they are flattened like the mapped stickers, so that a damaged sticker
/// does not stay standing off the head while its neighbours are lowered (one side's diagonal
/// would come out long).
struct UnreadStickers {
    /// Fewest keyframes that must see an outline at one place.
    var minimumViews = 3
    /// Farthest a sticker's centre may lie from the sphere fitted to the mapped markers, as a
    /// share of its radius: a head is no sphere (its markers lie up to a fifth of the radius
    /// off the layout's places), but a square on a hand or the clothes lies farther.
    var capShell = 0.25
    /// Outlines whose centres lie within this share of the printed side are one sticker.
    var sameStickerShare = 0.3
    /// An outline whose centre lies within this share of the printed side of a mapped marker's
    /// centre is that marker, read in other frames.
    var mappedShare = 0.75
    /// Most the views of one sticker may scatter (RMS of their centres), metres.
    var largestScatter = 0.0015

    /// The unread stickers' corners in the map's frame, in the order first seen.
    func locate(keyframes: [Keyframe], map: MarkerMap, side: Double) -> [[SIMD3<Double>]] {
        let mapped = map.ids.compactMap { map.corners[$0] }.map(Self.centre)
        let sphere = map.fittedSphere()
        var clusters: [(views: [[SIMD3<Double>]], keyframes: Set<Int>)] = []
        for keyframe in keyframes {
            for outline in keyframe.unread where outline.corners.count == 4 {
                let corners = outline.corners.map(keyframe.mapFromCamera.apply)
                let middle = Self.centre(corners)
                if mapped.contains(where: { length($0 - middle) < mappedShare * side }) { continue }
                if let sphere, abs(length(middle - sphere.centre) - sphere.radius) > capShell * sphere.radius { continue }
                if let k = clusters.firstIndex(where: { length(Self.centre($0.views.map(Self.centre)) - middle) < sameStickerShare * side }) {
                    // One keyframe's detector may report an outline twice (two threshold passes).
                    guard !clusters[k].keyframes.contains(keyframe.frameIndex) else { continue }
                    clusters[k].views.append(Self.aligned(corners, to: clusters[k].views[0]))
                    clusters[k].keyframes.insert(keyframe.frameIndex)
                } else {
                    clusters.append(([corners], [keyframe.frameIndex]))
                }
            }
        }
        return clusters.map(\.views).compactMap { views in
            guard views.count >= minimumViews else { return nil }
            let centres = views.map(Self.centre)
            let mean = Self.centre(centres)
            let scatter = (centres.map { dot($0 - mean, $0 - mean) }.reduce(0, +) / Double(centres.count)).squareRoot()
            guard scatter <= largestScatter else { return nil }
            return (0..<4).map { c in views.map { $0[c] }.reduce(SIMD3<Double>.zero, +) / Double(views.count) }
        }
    }

    static func centre(_ points: [SIMD3<Double>]) -> SIMD3<Double> {
        points.reduce(SIMD3<Double>.zero, +) / Double(max(1, points.count))
    }

    /// `corners` turned (cyclically, and reversed if need be: an unread code tells no
    /// orientation) to lie corner for corner on `reference`.
    static func aligned(_ corners: [SIMD3<Double>], to reference: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let orders = [corners, corners.reversed()].flatMap { c in (0..<4).map { r in (0..<4).map { c[($0 + r) % 4] } } }
        return orders.min { a, b in
            Self.squaredGap(a, reference) < Self.squaredGap(b, reference)
        } ?? corners
    }

    static func squaredGap(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> Double {
        zip(a, b).reduce(0) { $0 + dot($1.0 - $1.1, $1.0 - $1.1) }
    }
}

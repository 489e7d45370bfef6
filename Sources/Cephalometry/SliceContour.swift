import Geometry

/// The head's outline in one slice: the outer closed loop around the ear-line centre, with
/// any holes of the scan bridged by straight segments.
public struct SliceContour: Sendable, Equatable {
    /// The outline in the head frame's x–y (metres).
    public var polygon: Polygon2
    /// Indices `i` of the segments `points[i] → points[i + 1]` (wrapping) that bridge a hole
    /// rather than follow the surface.
    public var bridges: [Int]

    /// Total length of the bridged segments (metres).
    public var bridgedLength: Double {
        bridges.reduce(0) { sum, i in
            sum + distance(polygon.points[i], polygon.points[(i + 1) % polygon.points.count])
        }
    }

    /// Whether segment `index` bridges a hole.
    public func isBridge(_ index: Int) -> Bool { bridges.contains(index) }

    /// The loop around `centre` of greatest area once open chains are joined across gaps up to
    /// `maximumGap`, without any ear the slice passes through; nil when no loop surrounds the centre.
    static func outer(of chains: [Chain], around centre: SIMD2<Double>, maximumGap: Double) -> SliceContour? {
        loops(of: chains, maximumGap: maximumGap)
            .filter { $0.polygon.contains(centre) }
            .max { abs($0.polygon.signedArea) < abs($1.polygon.signedArea) }?
            .withoutEars(around: centre)
    }

    /// The loop of greatest area once open chains are joined across gaps up to `maximumGap`,
    /// wherever it lies: near the crown the outline need not surround the ear-line centre.
    static func largest(of chains: [Chain], maximumGap: Double) -> SliceContour? {
        loops(of: chains, maximumGap: maximumGap).max { abs($0.polygon.signedArea) < abs($1.polygon.signedArea) }
    }

    /// Closed loops, with open chains joined into loops where their gaps allow.
    private static func loops(of chains: [Chain], maximumGap: Double) -> [SliceContour] {
        var loops: [SliceContour] = []
        var open: [SliceContour] = []
        for chain in chains {
            let piece = SliceContour(polygon: Polygon2(chain.points), bridges: [])
            if chain.isClosed { loops.append(piece) } else if chain.points.count > 1 { open.append(piece) }
        }
        loops += closeGaps(open, maximumGap: maximumGap)
        return loops.filter { $0.polygon.points.count > 2 }
    }

    /// Joins open chains greedily at their nearest ends, closing a chain onto itself when its
    /// own ends are nearest; chains whose gaps stay wider than `maximumGap` are dropped.
    private static func closeGaps(_ chains: [SliceContour], maximumGap: Double) -> [SliceContour] {
        var open = chains
        var closed: [SliceContour] = []
        while !open.isEmpty {
            // (distance, i, j, end of i, end of j) where an end is false = start, true = last.
            var best: (gap: Double, i: Int, j: Int, iEnd: Bool, jEnd: Bool)?
            for i in open.indices {
                let a = open[i].polygon.points
                if a.count > 2 {
                    let gap = distance(a[0], a[a.count - 1])
                    if gap < best?.gap ?? .infinity { best = (gap, i, i, true, false) }
                }
                for j in open.indices where j > i {
                    let b = open[j].polygon.points
                    for (iEnd, p) in [(false, a[0]), (true, a[a.count - 1])] {
                        for (jEnd, q) in [(false, b[0]), (true, b[b.count - 1])] {
                            let gap = distance(p, q)
                            if gap < best?.gap ?? .infinity { best = (gap, i, j, iEnd, jEnd) }
                        }
                    }
                }
            }
            guard let join = best, join.gap <= maximumGap else { break }
            if join.i == join.j {
                var loop = open.remove(at: join.i)
                loop.bridges.append(loop.polygon.points.count - 1)
                closed.append(loop)
                continue
            }
            // Orient so that i's last point meets j's first point, then append.
            var first = open[join.i], second = open[join.j]
            if !join.iEnd { first.reverse() }
            if join.jEnd { second.reverse() }
            let junction = first.polygon.points.count - 1
            first.bridges.append(junction)
            first.bridges += second.bridges.map { $0 + junction + 1 }
            first.polygon.points += second.polygon.points
            open.remove(at: join.j)
            open[join.i] = first
        }
        return closed
    }

    /// Reverses the point order, renumbering the bridged segments of an open chain.
    private mutating func reverse() {
        let n = polygon.points.count
        polygon.points.reverse()
        bridges = bridges.map { n - 2 - $0 }
    }

    /// The farthest place where the ray from `origin` along `direction` crosses the outline:
    /// its distance and the segment crossed. For a star-shaped outline seen from inside, that
    /// is the outline itself, even where a concavity would give nearer crossings.
    func farthestCrossing(from origin: SIMD2<Double>, along direction: SIMD2<Double>) -> (distance: Double, segment: Int)? {
        let p = polygon.points
        var best: (distance: Double, segment: Int)?
        for i in p.indices {
            guard let t = Self.crossing(from: origin, along: direction, p[i], p[(i + 1) % p.count]) else { continue }
            if t > best?.distance ?? -1 { best = (t, i) }
        }
        return best
    }

    /// How far along the ray from `origin` along `direction` it crosses the segment from `a`
    /// to `b` (ends included, widened by `slack` of its length); nil when it misses, runs
    /// parallel or crosses behind `origin`.
    static func crossing(
        from origin: SIMD2<Double>, along direction: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>, slack: Double = 0
    ) -> Double? {
        guard let t = Polygon2.rayParameter(from: origin, along: direction, a, b, slack: slack), t >= 0 else { return nil }
        return t
    }
}

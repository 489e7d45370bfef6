/// A closed polygon in the plane (the last point connects back to the first).
public struct Polygon2: Sendable, Equatable {
    /// Corner points in order.
    public var points: [SIMD2<Double>]

    /// A polygon from its corners.
    public init(_ points: [SIMD2<Double>]) {
        self.points = points
    }

    /// Length of the boundary.
    public var perimeter: Double {
        guard points.count > 1 else { return 0 }
        var total = 0.0
        var previous = points[points.count - 1]
        for p in points {
            total += distance(previous, p)
            previous = p
        }
        return total
    }

    /// Length of the boundary measured in chords of about `chord` along it, as a tape laid
    /// round the outline reads it: wiggles much shorter than a chord (a mesh's facets,
    /// sensor noise) add to `perimeter` but not to this. On a smooth curve of radius r the
    /// chords fall short by only about (chord / r)² / 24 of the length.
    public func chordPerimeter(chord: Double) -> Double {
        let total = perimeter
        guard points.count > 2, chord > 0, total > 2 * chord else { return total }
        let count = Int((total / chord).rounded())
        let step = total / Double(count)
        // Points every `step` of arc length; chords between them.
        var samples: [SIMD2<Double>] = [points[0]]
        samples.reserveCapacity(count)
        var target = step, travelled = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            let length = distance(a, b)
            while target <= travelled + length, samples.count < count, length > 0 {
                samples.append(a + (b - a) * ((target - travelled) / length))
                target += step
            }
            travelled += length
        }
        return Polygon2(samples).perimeter
    }

    /// Signed area: positive when the corners run counter-clockwise.
    public var signedArea: Double {
        guard points.count > 2 else { return 0 }
        var twice = 0.0
        var previous = points[points.count - 1]
        for p in points {
            twice += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return twice / 2
    }

    /// Whether `p` lies inside (even-odd rule).
    public func contains(_ p: SIMD2<Double>) -> Bool {
        var inside = false
        var j = points.count - 1
        for i in points.indices {
            let a = points[i], b = points[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// Distance from `origin` along unit `direction` to the farthest boundary crossing; nil when
    /// the ray misses. For a star-shaped outline seen from inside, that is the outline itself.
    public func farthestHit(from origin: SIMD2<Double>, direction: SIMD2<Double>) -> Double? {
        var best: Double?
        var j = points.count - 1
        for i in points.indices {
            if let t = Self.intersect(origin, direction, points[j], points[i]), t >= 0 {
                best = max(best ?? t, t)
            }
            j = i
        }
        return best
    }

    /// Width of the polygon measured along unit `direction` (max minus min projection).
    public func extent(along direction: SIMD2<Double>) -> Double {
        let projections = points.map { ($0 * direction).sum() }
        guard let low = projections.min(), let high = projections.max() else { return 0 }
        return high - low
    }

    /// Ray parameter where the ray meets segment a–b, if it does.
    private static func intersect(_ o: SIMD2<Double>, _ d: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double? {
        rayParameter(from: o, along: d, a, b)
    }

    /// Where the line from `o` along `d` meets the segment a–b (its ends included, widened by
    /// `slack` of its length), as a multiple of `d` (negative behind `o`); nil when it misses
    /// or runs parallel.
    public static func rayParameter(
        from o: SIMD2<Double>, along d: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>, slack: Double = 0
    ) -> Double? {
        let e = b - a
        let denominator = d.x * e.y - d.y * e.x
        guard abs(denominator) > 1e-300 else { return nil }
        let w = a - o
        let t = (w.x * e.y - w.y * e.x) / denominator
        let u = (w.x * d.y - w.y * d.x) / denominator
        return u >= -slack && u <= 1 + slack ? t : nil
    }
}

/// Euclidean distance between two points.
@inlinable
public func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
}

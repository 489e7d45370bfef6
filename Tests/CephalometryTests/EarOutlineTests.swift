import Foundation
import Geometry
import Testing

@testable import Cephalometry

/// An ear the slice passes through must not count in the head's outline: real heads' ears
/// reach into the slices searched, where a drawn head's never did.
@Suite("Ears in the slice")
struct EarOutlineTests {
    /// Half width (x, to the right) and half length (y, forward) of the ellipse, metres.
    let b = 0.058, a = 0.072

    /// The ellipse, counter-clockwise from the right side, `count` corners.
    func ellipse(count: Int = 720, bulge: (Double) -> Double = { _ in 0 }) -> [SIMD2<Double>] {
        (0..<count).map { i in
            let t = 2 * Double.pi * Double(i) / Double(count)
            let grow = 1 + bulge(t)
            return SIMD2(b * cos(t), a * sin(t)) * grow
        }
    }

    /// The ellipse with an ear on each side: a flap `thick` across at its root, standing
    /// `out` from the skin and leaning back by `lean`, its root centred `rootY` in front of the
    /// tragion line.
    func eared(out: Double = 0.018, thick: Double = 0.006, lean: Double = 0.006, rootY: Double = -0.001) -> [SIMD2<Double>] {
        var points: [SIMD2<Double>] = []
        let low = rootY - thick / 2, high = rootY + thick / 2
        var inEar = [false, false]
        for p in ellipse() {
            let side = p.x > 0 ? 0 : 1
            let s: Double = p.x > 0 ? 1 : -1
            guard abs(p.x) > b / 2, p.y > low, p.y < high else {
                points.append(p)
                continue
            }
            if !inEar[side] {
                inEar[side] = true
                // Counter-clockwise, the right side runs up (y growing), the left side down.
                let (first, second) = s > 0 ? (low, high) : (high, low)
                let x1 = s * b * (1 - first * first / (a * a)).squareRoot(), x2 = s * b * (1 - second * second / (a * a)).squareRoot()
                points += [
                    SIMD2(x1, first), SIMD2(x1 + s * out, first - lean), SIMD2(x2 + s * out, second - lean), SIMD2(x2, second),
                ]
            }
        }
        return points
    }

    func outline(_ points: [SIMD2<Double>]) throws -> SliceContour {
        try #require(SliceContour.outer(of: [Chain(points: points, isClosed: true)], around: .zero, maximumGap: 0.03))
    }

    func width(_ c: SliceContour) -> Double {
        (c.polygon.points.map(\.x).max() ?? 0) - (c.polygon.points.map(\.x).min() ?? 0)
    }

    @Test("an outline without ears is kept point for point")
    func plainKept() throws {
        let points = ellipse()
        #expect(try outline(points).polygon.points == points)
    }

    @Test("a broad bulge at the side is the skull's and stays", arguments: [0.05, -0.05])
    func bulgeKept(amount: Double) throws {
        // A 5 % swelling (about 3 mm) over 70° at the right side: a parietal boss, not an ear.
        let points = ellipse { t in
            let d = atan2(sin(t), cos(t))
            return abs(d) < 0.6 ? amount * (1 + cos(d * Double.pi / 0.6)) / 2 : 0
        }
        #expect(try outline(points).polygon.points == points)
    }

    @Test("ears standing out and leaning back are cut at the root", arguments: [0.0, 0.006, 0.012])
    func earsCut(lean: Double) throws {
        let points = eared(lean: lean)
        let raw = Polygon2(points)
        let cut = try outline(points)
        // The ears lengthen the raw outline by twice their two faces.
        #expect(raw.perimeter - ramanujan(a, b) > 0.06)
        // Within 0.7 mm where the ears added 60 mm or more: the skin under a leaning ear's root
        // is bridged from the skin either side of it, a little wide of the ellipse.
        #expect(abs(cut.polygon.perimeter - ramanujan(a, b)) < 0.0007, "perimeter \(cut.polygon.perimeter) vs \(ramanujan(a, b))")
        #expect(abs(width(cut) - 2 * b) < 0.0007, "width \(width(cut))")
        #expect(cut.bridges.isEmpty)
    }

    @Test("a small ear, only 3.5 mm out, is cut as well")
    func smallEarCut() throws {
        let cut = try outline(eared(out: 0.0035, thick: 0.004, lean: 0))
        #expect(abs(width(cut) - 2 * b) < 0.0002, "width \(width(cut))")
    }

    @Test("an ear folded back against the head is cut with what it hides")
    func foldedEarCut() throws {
        // Leaning back further than it stands out: the rays see its front face first.
        let cut = try outline(eared(out: 0.01, thick: 0.004, lean: 0.02))
        #expect(abs(cut.polygon.perimeter - ramanujan(a, b)) < 0.0007)
        #expect(abs(width(cut) - 2 * b) < 0.0007)
    }

    /// The sliding least and greatest against the plain definition, on seeded outlines with
    /// gaps (NaN) of every length, windows from none to wider than the outline.
    @Test func theSlidingWindowKeepsWhatTheWholeWindowWouldKeep() {
        var random = SplitMix64(seed: 4711)
        for trial in 0..<200 {
            let count = 1 + Int(random.next() % 120), half = Int(random.next() % 30)
            let gapShare = Double(trial % 5) / 4
            let values = (0..<count).map { _ in
                Double(random.next() % 1000) / 1000 < gapShare ? Double.nan : Double(random.next() % 50) / 7
            }
            for keepsLeast in [true, false] {
                let slid = SliceContour.slide(values, half: half, keepsLeast: keepsLeast)
                for i in 0..<count {
                    var expected = Double.nan
                    if i >= half, i + half < count {
                        let known = values[(i - half)...(i + half)].filter { !$0.isNaN }
                        expected = (keepsLeast ? known.min() : known.max()) ?? .nan
                    }
                    #expect(slid[i] == expected || (slid[i].isNaN && expected.isNaN), "trial \(trial), index \(i)")
                }
            }
        }
    }
}

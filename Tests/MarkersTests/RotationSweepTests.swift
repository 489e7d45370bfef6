import Foundation
import Geometry
import Imaging
import Testing

@testable import Markers

/// Large, high-contrast markers must be found whatever their orientation in the raster: every
/// 3 degrees over the full circle, at several sizes and sub-pixel positions, seen frontally,
/// foreshortened and as trapezoids, blurred and noisy.
///
/// Foreshortened views are what used to fail: the quadrilateral fit took a point in the middle
/// of a side for a corner whenever the staircase of that side's pixels happened to put its
/// farthest point there, which depended on the picture's orientation.
@Suite struct RotationSweepTests {
    /// Marker outlines before turning, centred on the origin, for a marker of side 1: a
    /// frontal view with a slight tilt, one foreshortened to 45 % with a trapezoidal taper (a
    /// board seen at about 60 degrees), and one foreshortened to 65 %.
    static let views: [[SIMD2<Double>]] = [
        [SIMD2(-0.5, -0.47), SIMD2(0.48, -0.5), SIMD2(0.5, 0.5), SIMD2(-0.49, 0.48)],
        [SIMD2(-0.4, -0.225), SIMD2(0.4, -0.225), SIMD2(0.5, 0.225), SIMD2(-0.5, 0.225)],
        [SIMD2(-0.46, -0.325), SIMD2(0.5, -0.3), SIMD2(0.44, 0.325), SIMD2(-0.5, 0.3)],
    ]

    /// A marker of `dictionary` with its outer corners at `corners` on a `size` x `size`
    /// picture: white quiet zone of `quietZone` (fraction of the marker) on a gray background,
    /// 2 x 2 supersampled, then a 3x3 binomial blur and seeded noise of ±`noise` gray levels.
    /// Plain scalar arithmetic keeps it quick in debug builds.
    static func render(
        dictionary: MarkerDictionary, id: Int, corners: [SIMD2<Double>], size: Int, quietZone: Double = 0.12,
        noise: Int, generator: inout SplitMix64
    ) throws -> GrayImage {
        let toMarker = try #require(try Homography.unitSquare(to: corners).inverse).matrix
        let h = (0..<3).flatMap { r in (0..<3).map { c in toMarker[r, c] } }
        let code = try dictionary.code(id: id)
        let n = dictionary.markerSize
        let cells = Double(n + 2)
        var bits = [Bool](repeating: false, count: n * n)
        for r in 0..<n { for c in 0..<n { bits[r * n + c] = dictionary.bit(code, row: r, column: c) } }
        var sharp = [Int](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                var sum = 0
                for sy in 0..<2 {
                    for sx in 0..<2 {
                        let px = Double(x) - 0.25 + 0.5 * Double(sx), py = Double(y) - 0.25 + 0.5 * Double(sy)
                        let w = h[6] * px + h[7] * py + h[8]
                        let u = (h[0] * px + h[1] * py + h[2]) / w, v = (h[3] * px + h[4] * py + h[5]) / w
                        if u >= 0, u < 1, v >= 0, v < 1 {
                            let row = Int(v * cells), column = Int(u * cells)
                            let inner = row > 0 && column > 0 && row <= n && column <= n
                            sum += inner && bits[(row - 1) * n + column - 1] ? 255 : 0
                        } else if u > -quietZone, u < 1 + quietZone, v > -quietZone, v < 1 + quietZone {
                            sum += 255
                        } else {
                            sum += 120
                        }
                    }
                }
                sharp[y * size + x] = sum / 4
            }
        }
        var pixels = [UInt8](repeating: 0, count: size * size)
        let kernel = [1, 2, 1]
        for y in 0..<size {
            for x in 0..<size {
                var sum = 0
                for dy in -1...1 {
                    let sy = min(max(y + dy, 0), size - 1)
                    for dx in -1...1 {
                        let sx = min(max(x + dx, 0), size - 1)
                        sum += kernel[dx + 1] * kernel[dy + 1] * sharp[sy * size + sx]
                    }
                }
                let value = (sum + 8) / 16 + Int.random(in: -noise...noise, using: &generator)
                pixels[y * size + x] = UInt8(min(255, max(0, value)))
            }
        }
        return GrayImage(width: size, height: size, pixels: pixels)
    }

    /// Every 3 degrees (plus a seeded fraction) over the full circle, each step with the
    /// next of the three views and a seeded sub-pixel position, every marker must be found
    /// alone, with its ID and all corners within 1 px.
    @Test(arguments: [60.0, 90.0, 130.0, 200.0])
    func largeMarkersAreFoundAtEveryAngle(side: Double) throws {
        let dictionary = try MarkerDictionary.named("4x4_100")
        let detector = MarkerDetector(dictionary: dictionary)
        var generator = SplitMix64(seed: UInt64(side) &* 7919)
        let size = Int(side * 1.5) + 24
        var failures: [String] = []
        var worst = 0.0
        for step in 0..<120 {
            let degrees = Double(step) * 3 + Double.random(in: 0..<0.5, using: &generator)
            let angle = degrees * Double.pi / 180
            let shift = SIMD2(Double.random(in: 0..<1, using: &generator), Double.random(in: 0..<1, using: &generator))
            let centre = SIMD2(Double(size) / 2, Double(size) / 2) + shift
            let view = step % Self.views.count
            let corners = Self.views[view].map { p in
                centre + side * SIMD2(cos(angle) * p.x - sin(angle) * p.y, sin(angle) * p.x + cos(angle) * p.y)
            }
            let id = (step * 37 + Int(side)) % dictionary.count
            let image = try Self.render(
                dictionary: dictionary, id: id, corners: corners, size: size, noise: 6, generator: &generator)
            let found = detector.detect(in: image)
            guard found.count == 1, let marker = found.first, marker.id == id else {
                failures.append(String(format: "%.1f° view %d id %d: found %@", degrees, view, id, "\(found.map(\.id))"))
                continue
            }
            let error = maxCornerError(marker.corners, corners)
            worst = max(worst, error)
            if error > 1 { failures.append(String(format: "%.1f° view %d id %d: corner error %.2f px", degrees, view, id, error)) }
        }
        #expect(failures.isEmpty, "side \(side): \(failures.count) of 120 failed: \(failures.joined(separator: "; "))")
        #expect(worst < 1, "side \(side): worst corner error \(worst) px")
    }

    /// The fit itself, on a foreshortened outline whose far side is almost parallel to its
    /// longest: the corners come out at the outline's corners whichever point the contour
    /// starts from and whichever way the picture is mirrored.
    @Test func quadFitDoesNotDependOnTheContourStart() throws {
        // A trapezoid 100 x 35 px, the long side at the bottom, traced as a pixel outline.
        let corners: [SIMD2<Double>] = [SIMD2(30, 20), SIMD2(110, 22), SIMD2(120, 56), SIMD2(20, 54)]
        var outline: [SIMD2<Int32>] = []
        for k in 0..<4 {
            let p = corners[k], q = corners[(k + 1) % 4]
            let steps = Int(max(abs(q.x - p.x), abs(q.y - p.y)))
            for s in 0..<steps {
                let t = Double(s) / Double(steps)
                let point = SIMD2(Int32((p.x + (q.x - p.x) * t).rounded()), Int32((p.y + (q.y - p.y) * t).rounded()))
                if outline.last != point { outline.append(point) }
            }
        }
        let fitter = QuadFitter(accuracyRate: 0.03, minTolerance: 1, minSideRate: 0.05)
        for mirrored in [false, true] {
            let points = mirrored ? outline.reversed().map { SIMD2(200 - $0.x, $0.y) } : outline
            let truth = mirrored ? corners.map { SIMD2(200 - $0.x, $0.y) } : corners
            for start in stride(from: 0, to: points.count, by: 7) {
                let rotated = Array(points[start...] + points[..<start])
                let fitted = try #require(rotated.withUnsafeBufferPointer { fitter.fit($0) }, "start \(start) mirrored \(mirrored)")
                for corner in truth {
                    let nearest = fitted.map { (($0 - corner) * ($0 - corner)).sum().squareRoot() }.min() ?? .infinity
                    #expect(nearest < 1.5, "start \(start) mirrored \(mirrored): \(fitted)")
                }
            }
        }
    }
}

import Geometry
import Imaging
import Testing

@testable import Markers

/// Renders a marker seen under perspective, with its outer corners exactly at `corners`
/// (pixel centres at integers), by supersampling each pixel `samples` x `samples` times.
/// Outside the quiet zone, `backdrop` gives the gray level at a point (default: `background`).
func perspectiveScene(
    dictionary: MarkerDictionary, id: Int, corners: [SIMD2<Double>], width: Int, height: Int,
    background: UInt8 = 110, quietZone: Double = 0.25, samples: Int = 4,
    backdrop: ((SIMD2<Double>) -> Int)? = nil
) throws -> GrayImage {
    let toImage = try Homography.unitSquare(to: corners)
    let toMarker = try #require(toImage.inverse)
    let code = try dictionary.code(id: id)
    let n = dictionary.markerSize
    let cells = Double(n + 2)
    var image = GrayImage(width: width, height: height, repeating: background)
    for y in 0..<height {
        for x in 0..<width {
            var sum = 0
            for sy in 0..<samples {
                for sx in 0..<samples {
                    let p = SIMD2(
                        Double(x) - 0.5 + (Double(sx) + 0.5) / Double(samples),
                        Double(y) - 0.5 + (Double(sy) + 0.5) / Double(samples))
                    let m = toMarker.apply(p)
                    if m.x >= 0, m.x < 1, m.y >= 0, m.y < 1 {
                        let row = Int(m.y * cells), column = Int(m.x * cells)
                        let inner = row > 0 && column > 0 && row <= n && column <= n
                        sum += inner && dictionary.bit(code, row: row - 1, column: column - 1) ? 255 : 0
                    } else if m.x > -quietZone, m.x < 1 + quietZone, m.y > -quietZone, m.y < 1 + quietZone {
                        sum += 255
                    } else {
                        sum += backdrop?(p) ?? Int(background)
                    }
                }
            }
            image[x, y] = UInt8((sum + samples * samples / 2) / (samples * samples))
        }
    }
    return image
}

/// The image turned a quarter turn clockwise: pixel (x, y) moves to (height - 1 - y, x).
func rotatedClockwise(_ image: GrayImage) -> GrayImage {
    var out = GrayImage(width: image.height, height: image.width, repeating: 0)
    for y in 0..<image.height {
        for x in 0..<image.width { out[image.height - 1 - y, x] = image[x, y] }
    }
    return out
}

/// Where a point goes when its image of `height` rows is turned a quarter turn clockwise.
func rotatedClockwise(_ p: SIMD2<Double>, height: Int) -> SIMD2<Double> {
    SIMD2(Double(height - 1) - p.y, p.x)
}

/// Largest distance between corresponding corners.
func maxCornerError(_ a: [SIMD2<Double>], _ b: [SIMD2<Double>]) -> Double {
    zip(a, b).map { p, q in ((p - q) * (p - q)).sum().squareRoot() }.max() ?? .infinity
}

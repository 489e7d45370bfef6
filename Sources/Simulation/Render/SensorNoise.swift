import Geometry
import Imaging
import Recording

/// The sensor's imperfections: colour noise and 8-bit output, depth noise, Float16
/// quantisation and the places TrueDepth returns no depth.
enum SensorNoise {
    /// Approximately Gaussian noise with unit deviation from one random word (sum of four
    /// bytes: cheap, and plenty for sensor noise).
    @inline(__always)
    static func gaussian(_ word: UInt64) -> Float {
        let sum = Int(word & 0xFF) + Int((word >> 8) & 0xFF) + Int((word >> 16) & 0xFF) + Int((word >> 24) & 0xFF)
        return Float(sum - 510) / 147.8
    }

    /// Linear colour to 8-bit RGBA with per-channel noise.
    static func colourImage(_ colour: [SIMD3<Float>], width: Int, height: Int, sigma: Float, rng: inout Xoshiro256) -> RGBAImage {
        let pixels = colour.map { c -> RGBA8 in
            let word = sigma > 0 ? rng.next() : 0
            func channel(_ value: Float, _ shift: UInt64) -> UInt8 {
                let noise = sigma > 0 ? gaussian(word >> shift) * sigma : 0
                return UInt8(max(0, min(255, value * 255 + noise + 0.5)))
            }
            return RGBA8(r: channel(c.x, 0), g: channel(c.y, 8), b: channel(c.z, 16))
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Measured depth: true depth plus noise growing with distance squared, rounded to Float16,
    /// and NaN out of range, at grazing angles, along depth edges and at random dropouts.
    static func depthImage(
        trueDepth: [Float], faces: [Int32], planes: [SIMD4<Double>], rays: [SIMD2<Double>], roomDepth: [Float],
        width: Int, height: Int, sensor: SensorModel, rng: inout Xoshiro256
    ) -> DepthImage {
        let count = width * height
        var depth = [Float](repeating: .nan, count: count)
        let dropout = UInt64(sensor.dropoutRate * Double(UInt64.max >> 11)) << 11
        for i in 0..<count {
            let f = Int(faces[i])
            let z = f >= 0 ? trueDepth[i] : roomDepth[i]
            guard z >= sensor.minimumRange, z <= sensor.maximumRange else { continue }
            if f >= 0, sensor.grazingCosine > 0 {
                let n = planes[f], r = rays[i]
                let cosine = abs(n.x * r.x + n.y * r.y + n.z) / (r.x * r.x + r.y * r.y + 1).squareRoot()
                guard Float(cosine) >= sensor.grazingCosine else { continue }
            }
            let word = rng.next()
            guard dropout == 0 || word >= dropout else { continue }
            let sigma = sensor.depthNoiseAt40cm * (z / 0.4) * (z / 0.4)
            depth[i] = DepthQuantization.float16(z + gaussian(word >> 8) * sigma)
        }
        if sensor.edgeStep.isFinite { removeEdges(&depth, trueDepth: trueDepth, roomDepth: roomDepth, faces: faces, width: width, height: height, step: sensor.edgeStep) }
        return DepthImage(width: width, height: height, pixels: depth)
    }

    /// Clears pixels next to a depth step on either side, as the projector's shadow and the
    /// stereo matching do on a real sensor.
    private static func removeEdges(
        _ depth: inout [Float], trueDepth: [Float], roomDepth: [Float], faces: [Int32], width: Int, height: Int, step: Float
    ) {
        func z(_ i: Int) -> Float { faces[i] >= 0 ? trueDepth[i] : roomDepth[i] }
        var edge = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let here = z(i)
                if x + 1 < width, abs(z(i + 1) - here) > step || (z(i + 1).isInfinite != here.isInfinite) {
                    edge[i] = true; edge[i + 1] = true
                }
                if y + 1 < height, abs(z(i + width) - here) > step || (z(i + width).isInfinite != here.isInfinite) {
                    edge[i] = true; edge[i + width] = true
                }
            }
        }
        for i in edge.indices where edge[i] { depth[i] = .nan }
    }
}

/// Smears colour along the image motion during the exposure.
enum MotionBlur {
    /// Averages each pixel with its neighbours along `length` (pixels travelled during the
    /// exposure); nothing happens below a pixel and a half.
    static func apply(length: SIMD2<Double>, to colour: inout [SIMD3<Float>], width: Int, height: Int) {
        let travel = (length * length).sum().squareRoot()
        guard travel >= 1.5 else { return }
        let taps = min(15, Int(travel.rounded()))
        let stepX = length.x / Double(taps), stepY = length.y / Double(taps)
        let source = colour
        let weight = 1 / Float(taps + 1)
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD3<Float>.zero
                for t in 0...taps {
                    let offset = Double(t) - Double(taps) / 2
                    let sx = min(width - 1, max(0, x + Int((stepX * offset).rounded())))
                    let sy = min(height - 1, max(0, y + Int((stepY * offset).rounded())))
                    sum += source[sy * width + sx]
                }
                colour[y * width + x] = sum * weight
            }
        }
    }
}

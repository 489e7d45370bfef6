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
        return Float(sum - 510) * (1 / 147.8)
    }

    /// 65,536 Gaussian samples of unit deviation, drawn once: colour noise indexes it with 16
    /// random bits per channel, three channels from one random word, which halved its cost.
    static let gaussianTable: [Float] = {
        var rng = Xoshiro256(seed: 0x6761_7573_73)
        return (0..<65_536).map { _ in rng.gaussian() }
    }()

    /// Linear colour to 8-bit RGBA with per-channel noise.
    static func colourImage(_ colour: [SIMD3<Float>], width: Int, height: Int, sigma: Float, rng: inout Xoshiro256) -> RGBAImage {
        var pixels = [RGBA8](repeating: RGBA8(r: 0, g: 0, b: 0), count: colour.count)
        @inline(__always) func level(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value))) }
        colour.withUnsafeBufferPointer { colour in
            pixels.withUnsafeMutableBufferPointer { pixels in
                gaussianTable.withUnsafeBufferPointer { table in
                    for i in 0..<colour.count {
                        var value = colour[i] * 255 + 0.5
                        if sigma > 0 {
                            let word = rng.next()
                            let noise = SIMD3(
                                table[Int(word & 0xFFFF)], table[Int((word >> 16) & 0xFFFF)], table[Int((word >> 32) & 0xFFFF)])
                            value += noise * sigma
                        }
                        pixels[i] = RGBA8(r: level(value.x), g: level(value.y), b: level(value.z))
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Measured depth: true depth plus noise growing with distance squared, rounded to Float16,
    /// and NaN out of range, at grazing angles, along depth edges and at random dropouts.
    ///
    /// `rayScales` holds 1/|ray| per pixel for the grazing-angle test. `hair`, on a bare head:
    /// per pixel the chance of no depth from the hair there (0 elsewhere), and the hair's extra
    /// noise; only its pixels draw further random numbers, so a scene without it is unchanged.
    static func depthImage(
        trueDepth: [Float], faces: [Int32], planes: [SIMD4<Double>], rays: [SIMD2<Double>], rayScales: [Double],
        roomDepth: [Float], width: Int, height: Int, sensor: SensorModel, hair: (loss: [Float], noise: Float)? = nil,
        rng: inout Xoshiro256
    ) -> DepthImage {
        let count = width * height
        var depth = [Float](repeating: .nan, count: count)
        let dropout = UInt64(sensor.dropoutRate * Double(UInt64.max >> 11)) << 11
        let noiseScale = sensor.depthNoiseAt40cm / (0.4 * 0.4)
        let grazing = Double(sensor.grazingCosine)
        depth.withUnsafeMutableBufferPointer { depth in
            trueDepth.withUnsafeBufferPointer { trueDepth in
                roomDepth.withUnsafeBufferPointer { roomDepth in
                    faces.withUnsafeBufferPointer { faces in
                        for i in 0..<count {
                            let f = Int(faces[i])
                            let z = f >= 0 ? trueDepth[i] : roomDepth[i]
                            guard z >= sensor.minimumRange, z <= sensor.maximumRange else { continue }
                            if f >= 0, grazing > 0 {
                                let n = planes[f], r = rays[i]
                                guard abs(n.x * r.x + n.y * r.y + n.z) * rayScales[i] >= grazing else { continue }
                            }
                            let word = rng.next()
                            guard dropout == 0 || word >= dropout else { continue }
                            var measured = z * sensor.depthScale + gaussian(word >> 8) * noiseScale * z * z
                            if let hair, hair.loss.indices.contains(i), hair.loss[i] > 0 {
                                let strands = rng.next()
                                guard Float(strands >> 40) * 0x1p-24 >= hair.loss[i] else { continue }
                                measured += gaussian(strands) * hair.noise
                            }
                            depth[i] = DepthQuantization.float16(measured)
                        }
                    }
                }
            }
        }
        if sensor.edgeStep.isFinite {
            removeEdges(&depth, trueDepth: trueDepth, roomDepth: roomDepth, faces: faces, width: width, height: height, step: sensor.edgeStep)
        }
        return DepthImage(width: width, height: height, pixels: depth)
    }

    /// Clears pixels next to a depth step on either side, as the projector's shadow and the
    /// stereo matching do on a real sensor.
    private static func removeEdges(
        _ depth: inout [Float], trueDepth: [Float], roomDepth: [Float], faces: [Int32], width: Int, height: Int, step: Float
    ) {
        // The nearest surface's depth per pixel: the scene's, or the room's where nothing else is.
        let count = width * height
        let surface = [Float](unsafeUninitializedCapacity: count) { surface, initialized in
            faces.withUnsafeBufferPointer { faces in
                trueDepth.withUnsafeBufferPointer { trueDepth in
                    roomDepth.withUnsafeBufferPointer { roomDepth in
                        for i in 0..<count { surface[i] = faces[i] >= 0 ? trueDepth[i] : roomDepth[i] }
                    }
                }
            }
            initialized = count
        }
        var edge = [Bool](repeating: false, count: count)
        surface.withUnsafeBufferPointer { z in
            edge.withUnsafeMutableBufferPointer { edge in
                for y in 0..<height {
                    for x in 0..<width {
                        let i = y * width + x
                        let here = z[i]
                        if x + 1 < width, abs(z[i + 1] - here) > step || (z[i + 1].isInfinite != here.isInfinite) {
                            edge[i] = true; edge[i + 1] = true
                        }
                        if y + 1 < height, abs(z[i + width] - here) > step || (z[i + width].isInfinite != here.isInfinite) {
                            edge[i] = true; edge[i + width] = true
                        }
                    }
                }
            }
        }
        edge.withUnsafeBufferPointer { edge in
            depth.withUnsafeMutableBufferPointer { depth in
                for i in 0..<count where edge[i] { depth[i] = .nan }
            }
        }
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
        let offsets = (0...taps).map { t -> (x: Int, y: Int) in
            let offset = Double(t) - Double(taps) / 2
            return (Int((stepX * offset).rounded()), Int((stepY * offset).rounded()))
        }
        let reach = (x: offsets.map { abs($0.x) }.max() ?? 0, y: offsets.map { abs($0.y) }.max() ?? 0)
        let relative = offsets.map { $0.y * width + $0.x }
        let source = colour
        let weight = 1 / Float(taps + 1)
        source.withUnsafeBufferPointer { source in
            relative.withUnsafeBufferPointer { relative in
                colour.withUnsafeMutableBufferPointer { colour in
                    for y in 0..<height {
                        let rowInside = y >= reach.y && y < height - reach.y
                        for x in 0..<width {
                            var sum = SIMD3<Float>.zero
                            let i = y * width + x
                            if rowInside, x >= reach.x, x < width - reach.x {
                                // Every tap lies inside the picture: no clamping needed.
                                for r in relative { sum += source[i + r] }
                            } else {
                                for o in offsets {
                                    sum += source[min(height - 1, max(0, y + o.y)) * width + min(width - 1, max(0, x + o.x))]
                                }
                            }
                            colour[i] = sum * weight
                        }
                    }
                }
            }
        }
    }
}

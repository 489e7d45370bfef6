import Foundation
import Geometry
import Testing

@testable import Imaging

/// A deterministic test pattern with gradients and edges, so codecs see real structure.
private func pattern(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height, repeating: RGBA8(gray: 0))
    for y in 0..<height {
        for x in 0..<width {
            let edge: UInt8 = (x / 8 + y / 8) % 2 == 0 ? 40 : 0
            image[x, y] = RGBA8(
                r: UInt8((x * 255) / max(width - 1, 1)), g: UInt8((y * 255) / max(height - 1, 1)),
                b: UInt8(128) &+ edge, a: UInt8((x + y) % 256))
        }
    }
    return image
}

struct PNGCodecTests {
    let codec = ImageCodecs.system

    @Test func rgbaRoundTripIsExact() throws {
        let image = pattern(width: 37, height: 23)
        let decoded = try codec.decodePNG(try codec.encodePNG(.rgba8(image)))
        #expect(decoded == .rgba8(image))
    }

    @Test func rgbRoundTripIsExact() throws {
        let image = pattern(width: 16, height: 9).map(\.rgb)
        #expect(try codec.decodePNG(try codec.encodePNG(.rgb8(image))) == .rgb8(image))
    }

    @Test func gray8RoundTripIsExact() throws {
        let image = pattern(width: 31, height: 7).grayscale()
        #expect(try codec.decodePNG(try codec.encodePNG(.gray8(image))) == .gray8(image))
    }

    @Test func gray16RoundTripKeepsAllSixteenBits() throws {
        let pixels = (0..<(50 * 20)).map { UInt16(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
        let image = Gray16Image(width: 50, height: 20, pixels: pixels)
        #expect(try codec.decodePNG(try codec.encodePNG(.gray16(image))) == .gray16(image))
    }

    #if !canImport(ImageIO)
    @Test func sixteenBitsAreStoredBigEndianAsPNGRequires() throws {
        // Uncompressed deflate keeps the scanline literal, so the sample's bytes are visible;
        // a codec that forgot to swap would still round-trip with itself but not with others.
        let stored = LibImageCodec(pngCompressionLevel: 0)
        let bytes = try stored.encodePNG(.gray16(Gray16Image(width: 1, height: 1, pixels: [0xAB01])))
        #expect(bytes.firstRange(of: [0xAB, 0x01]) != nil)
        #expect(bytes.firstRange(of: [0x01, 0xAB]) == nil)
    }
    #endif

    @Test func printResolutionIsRecorded() throws {
        let bytes = try codec.encodePNG(.gray8(GrayImage(width: 2, height: 2, repeating: 9)), dotsPerInch: 300)
        // pHYs: 11811 pixels per metre (300 dpi) = 0x00002E23, unit 1 (metre).
        let marker: [UInt8] = Array("pHYs".utf8) + [0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 1]
        #expect(bytes.firstRange(of: marker) != nil)
    }

    @Test func emptyImageCannotBeEncoded() {
        #expect(throws: ImageCodecError.self) {
            try codec.encodePNG(.gray8(GrayImage(width: 0, height: 0, pixels: [])))
        }
    }

    @Test func garbageIsAnErrorNotACrash() throws {
        var generator = SplitMix64(seed: 7)
        let valid = try codec.encodePNG(.rgba8(pattern(width: 8, height: 8)))
        for trial in 0..<200 {
            var bytes = valid
            if trial % 2 == 0 {
                bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<4 { bytes[Int(generator.next() % UInt64(bytes.count))] ^= 0x5A }
            }
            _ = try? codec.decodePNG(bytes)
        }
        #expect(throws: ImageCodecError.self) { try codec.decodePNG([1, 2, 3]) }
    }
}

struct JPEGCodecTests {
    let codec = ImageCodecs.system

    @Test func roundTripStaysWithinCodecTolerance() throws {
        let image = pattern(width: 64, height: 48)
        let decoded = try codec.decodeJPEG(try codec.encodeJPEG(image, quality: 92))
        #expect(decoded.width == 64 && decoded.height == 48)
        var squaredError = 0.0
        for (a, b) in zip(image.pixels, decoded.pixels) {
            for (p, q) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] {
                squaredError += Double((Int(p) - Int(q)) * (Int(p) - Int(q)))
            }
            #expect(b.a == 255)
        }
        let rmse = (squaredError / Double(image.count * 3)).squareRoot()
        #expect(rmse < 4, "JPEG q92 RMSE \(rmse) is too large")
    }

    #if !canImport(ImageIO)
    /// Blotches of two colours with soft edges, as a printed cap's: decoded with the colour
    /// interpolated, the colour lies nearer the original than repeated over 2×2 pixels, and
    /// the brightness is the same either way.
    @Test func interpolatedChromaIsTheColourSeen() throws {
        let navy = SIMD3<Double>(36, 51, 117), orange = SIMD3<Double>(235, 143, 51)
        let pixels = (0..<(96 * 96)).map { i -> RGBA8 in
            let x = Double(i % 96), y = Double(i / 96)
            let wave: Double = sin(x * 0.23) * sin(y * 0.19 + 0.4)
            let share: Double = min(1, max(0, 0.5 + 2 * wave))
            let c = navy * share + orange * (1 - share)
            return RGBA8(r: UInt8(c.x.rounded()), g: UInt8(c.y.rounded()), b: UInt8(c.z.rounded()))
        }
        let image = RGBAImage(width: 96, height: 96, pixels: pixels)
        let bytes = try LibImageCodec().encodeJPEG(image, quality: 92)
        let repeated = try LibImageCodec().decodeJPEG(bytes), interpolated = try LibImageCodec(interpolatesChroma: true).decodeJPEG(bytes)
        func chromaError(_ decoded: RGBAImage) -> Double {
            func chroma(_ p: RGBA8) -> Double { (Double(p.r) - Double(p.b)) / max(1, Double(p.r) + Double(p.g) + Double(p.b)) }
            return zip(image.pixels, decoded.pixels).map { abs(chroma($0) - chroma($1)) }.reduce(0, +) / Double(image.count)
        }
        #expect(chromaError(interpolated) < chromaError(repeated), "\(chromaError(interpolated)) against \(chromaError(repeated))")
        func luma(_ p: RGBA8) -> Double { 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b) }
        let lumaDifference = zip(repeated.pixels, interpolated.pixels).map { abs(luma($0) - luma($1)) }.reduce(0, +) / Double(image.count)
        #expect(lumaDifference < 2, "brightness differs by \(lumaDifference) levels")
    }
    #endif

    @Test func higherQualityIsLargerAndCloser() throws {
        let image = pattern(width: 64, height: 64)
        let low = try codec.encodeJPEG(image, quality: 30)
        let high = try codec.encodeJPEG(image, quality: 95)
        #expect(low.count < high.count)
    }

    @Test func decodeAnyTellsFormatsApart() throws {
        let image = pattern(width: 8, height: 8)
        #expect(try codec.decodeAny(try codec.encodePNG(.rgba8(image))) == image)
        #expect(try codec.decodeAny(try codec.encodeJPEG(image, quality: 90)).width == 8)
        #expect(throws: ImageCodecError.self) { try codec.decodeAny(Array("hello".utf8)) }
    }

    @Test func truncatedJPEGIsAnErrorOrPartialImageNeverACrash() throws {
        let bytes = try codec.encodeJPEG(pattern(width: 32, height: 32), quality: 80)
        for cut in stride(from: 0, to: bytes.count, by: 37) {
            _ = try? codec.decodeJPEG(Array(bytes.prefix(cut)))
        }
        #expect(throws: ImageCodecError.self) { try codec.decodeJPEG([0xFF, 0xD8, 0xFF]) }
    }
}

struct PixelTests {
    @Test func lumaMatchesOpenCVWeights() {
        #expect(RGBA8(r: 255, g: 255, b: 255).luma == 255)
        #expect(RGBA8(r: 0, g: 0, b: 0).luma == 0)
        // OpenCV: 0.299 R + 0.587 G + 0.114 B, rounded: 76, 150, 29.
        #expect(RGBA8(r: 255, g: 0, b: 0).luma == 76)
        #expect(RGBA8(r: 0, g: 255, b: 0).luma == 150)
        #expect(RGBA8(r: 0, g: 0, b: 255).luma == 29)
    }

    @Test func bgraRoundTrip() {
        let image = pattern(width: 5, height: 3)
        #expect(image.bgra().rgba() == image)
        #expect(image.bgra()[1, 2].b == image[1, 2].b)
    }
}

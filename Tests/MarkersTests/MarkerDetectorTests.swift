import Foundation
import Geometry
import Imaging
import Testing

@testable import Markers

@Suite struct MarkerDetectorTests {
    /// A few IDs per dictionary keep the debug-build run short while touching both ends.
    func sampleIDs(_ dictionary: MarkerDictionary) -> [Int] {
        [0, dictionary.count / 2, dictionary.count - 1]
    }

    /// Whether the code looks the same after a half turn, so its orientation is ambiguous.
    func isHalfTurnSymmetric(_ dictionary: MarkerDictionary, _ id: Int) -> Bool {
        let code = dictionary.codes[id]
        return dictionary.rotatedClockwise(dictionary.rotatedClockwise(code)) == code
    }

    @Test(arguments: MarkerDictionary.predefinedNames)
    func everyDictionaryRoundTripsInAllRotations(name: String) throws {
        let dictionary = try MarkerDictionary.named(name)
        let renderer = MarkerRenderer(dictionary: dictionary)
        let detector = MarkerDetector(dictionary: dictionary)
        let cells = dictionary.markerSize + 2
        let side = cells * 4, quiet = 10
        for id in sampleIDs(dictionary) {
            var image = try renderer.marker(id: id, side: side, quietZone: quiet)
            let low = Double(quiet) - 0.5, high = Double(quiet + side) - 0.5
            var expected: [SIMD2<Double>] = [SIMD2(low, low), SIMD2(high, low), SIMD2(high, high), SIMD2(low, high)]
            for turn in 0..<4 {
                let found = detector.detect(in: image)
                #expect(found.count == 1, "\(name) id \(id) turn \(turn)")
                if let marker = found.first {
                    #expect(marker.id == id, "\(name) id \(id) turn \(turn)")
                    // A half-turn symmetric code may come back in either of its two orientations.
                    let halfTurn = (0..<4).map { expected[($0 + 2) % 4] }
                    let error =
                        isHalfTurnSymmetric(dictionary, id)
                        ? min(maxCornerError(marker.corners, expected), maxCornerError(marker.corners, halfTurn))
                        : maxCornerError(marker.corners, expected)
                    #expect(error < 0.05, "\(name) id \(id) turn \(turn)")
                }
                let height = image.height
                image = rotatedClockwise(image)
                expected = expected.map { rotatedClockwise($0, height: height) }
            }
        }
    }

    @Test func axisAlignedCornersAreExact() throws {
        let dictionary = try MarkerDictionary.named("4x4_100")
        let renderer = MarkerRenderer(dictionary: dictionary)
        var image = GrayImage(width: 160, height: 120, repeating: 90)
        // White quiet zones around each marker, on a mid-gray background.
        for (x0, y0, side) in [(10, 12, 66), (100, 20, 24), (96, 70, 13)] {
            for y in (y0 - 5)..<(y0 + side + 5) { for x in (x0 - 5)..<(x0 + side + 5) { image[x, y] = 250 } }
            try renderer.draw(id: side, side: side, at: (x0, y0), into: &image)
        }
        let found = MarkerDetector(dictionary: dictionary).detect(in: image)
        #expect(found.map(\.id).sorted() == [13, 24, 66])
        for marker in found {
            let side = Double(marker.id)
            let origin: SIMD2<Double> = marker.id == 66 ? SIMD2(10, 12) : marker.id == 24 ? SIMD2(100, 20) : SIMD2(96, 70)
            let low = origin - 0.5
            let expected = [low, low + SIMD2(side, 0), low + SIMD2(side, side), low + SIMD2(0, side)]
            #expect(maxCornerError(marker.corners, expected) < 0.05, "id \(marker.id): \(marker.corners)")
        }
    }

    @Test func perspectiveViewsAreReadWithSubPixelCorners() throws {
        let dictionary = try MarkerDictionary.named("4x4_100")
        let detector = MarkerDetector(dictionary: dictionary)
        let views: [[SIMD2<Double>]] = [
            [SIMD2(20.3, 14.8), SIMD2(61.7, 22.1), SIMD2(58.2, 60.4), SIMD2(17.9, 55.6)],
            [SIMD2(30.6, 20.2), SIMD2(50.1, 25.9), SIMD2(49.4, 48.3), SIMD2(29.8, 53.7)],
            [SIMD2(52.4, 18.5), SIMD2(60.2, 50.9), SIMD2(27.7, 57.3), SIMD2(20.5, 25.1)],
            [SIMD2(33.2, 30.1), SIMD2(47.9, 31.0), SIMD2(46.8, 45.6), SIMD2(32.4, 44.3)],
        ]
        for (index, corners) in views.enumerated() {
            let id = 11 * index + 3
            let image = try perspectiveScene(dictionary: dictionary, id: id, corners: corners, width: 80, height: 76)
            let found = detector.detect(in: image)
            #expect(found.map(\.id) == [id], "view \(index)")
            if let marker = found.first {
                // Small near-axis-aligned markers keep a bias of up to ~0.2 px: the glow of a white inner
                // cell two pixels inside reaches the outer edge profile.
                #expect(maxCornerError(marker.corners, corners) < 0.25, "view \(index): \(marker.corners)")
            }
        }
    }

    @Test func smallMarkerWithThinQuietZoneOnDarkStripesIsRecovered() throws {
        let dictionary = try MarkerDictionary.named("4x4_100")
        // A 15 px marker turned 40 degrees with a 1 px quiet zone, on 7 px stripes nearly as dark
        // as its border: under the main 15 px window the quiet zone merges with the stripes.
        let centre = SIMD2(31.7, 32.2), angle = 40.0 * Double.pi / 180, half = 7.4
        let corners = [SIMD2(-half, -half), SIMD2(half, -half), SIMD2(half, half), SIMD2(-half, half)].map { p in
            centre + SIMD2(cos(angle) * p.x - sin(angle) * p.y, sin(angle) * p.x + cos(angle) * p.y)
        }
        let image = try perspectiveScene(
            dictionary: dictionary, id: 5, corners: corners, width: 64, height: 64, quietZone: 0.07
        ) { p in
            (p.x * 0.8 + p.y * 0.6).truncatingRemainder(dividingBy: 7) < 3.5 ? 40 : 150
        }
        var mainWindowOnly = MarkerDetectorParameters()
        mainWindowOnly.recoveryMaxPerimeter = 0
        #expect(MarkerDetector(dictionary: dictionary, parameters: mainWindowOnly).detect(in: image).isEmpty)
        let found = MarkerDetector(dictionary: dictionary).detect(in: image)
        #expect(found.map(\.id) == [5])
        if let marker = found.first {
            #expect(maxCornerError(marker.corners, corners) < 0.3, "\(marker.corners)")
        }
    }

    @Test func degenerateImagesHaveNoMarkers() throws {
        let detector = MarkerDetector(dictionary: try MarkerDictionary.named("4x4_50"))
        #expect(detector.detect(in: GrayImage(width: 0, height: 0, pixels: [])).isEmpty)
        #expect(detector.detect(in: GrayImage(width: 1, height: 1, repeating: 0)).isEmpty)
        #expect(detector.detect(in: GrayImage(width: 7, height: 300, repeating: 0)).isEmpty)
        #expect(detector.detect(in: GrayImage(width: 64, height: 48, repeating: 0)).isEmpty)
        #expect(detector.detect(in: GrayImage(width: 64, height: 48, repeating: 255)).isEmpty)
        #expect(detector.detect(in: RGBAImage(width: 3, height: 2, repeating: RGBA8(gray: 9))).isEmpty)
    }

    @Test func noiseAndCheckerboardsHaveNoMarkers() throws {
        let detector = MarkerDetector(dictionary: try MarkerDictionary.named("4x4_1000"))
        var generator = SplitMix64(seed: 7)
        let noise = GrayImage(width: 96, height: 96, pixels: (0..<(96 * 96)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        #expect(detector.detect(in: noise).isEmpty)
        var blocks = GrayImage(width: 96, height: 96, repeating: 255)
        for y in 0..<96 { for x in 0..<96 where ((x / 6) + (y / 6)) % 2 == 0 { blocks[x, y] = 0 } }
        #expect(detector.detect(in: blocks).isEmpty)
    }

    @Test func markersCutByTheImageBorderAreSkipped() throws {
        let dictionary = try MarkerDictionary.named("4x4_50")
        let full = try MarkerRenderer(dictionary: dictionary).marker(id: 3, side: 30, quietZone: 6)
        let cut = GrayImage(width: 30, height: full.height, pixels: (0..<(30 * full.height)).map { full[$0 % 30 + 12, $0 / 30] })
        #expect(MarkerDetector(dictionary: dictionary).detect(in: cut).isEmpty)
    }
}

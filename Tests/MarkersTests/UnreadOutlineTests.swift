import Foundation
import Geometry
import Imaging
import Testing

@testable import Markers

/// A sticker whose print is smeared or creased still shows its square outline: the detector
/// names no marker there, and hands back the outline.
@Suite struct UnreadOutlineTests {
    private let dictionary: MarkerDictionary
    private let cells: Int
    private let side = 60, quiet = 12

    init() throws {
        dictionary = try MarkerDictionary.named("4x4_100")
        cells = dictionary.markerSize + 2
    }

    /// A marker drawn on white, with `paint` changing cells of its code (row, column within
    /// the code, 0-based) to black or white.
    private func image(id: Int, paint: [(Int, Int, UInt8)] = []) throws -> GrayImage {
        var image = GrayImage(width: side + 2 * quiet, height: side + 2 * quiet, repeating: 245)
        try MarkerRenderer(dictionary: dictionary).draw(id: id, side: side, at: (quiet, quiet), into: &image)
        let cell = side / cells
        for (row, column, value) in paint {
            for y in 0..<cell { for x in 0..<cell { image[quiet + (column + 1) * cell + x, quiet + (row + 1) * cell + y] = value } }
        }
        return image
    }

    private var expected: [SIMD2<Double>] {
        let low = Double(quiet) - 0.5, high = Double(quiet + side) - 0.5
        return [SIMD2(low, low), SIMD2(high, low), SIMD2(high, high), SIMD2(low, high)]
    }

    @Test func aReadableMarkerLeavesNoOutline() throws {
        var unread: [[SIMD2<Double>]] = []
        let found = MarkerDetector(dictionary: dictionary).detect(in: try image(id: 7).rgba(), unread: &unread)
        #expect(found.map(\.id) == [7])
        #expect(unread.isEmpty)
    }

    @Test(arguments: [UInt8(0), 245]) func aCodeSmearedBeyondCorrectionLeavesItsOutline(ink: UInt8) throws {
        // Every cell of the code's top two rows painted one colour: more bits wrong than the
        // dictionary corrects, the border untouched.
        let paint = (0..<2).flatMap { row in (0..<dictionary.markerSize).map { (row, $0, ink) } }
        var unread: [[SIMD2<Double>]] = []
        let found = MarkerDetector(dictionary: dictionary).detect(in: try image(id: 7, paint: paint).rgba(), unread: &unread)
        #expect(!found.contains { $0.id == 7 })
        try #require(unread.count == 1)
        // The outline in any of its four turns: an unread code tells no orientation.
        let outline = unread[0], truth = expected
        func worst(turn r: Int) -> Double {
            var largest = 0.0
            for c in 0..<4 { largest = max(largest, length(outline[(c + r) % 4] - truth[c])) }
            return largest
        }
        let error = (0..<4).map(worst(turn:)).min() ?? .infinity
        #expect(error < 0.3, "outline \(unread[0]) against \(expected)")
    }

    @Test func plainDetectionIsUnchanged() throws {
        let picture = try image(id: 7, paint: [(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (1, 3, 0)])
        var unread: [[SIMD2<Double>]] = []
        let detector = MarkerDetector(dictionary: dictionary)
        #expect(detector.detect(in: picture.rgba(), unread: &unread) == detector.detect(in: picture))
    }
}

private func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

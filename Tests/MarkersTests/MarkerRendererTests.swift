import Imaging
import Testing

@testable import Markers

@Suite struct MarkerRendererTests {
    @Test func cellsScaleLikeOpenCV() throws {
        let dictionary = try MarkerDictionary.named("4x4_50")
        let image = try MarkerRenderer(dictionary: dictionary).marker(id: 0, side: 6)
        // With one pixel per cell the image is the border plus the code, white = 255.
        for y in 0..<6 {
            for x in 0..<6 {
                let inner = x > 0 && y > 0 && x < 5 && y < 5
                let white = inner && dictionary.bit(dictionary.codes[0], row: y - 1, column: x - 1)
                #expect(image[x, y] == (white ? 255 : 0))
            }
        }
    }

    @Test func quietZoneIsWhite() throws {
        let image = try MarkerRenderer(dictionary: try MarkerDictionary.named("5x5_50")).marker(id: 4, side: 21, quietZone: 3)
        #expect(image.width == 27 && image.height == 27)
        #expect(image[0, 0] == 255 && image[26, 13] == 255 && image[3, 3] == 0)
    }

    @Test func sheetWrapsRowsToTheWidth() throws {
        let renderer = MarkerRenderer(dictionary: try MarkerDictionary.named("4x4_100"))
        let sheet = try renderer.sheet(ids: Array(0..<7), markerSide: 30, gap: 10, margin: 20, maxWidth: 200)
        // (200 - 40 + 10) / 40 = 4 per row, so two rows.
        #expect(sheet.width == 40 + 4 * 40 - 10)
        #expect(sheet.height == 40 + 2 * 40 - 10)
        let found = MarkerDetector(dictionary: renderer.dictionary).detect(in: sheet)
        #expect(found.map(\.id).sorted() == Array(0..<7))
    }

    @Test func badSizesAreErrors() throws {
        let renderer = MarkerRenderer(dictionary: try MarkerDictionary.named("4x4_50"))
        #expect(throws: MarkerError.self) { try renderer.marker(id: 1, side: 0) }
        #expect(throws: MarkerError.self) { try renderer.marker(id: 99, side: 12) }
        #expect(throws: MarkerError.self) { try renderer.sheet(ids: [], markerSide: 10, gap: 1, margin: 1) }
    }
}

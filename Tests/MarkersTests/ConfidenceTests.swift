import Foundation
import Imaging
import Testing

@testable import Markers

@Suite struct ConfidenceTests {
    let dictionary: MarkerDictionary
    let renderer: MarkerRenderer

    init() throws {
        dictionary = try MarkerDictionary.named("4x4_100")
        renderer = MarkerRenderer(dictionary: dictionary)
    }

    /// A 60 px marker (10 px cells) on white, `id`, with inner cell (`row`, `column`) inverted
    /// when given, its gray levels mapped to `black`...`white`.
    func marker(id: Int, flip: (row: Int, column: Int)? = nil, black: UInt8 = 0, white: UInt8 = 255) throws -> GrayImage {
        var image = try renderer.marker(id: id, side: 60, quietZone: 12)
        if let flip {
            let x0 = 12 + 10 * (flip.column + 1), y0 = 12 + 10 * (flip.row + 1)
            for y in y0..<(y0 + 10) { for x in x0..<(x0 + 10) { image[x, y] = 255 - image[x, y] } }
        }
        for y in 0..<image.height {
            for x in 0..<image.width {
                image[x, y] = UInt8(Double(black) + Double(image[x, y]) / 255 * Double(white - black))
            }
        }
        return image
    }

    @Test func cleanMarkerReadsWithWideMarginAndNoCorrection() throws {
        let found = MarkerDetector(dictionary: dictionary).detect(in: try marker(id: 17))
        let detection = try #require(found.first)
        #expect(detection.id == 17)
        #expect(detection.correctedBits == 0)
        #expect(detection.decisionMargin > 120)
        #expect(detection.minimumMargin > 120)
        #expect(detection.contrast > 250)
    }

    @Test func flippedCellIsCorrectedAndCounted() throws {
        // 4x4_100 corrects one bit; the default rate of 0.6 rounds that down to none.
        #expect(dictionary.maxCorrectionBits >= 1)
        #expect(MarkerDetector(dictionary: dictionary).detect(in: try marker(id: 17, flip: (1, 2))).isEmpty)
        var parameters = MarkerDetectorParameters()
        parameters.errorCorrectionRate = 1
        let found = MarkerDetector(dictionary: dictionary, parameters: parameters).detect(in: try marker(id: 17, flip: (1, 2)))
        let detection = try #require(found.first)
        #expect(detection.id == 17)
        #expect(detection.correctedBits == 1)
    }

    @Test func marginShrinksWithContrast() throws {
        let detector = MarkerDetector(dictionary: dictionary)
        let strong = try #require(detector.detect(in: try marker(id: 5)).first)
        let weak = try #require(detector.detect(in: try marker(id: 5, black: 90, white: 160)).first)
        #expect(weak.decisionMargin < 0.4 * strong.decisionMargin)
        #expect(abs(weak.decisionMargin - 35) < 3, "half the contrast of 70 gray levels: \(weak.decisionMargin)")
    }

    @Test func diagnosticsCountStagesAndNameRejections() throws {
        // A 4x4_100 marker next to a marker of 6x6_250 with the same outline: the second one's
        // code is not in the dictionary searched.
        var image = GrayImage(width: 200, height: 100, repeating: 255)
        try renderer.draw(id: 17, side: 60, at: (15, 20), into: &image)
        let other = MarkerRenderer(dictionary: try MarkerDictionary.named("6x6_250"))
        try other.draw(id: 3, side: 64, at: (115, 18), into: &image)
        let detector = MarkerDetector(dictionary: dictionary)
        var diagnostics = DetectionDiagnostics()
        let found = detector.detect(in: image, diagnostics: &diagnostics)
        #expect(found.map(\.id) == [17])
        #expect(found == detector.detect(in: image), "diagnostics do not change the result")
        #expect(diagnostics.reported == 1)
        #expect(diagnostics.decoded >= 1)
        #expect(diagnostics.quadrilaterals >= 2)
        #expect(diagnostics.contours >= diagnostics.quadrilaterals)
        #expect(diagnostics.borderChecked >= diagnostics.refined)
        #expect(diagnostics.refined >= diagnostics.decoded)
        let unknown = diagnostics.rejections.filter { $0.reason == .unknownCode }
        #expect(unknown.count == 1)
        #expect(unknown.first.map { $0.corners.allSatisfy { $0.x > 100 } } == true)
        #expect((unknown.first?.nearestDistance ?? 0) > 0)
    }

    @Test func detectionsWrittenBeforeMarginsStillDecode() throws {
        let old = #"{"id":4,"corners":[[1,2],[3,2],[3,4],[1,4]],"correctedBits":1}"#
        let marker = try JSONDecoder().decode(DetectedMarker.self, from: Data(old.utf8))
        #expect(marker.id == 4 && marker.correctedBits == 1 && marker.decisionMargin == 0)
        let round = try JSONDecoder().decode(
            DetectedMarker.self, from: JSONEncoder().encode(DetectedMarker(id: 2, corners: marker.corners, decisionMargin: 41.5)))
        #expect(round.decisionMargin == 41.5)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DetectedMarker.self, from: Data(#"{"id":4,"corners":[[1,2]]}"#.utf8))
        }
    }
}

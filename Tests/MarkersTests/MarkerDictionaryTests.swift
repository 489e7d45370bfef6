import Testing

@testable import Markers

@Suite struct MarkerDictionaryTests {
    @Test func allOpenCVDictionariesArePresentWithTheirSizes() throws {
        let expected: [String: (size: Int, count: Int)] = [
            "4x4_50": (4, 50), "4x4_100": (4, 100), "4x4_250": (4, 250), "4x4_1000": (4, 1000),
            "5x5_50": (5, 50), "5x5_100": (5, 100), "5x5_250": (5, 250), "5x5_1000": (5, 1000),
            "6x6_50": (6, 50), "6x6_100": (6, 100), "6x6_250": (6, 250), "6x6_1000": (6, 1000),
            "7x7_50": (7, 50), "7x7_100": (7, 100), "7x7_250": (7, 250), "7x7_1000": (7, 1000),
            "aruco_original": (5, 1024), "apriltag_16h5": (4, 30), "apriltag_25h9": (5, 35),
            "apriltag_36h10": (6, 2320), "apriltag_36h11": (6, 587), "aruco_mip_36h12": (6, 250),
        ]
        #expect(Set(MarkerDictionary.predefinedNames) == Set(expected.keys))
        for (name, shape) in expected {
            let dictionary = try MarkerDictionary.named(name)
            #expect(dictionary.markerSize == shape.size, "\(name)")
            #expect(dictionary.count == shape.count, "\(name)")
            #expect(dictionary.codes.allSatisfy { $0 >> UInt64(shape.size * shape.size) == 0 }, "\(name)")
        }
    }

    @Test func firstCodeMatchesOpenCV() throws {
        // DICT_4X4_50 marker 0 as OpenCV draws it: rows 1011, 0101, 0011, 0010.
        let dictionary = try MarkerDictionary.named("4x4_50")
        #expect(dictionary.codes[0] == 0b1011_0101_0011_0010)
        #expect(dictionary.maxCorrectionBits == 1)
        #expect(try MarkerDictionary.named("apriltag_36h11").maxCorrectionBits == 5)
    }

    @Test func theStandardCapUsesOpenCVsFourByFourHundred() throws {
        #expect(MarkerDictionary.standardCap.name == "4x4_100")
        #expect(MarkerDictionary.standardCap.count == 100)
        #expect(try CapLayout.standard.dictionary() == MarkerDictionary.standardCap)
    }

    @Test func namesAcceptOpenCVSpelling() throws {
        #expect(try MarkerDictionary.named("DICT_6X6_250").name == "6x6_250")
        #expect(throws: MarkerError.unknownDictionary("9x9_1")) { try MarkerDictionary.named("9x9_1") }
    }

    @Test func fourQuarterTurnsAreTheIdentity() throws {
        for name in MarkerDictionary.predefinedNames {
            let dictionary = try MarkerDictionary.named(name)
            let code = dictionary.codes[dictionary.count / 2]
            var turned = code
            for _ in 0..<4 { turned = dictionary.rotatedClockwise(turned) }
            #expect(turned == code, "\(name)")
            #expect(dictionary.rotatedClockwise(code) != code, "\(name)")
        }
    }

    @Test func identifyReportsRotationAndCorrection() throws {
        let dictionary = try MarkerDictionary.named("6x6_250")
        let code = dictionary.codes[77]
        let turnedTwice = dictionary.rotatedClockwise(dictionary.rotatedClockwise(code))
        let match = try #require(dictionary.identify(turnedTwice ^ 0b100, maxDistance: 3))
        #expect(match.id == 77 && match.rotation == 2 && match.distance == 1)
        #expect(dictionary.identify(code ^ 0b111, maxDistance: 2) == nil)
    }

    @Test func outOfRangeIDsAreErrors() throws {
        let dictionary = try MarkerDictionary.named("4x4_50")
        #expect(throws: MarkerError.idOutOfRange(id: 50, dictionary: "4x4_50", count: 50)) {
            try dictionary.code(id: 50)
        }
    }
}

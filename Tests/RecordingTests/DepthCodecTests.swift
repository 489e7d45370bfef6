import Geometry
import Imaging
import Simulation
import Testing

@testable import Recording

/// Bit patterns of every pixel: round trips must preserve these, NaN payloads included.
private func patterns(_ depth: DepthImage) -> [UInt32] { depth.pixels.map(\.bitPattern) }

private func image(_ width: Int, _ height: Int, bits: [UInt32]) -> DepthImage {
    DepthImage(width: width, height: height, pixels: bits.map(Float.init(bitPattern:)))
}

/// Encodes, decodes and checks that nothing changed; returns the encoded bytes.
@discardableResult
private func roundTrip(_ depth: DepthImage, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let bytes = DepthCodec.encode(depth)
    let back = try DepthCodec.decode(bytes)
    #expect(back.width == depth.width && back.height == depth.height, sourceLocation: sourceLocation)
    #expect(patterns(back) == patterns(depth), sourceLocation: sourceLocation)
    return bytes
}

private func mode(_ bytes: [UInt8]) -> DepthAnalysis.Mode? { DepthAnalysis.Mode(rawValue: bytes[3]) }

@Suite struct DepthCodecRoundTripTests {
    @Test func syntheticFramesAreBitExactAndSmall() throws {
        let scene = SyntheticScene(seed: 11, width: 160, height: 120)
        for index in [0, 7, 90] {
            let depth = scene.frame(at: index).depth
            let bytes = try roundTrip(depth)
            #expect(mode(bytes) == .half)
            #expect(bytes.count < depth.count, "should take under half of raw Float16 storage")
        }
    }

    @Test func fullSizeFrame() throws {
        let depth = SyntheticScene(seed: 3).frame(at: 12).depth
        let bytes = try roundTrip(depth)
        #expect(Double(bytes.count) / Double(depth.count * 2) < 0.45)
    }

    @Test func emptyAndDegenerateSizes() throws {
        for (w, h) in [(0, 0), (5, 0), (0, 7), (1, 1), (1, 9), (9, 1), (2, 2)] {
            let values = (0..<(w * h)).map { Float(0.3) + Float($0) * 0.001 }
            try roundTrip(DepthImage(width: w, height: h, pixels: values.map(HalfFloat.quantized)))
        }
        try roundTrip(DepthImage(width: 1, height: 1, pixels: [.nan]))
    }

    @Test func allNaNAndNoNaN() throws {
        let allNaN = try roundTrip(DepthImage(width: 64, height: 48, repeating: .nan))
        #expect(allNaN.count < 40)
        let ramp = (0..<(64 * 48)).map { HalfFloat.quantized(0.4 + Float($0 % 64) * 0.0005) }
        try roundTrip(DepthImage(width: 64, height: 48, pixels: ramp))
    }

    @Test func valuesOutsideFloat16UseFloat32Mode() throws {
        var rng = Xoshiro256(seed: 5)
        let values = (0..<(40 * 30)).map { _ in 0.25 + rng.unitFloat() }
        var depth = DepthImage(width: 40, height: 30, pixels: values)
        depth[3, 4] = .nan
        #expect(mode(try roundTrip(depth)) == .float)
    }

    @Test func specialValues() throws {
        let specials: [Float] = [
            0, -0.0, 1, -1, .infinity, -.infinity, 65504, -65504, 0x1p-24, -0x1p-24, 0x1p-14, 0x3p-20,
            .nan, 0.5, 2.75, -1234,
        ]
        // Sixteen unrelated values alone would not shrink; repeated rows do, in half mode.
        try roundTrip(DepthImage(width: 4, height: 4, pixels: specials))
        let rows = Array(repeating: specials, count: 8).flatMap { $0 }
        let halfable = try roundTrip(DepthImage(width: 16, height: 8, pixels: rows))
        #expect(mode(halfable) == .half)
        var withTiny = specials
        withTiny[1] = .leastNonzeroMagnitude  // a Float32 subnormal
        withTiny[2] = -.leastNormalMagnitude
        withTiny[3] = .greatestFiniteMagnitude
        // Float32 keys, or raw when 16 scattered values would not shrink.
        #expect(mode(try roundTrip(DepthImage(width: 4, height: 4, pixels: withTiny))) != .half)
    }

    @Test func nanPayloadsSurvive() throws {
        let signalling = Float(bitPattern: 0x7F80_0001), negativeQuiet = Float(bitPattern: 0xFFC0_1234)
        let shared = try roundTrip(DepthImage(width: 3, height: 1, pixels: [0.5, negativeQuiet, negativeQuiet]))
        #expect(mode(shared) == .half)
        let mixed = try roundTrip(DepthImage(width: 4, height: 1, pixels: [0.5, .nan, signalling, negativeQuiet]))
        #expect(mode(mixed) == .raw)
    }

    @Test func randomBitPatterns() throws {
        var rng = Xoshiro256(seed: 99)
        let bits = (0..<(33 * 17)).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        try roundTrip(image(33, 17, bits: bits))
        // Keys at the ends of the range exercise the modular residuals.
        let extremes = (0..<64).map { $0 % 2 == 0 ? UInt32(0x0000_0001) : UInt32(0xFF7F_FFFF) }
        try roundTrip(image(8, 8, bits: extremes))
    }

    @Test func wideRowsNearTheEndOfTheStream() throws {
        // Noisy rows make codes long, so the last rows are read with end checks and the rest
        // without; both must agree with the encoder, for half and Float32 keys.
        var rng = Xoshiro256(seed: 41)
        let noisy = (0..<(300 * 20)).map { _ in HalfFloat.quantized(0.5 + 0.2 * rng.unitFloat()) }
        #expect(mode(try roundTrip(DepthImage(width: 300, height: 20, pixels: noisy))) == .half)
        let wide = (0..<(300 * 20)).map { _ in 0.5 + 0.2 * rng.unitFloat() }
        #expect(mode(try roundTrip(DepthImage(width: 300, height: 20, pixels: wide))) == .float)
    }

    @Test func largestResidualsTakeTheLargestRiceParameter() throws {
        // Keys 2^31 apart alternate, so every residual has the largest magnitude and k reaches 31;
        // the flat start keeps the whole under raw size, so it is coded in Float32 mode.
        let otherKey = FloatKeys.key(float: Float(1).bitPattern) ^ 0x8000_0000
        let other = Float(bitPattern: FloatKeys.floatBits(fromKey: otherKey))
        let pixels = Array(repeating: Float(1), count: 1600) + (0..<600).map { $0 % 2 == 0 ? other : 1 }
        #expect(mode(try roundTrip(DepthImage(width: 2200, height: 1, pixels: pixels))) == .float)
    }

    @Test func stepsAndHolesAcrossContexts() throws {
        // Steps of every size from flat to the largest reach every context, and NaN holes of
        // every length start and end runs at row ends as well as inside rows.
        var pixels: [Float] = []
        for y in 0..<40 {
            for x in 0..<37 {
                let step = Float(1 << (y % 17)) * 0x1p-14
                let value = (x / 3) % 2 == 0 ? 0.25 : 0.25 + step
                pixels.append((x * 7 + y * 3) % (y + 5) == 0 ? .nan : HalfFloat.quantized(value))
            }
        }
        #expect(mode(try roundTrip(DepthImage(width: 37, height: 40, pixels: pixels))) == .half)
    }

    @Test func decodingIntoReusesOrReplacesStorage() throws {
        let scene = SyntheticScene(seed: 6, width: 40, height: 30)
        var target = scene.frame(at: 0).depth
        let next = scene.frame(at: 1).depth
        try DepthCodec.encode(next).withUnsafeBytes { try DepthCodec.decode($0, into: &target) }
        #expect(patterns(target) == patterns(next))
        let small = DepthImage(width: 2, height: 3, pixels: [0.5, .nan, 0.25, 1, 2, 0.75])
        try DepthCodec.encode(small).withUnsafeBytes { try DepthCodec.decode($0, into: &target) }
        #expect(target.width == 2 && patterns(target) == patterns(small))
    }

    @Test func appendingKeepsPrefix() throws {
        var out: [UInt8] = [1, 2, 3]
        let depth = SyntheticScene(seed: 1, width: 32, height: 24).frame(at: 0).depth
        DepthCodec.encode(depth, appendingTo: &out)
        #expect(out.prefix(3) == [1, 2, 3])
        #expect(Array(out.dropFirst(3)) == DepthCodec.encode(depth))
    }
}

@Suite struct DepthCodecDamageTests {
    private let encoded = DepthCodec.encode(SyntheticScene(seed: 2, width: 48, height: 36).frame(at: 3).depth)

    @Test func everyTruncationThrows() {
        var accepted: [Int] = []
        for length in 0..<encoded.count where (try? DepthCodec.decode(Array(encoded.prefix(length)))) != nil {
            accepted.append(length)
        }
        #expect(accepted.isEmpty, "truncated lengths that decoded: \(accepted.prefix(10))")
    }

    @Test func truncationNamesTheShortfall() {
        #expect(throws: DepthCodecError.truncated(expected: encoded.count, actual: encoded.count - 1)) {
            try DepthCodec.decode(Array(encoded.dropLast()))
        }
    }

    @Test func randomGarbageNeverCrashes() {
        var rng = Xoshiro256(seed: 2024)
        for trial in 0..<200 {
            var bytes = (0..<rng.below(600)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if trial % 2 == 0 { bytes = Self.plausibleHeader(rng: &rng, payload: bytes) }
            _ = try? DepthCodec.decode(bytes)
        }
    }

    @Test func flippedBytesThrowOrDecode() {
        var rng = Xoshiro256(seed: 77)
        for _ in 0..<300 {
            var bytes = encoded
            for _ in 0..<(1 + rng.below(3)) {
                bytes[rng.below(bytes.count)] ^= UInt8(1 + rng.below(255))
            }
            if let depth = try? DepthCodec.decode(bytes) {
                #expect(depth.count == depth.width * depth.height)
            }
        }
    }

    @Test func headerErrorsAreSpecific() {
        var wrongMagic = encoded
        wrongMagic[0] = 0x50
        #expect(throws: DepthCodecError.notDepthData) { try DepthCodec.decode(wrongMagic) }
        var newer = encoded
        newer[2] = 9
        #expect(throws: DepthCodecError.unsupportedVersion(9)) { try DepthCodec.decode(newer) }
        var mode = encoded
        mode[3] = 7
        #expect(throws: DepthCodecError.unknownMode(7)) { try DepthCodec.decode(mode) }
        var huge = encoded
        huge.replaceSubrange(4..<12, with: [0x88, 0x13, 0, 0, 0x88, 0x13, 0, 0])  // 5000x5000
        #expect(throws: DepthCodecError.tooLarge(width: 5000, height: 5000)) { try DepthCodec.decode(huge) }
        #expect(throws: DepthCodecError.self) { try DepthCodec.decode(encoded + [0]) }
        #expect(DepthCodecError.unsupportedVersion(9).description.contains("update"))
    }

    /// A header that passes the first checks, so the garbage reaches the bit-stream decoder.
    private static func plausibleHeader(rng: inout Xoshiro256, payload: [UInt8]) -> [UInt8] {
        let width = UInt32(rng.below(70)), height = UInt32(rng.below(70))
        var bytes: [UInt8] = [0x48, 0x44, 1, UInt8(rng.below(3))]
        let raw = bytes[3] == 0
        let fields = [width, height, 0x7FC0_0000, UInt32(raw ? Int(width * height * 4) : payload.count)]
        for value in fields { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes + (raw ? Array(repeating: 0, count: Int(width * height * 4)) : payload)
    }
}

@Suite struct HalfFloatTests {
    @Test func everyHalfPatternConvertsExactly() {
        for h in UInt16.min...UInt16.max {
            let bits = HalfFloat.floatBits(fromHalf: h)
            let value = Float(bitPattern: bits)
            if value.isNaN { continue }
            #expect(HalfFloat.exactHalf(fromFloatBits: bits) == h)
            #expect(HalfKeys.floatBits(fromKey: HalfKeys.key(half: h)) == bits)
            #if !(os(macOS) && arch(x86_64))
            #expect(value == Float(Float16(bitPattern: h)))
            #endif
        }
    }

    @Test func branchFreeConversionKeepsNaNPayloads() {
        for h in UInt16.min...UInt16.max where (h >> 10) & 0x1F == 0x1F {
            let bits = HalfFloat.floatBits(fromHalf: h)
            #expect(bits == UInt32(h & 0x8000) << 16 | 0x7F80_0000 | UInt32(h & 0x3FF) << 13)
            #expect(HalfKeys.floatBits(fromKey: HalfKeys.key(half: h)) == bits)
        }
    }

    @Test func contextsSplitOctavesInTwo() {
        let expected: [(UInt32, UInt8)] = [
            (0, 0), (1, 2), (2, 4), (3, 5), (4, 6), (6, 7), (7, 7), (1 << 14, 30), (1 << 15, 31), (1 << 18, 31),
        ]
        for (activity, context) in expected {
            #expect(ContextModel.context(activity: activity) == context, "activity \(activity)")
        }
        #expect(RowWindow.gradient(0, 0xFFFF_FFFF) == 1 << 16)
        #expect(RowWindow.narrowGradient(3, 0xFFFF) == RowWindow.gradient(3, 0xFFFF))
    }

    @Test func roundingMatchesFloat16() {
        var rng = Xoshiro256(seed: 8)
        for _ in 0..<20_000 {
            let x = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()) & 0xBFFF_FFFF)  // |x| < 2
            let scaled = x * Float(1 << rng.below(20))
            #if !(os(macOS) && arch(x86_64))
            #expect(HalfFloat.roundedHalf(scaled) == Float16(scaled).bitPattern)
            #endif
            #expect(HalfFloat.exactHalf(fromFloatBits: HalfFloat.quantized(scaled).bitPattern) != nil)
        }
    }

    @Test func floatKeysPreserveOrder() {
        let values: [Float] = [-.infinity, -2, -0x1p-130, -0.0, 0, 0x1p-130, 0.5, 3, .infinity]
        let keys = values.map { FloatKeys.key(float: $0.bitPattern) }
        #expect(keys == keys.sorted())
        #expect(keys.map(FloatKeys.floatBits(fromKey:)) == values.map(\.bitPattern))
    }
}

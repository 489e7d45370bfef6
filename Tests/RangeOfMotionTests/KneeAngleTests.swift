import Foundation
import Testing

@testable import RangeOfMotion

@Suite("Knee angle")
struct KneeAngleTests {
    @Test(
        "the interior angle is the angle between knee→hip and knee→ankle, 180 when straight",
        arguments: [
            (0.0, 180.0), (90, 90), (30, 150), (140, 40), (179, 1),
        ])
    func interior(flexion: Double, expected: Double) throws {
        let (hip, knee, ankle) = Poses.leftLeg(flexion: flexion)
        let angle = try #require(KneeAngle.interior(hip: hip, knee: knee, ankle: ankle))
        #expect(abs(angle - expected) < 1e-9)
    }

    @Test("it equals the seed's acos formula on arbitrary points and ignores scale")
    func seedFormula() throws {
        let hip = SIMD2<Double>(12.5, -3), knee = SIMD2<Double>(40, 77), ankle = SIMD2<Double>(-18, 130.25)
        let v1 = hip - knee, v2 = ankle - knee
        let seed = acos((v1 * v2).sum() / (((v1 * v1).sum()).squareRoot() * ((v2 * v2).sum()).squareRoot())) * 180 / .pi
        let angle = try #require(KneeAngle.interior(hip: hip, knee: knee, ankle: ankle))
        #expect(abs(angle - seed) < 1e-9)
        let scaled = try #require(KneeAngle.interior(hip: hip * 3.7, knee: knee * 3.7, ankle: ankle * 3.7))
        #expect(abs(scaled - angle) < 1e-9)
    }

    @Test("a segment without length has no angle")
    func degenerate() {
        #expect(KneeAngle.interior(hip: SIMD2(1, 1), knee: SIMD2(1, 1), ankle: SIMD2(5, 9)) == nil)
        #expect(KneeAngle.bendSine(hip: SIMD2(1, 1), knee: SIMD2(4, 4), ankle: SIMD2(4, 4)) == nil)
    }

    @Test("on the flexion side a knee bent backwards reads past 180; without a sense it reads as the seed")
    func hyperextension() throws {
        let (hip, knee, ankle) = Poses.leftLeg(flexion: -7)
        // The left leg filmed from the left: the patient faces -x, flexion sense -1.
        #expect(try #require(KneeAngle.bendSine(hip: hip, knee: knee, ankle: Poses.leftLeg(flexion: 40).2)) < 0)
        let read = try #require(KneeAngle.onFlexionSide(hip: hip, knee: knee, ankle: ankle, flexionSense: -1))
        #expect(abs(read - 187) < 1e-9)
        let unsigned = try #require(KneeAngle.onFlexionSide(hip: hip, knee: knee, ankle: ankle, flexionSense: nil))
        #expect(abs(unsigned - 173) < 1e-9)
        let bent = try #require(KneeAngle.onFlexionSide(hip: hip, knee: knee, ankle: Poses.leftLeg(flexion: 40).2, flexionSense: -1))
        #expect(abs(bent - 140) < 1e-9)
    }
}

@Suite("Neutral-zero form")
struct NeutralZeroTests {
    @Test(
        "min and max interior angle map to extension-0-flexion",
        arguments: [
            (40.0, 185.0, "5-0-140"),  // 5° hyperextension, 140° flexion
            (50, 180, "0-0-130"),  // straight to 130°
            (60, 170, "0-10-120"),  // stops 10° short of straight: extension deficit
            (185, 200, "20-5-0"),  // stays hyperextended between 20° and 5°
            (160, 200, "20-0-20"),  // from 20° past straight to 20° bent
            (40.4, 184.6, "5-0-140"),  // whole degrees, rounded
            (39.5, 180.4, "0-0-141"),
        ])
    func notation(minAngle: Double, maxAngle: Double, expected: String) {
        #expect(NeutralZero(minAngle: minAngle, maxAngle: maxAngle).notation == expected)
    }

    @Test("flexion is 180 − smallest angle, extension the largest − 180 (negative: deficit)")
    func values() throws {
        let deficit = NeutralZero(minAngle: 60, maxAngle: 170)
        #expect(deficit.flexionDegrees == 120 && deficit.extensionDegrees == -10)
        #expect(deficit.values == [0, 10, 120])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(deficit)) as? [String: Double]
        #expect(json == ["extension": -10, "flexion": 120])
    }

    @Test(
        "an end not seen is a bound: its side's number at least, a middle number it sets at most",
        arguments: [
            (50.0, 180.0, true, false, "0-0-≥130"),  // the most bent end not seen
            (40, 185, false, true, "≥5-0-140"),  // the straightest end not seen, past straight
            (60, 170, false, true, "0-≤10-120"),  // not seen short of straight: the deficit is at most 10°
            (60, 170, true, true, "0-≤10-≥120"),
            (185, 200, true, false, "20-≤5-0"),  // hyperextended throughout, the bent end not seen
        ])
    func bounds(minAngle: Double, maxAngle: Double, flexion: Bool, straightest: Bool, expected: String) throws {
        let nz = NeutralZero(minAngle: minAngle, maxAngle: maxAngle, flexionAtLeast: flexion, extensionAtLeast: straightest)
        #expect(nz.notation == expected && nz.isBound)
        #expect(nz.values == NeutralZero(minAngle: minAngle, maxAngle: maxAngle).values)
        #expect(try JSONDecoder().decode(NeutralZero.self, from: JSONEncoder().encode(nz)) == nz)
    }

    @Test("a value stored before bounds existed reads as a value")
    func boundsDecodeOldForm() throws {
        let old = try JSONDecoder().decode(NeutralZero.self, from: Data(#"{"extension": -10, "flexion": 120}"#.utf8))
        #expect(old == NeutralZero(minAngle: 60, maxAngle: 170) && !old.isBound && old.notation == "0-10-120")
    }
}

import Foundation
import Geometry
import Testing

@testable import Markers

/// The printed cap's layout: a field of two colours in the head frame.
struct CapPrintTests {
    /// Points on a head-sized sphere above the rim.
    static let vault: [SIMD3<Double>] = (0..<2000).map { n in
        let z = 0.2 + 0.8 * (Double(n) + 0.5) / 2000, a = Double(n) * 2.399963
        let r = (1 - z * z).squareRoot()
        return SIMD3(r * cos(a), r * sin(a), z) * 0.07 + SIMD3(0, 0, 0.03)
    }

    @Test func theFieldChoosesTheColourAndBlendsOnlyAtItsEdges() {
        let print = CapPrint.standard
        var first = 0, second = 0
        for p in Self.vault {
            let field = print.field(at: p)
            #expect(abs(field) <= 6)
            if field > 0.2 {
                #expect(print.colour(at: p) == print.first)
                first += 1
            } else if field < -0.2 {
                #expect(print.colour(at: p) == print.second)
                second += 1
            }
        }
        // Both colours cover the vault, and the blended edges little of it.
        #expect(first > 700 && second > 700, "\(first) first, \(second) second")
        #expect(first + second > 1700, "\(first + second) of 2000 off the blended edges")
    }

    /// Blotches 2–4 cm across: along a line the colour changes every 1–3 cm or so, never
    /// every few millimetres.
    @Test func theBlotchesAreCentimetresAcross() {
        let print = CapPrint.standard
        var changes = 0, last = print.field(at: SIMD3(-0.1, 0, 0.05)) > 0
        for k in 1...2000 {
            let now = print.field(at: SIMD3(-0.1 + 0.2 * Double(k) / 2000, 0, 0.05)) > 0
            if now != last { changes += 1 }
            last = now
        }
        // 200 mm: a change every 10–40 mm.
        #expect((5...20).contains(changes), "\(changes) changes over 200 mm")
    }

    @Test func aPrintLayoutRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(CapPrint.standard)
        #expect(try JSONDecoder().decode(CapPrint.self, from: data) == CapPrint.standard)
        #expect(CapPrint.standard.waves.count == 6 && CapPrint.standard.rimHeight == 0.012)
    }
}

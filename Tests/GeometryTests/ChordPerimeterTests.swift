import Foundation
import Geometry
import Testing

@Suite("Chord perimeter")
struct ChordPerimeterTests {
    private func circle(radius: Double, points: Int, wiggle: Double = 0) -> Polygon2 {
        Polygon2(
            (0..<points).map { i in
                let a = Double(i) / Double(points) * 2 * Double.pi
                let r = radius + (i % 2 == 0 ? wiggle : -wiggle)
                return SIMD2(r * cos(a), r * sin(a))
            })
    }

    @Test("a smooth circle keeps its length within the chord error")
    func smooth() {
        let c = circle(radius: 0.06, points: 2000)
        let exact = 2 * Double.pi * 0.06
        #expect(abs(c.chordPerimeter(chord: 0.004) - exact) / exact < 2e-4)
    }

    @Test("a zig-zag of 0.1 mm at each millimetre adds about 2 % raw, almost nothing in chords")
    func wiggly() {
        let c = circle(radius: 0.06, points: 377, wiggle: 0.0001)
        let exact = 2 * Double.pi * 0.06
        #expect(c.perimeter / exact > 1.015)
        #expect(abs(c.chordPerimeter(chord: 0.004) - exact) / exact < 0.002)
    }

    @Test("outlines shorter than two chords keep their plain length")
    func short() {
        let square = Polygon2([SIMD2(0, 0), SIMD2(0.001, 0), SIMD2(0.001, 0.001), SIMD2(0, 0.001)])
        #expect(square.chordPerimeter(chord: 0.004) == square.perimeter)
    }
}

import Foundation
import Geometry
import Testing

@testable import Cephalometry

/// Every convention's slice and values on closed-form heads whose longest outline and greatest
/// length lie at different heights, against an independent computation on the
/// closed form (sweeps and bisection, no mesh slicing).
@Suite("Slice conventions of closed-form heads")
struct ConventionTests {
    static let heads: [(String, Superellipsoid)] = [
        ("sheared ellipsoid, longest high up", Superellipsoid(shear: 0.14, lengthGrowth: 0.3)),
        (
            "sheared superellipsoid, longest low down",
            Superellipsoid(a: 0.055, b: 0.074, n: 2.3, m: 2.2, shear: -0.1, forward: 0.012, equator: 0.045, lengthGrowth: -0.2)
        ),
    ]

    /// The head's length and outline at height z, from the closed form.
    private func length(_ head: Superellipsoid, _ z: Double) -> Double { 2 * head.b * head.lengthScale(z) }
    private func outlineLength(_ head: Superellipsoid, _ z: Double) -> Double { Polygon2(head.boundary(z: z, samples: 4000)).perimeter }

    /// Where `f` is largest over the head's heights from 20 mm up, to 0.1 mm.
    private func argmax(_ head: Superellipsoid, _ f: (Double) -> Double) -> Double {
        var best = (z: 0.02, value: -Double.infinity)
        var z = 0.02
        while z < head.equator + head.height {
            let value = f(z)
            if value > best.value { best = (z, value) }
            z += 0.0001
        }
        return best.z
    }

    /// The slice values at z from the closed form, millimetres.
    private func expected(_ head: Superellipsoid, at z: Double) -> (a: Double, b: Double, length: Double, width: Double, outline: Double) {
        func reach(_ degrees: Double) -> Double {
            let t = degrees * Double.pi / 180
            return head.reach(from: .zero, along: SIMD2(cos(t), sin(t)), z: z) * 1000
        }
        let boundary = head.boundary(z: z)
        let width = ((boundary.map(\.x).max() ?? 0) - (boundary.map(\.x).min() ?? 0)) * 1000
        return (reach(120) + reach(300), reach(60) + reach(240), length(head, z) * 1000, width, Polygon2(boundary).perimeter * 1000)
    }

    @Test("each convention's slice and values", arguments: 0..<2)
    func conventions(index: Int) throws {
        let (name, head) = Self.heads[index]
        let pose = RigidTransform(rotation: Rotation3(yaw: 0.7, pitch: -0.4, roll: 1.1), translation: SIMD3(0.3, -1.2, 0.55))
        let slice = try Cephalometer.measure(head.mesh(rings: 240).transformed(by: pose), landmarks: head.landmarks.transformed(by: pose))
        let all = try #require(slice.measurement.conventions)
        #expect(all.map(\.convention) == SliceConvention.allCases)
        let heights: [SliceConvention: Double] = [
            .longestOutline: argmax(head) { outlineLength(head, $0) }, .greatestLength: argmax(head) { length(head, $0) },
        ]
        #expect(abs(heights[.longestOutline]! - heights[.greatestLength]!) > 0.005, "\(name): the slices must part")
        for values in all where values.convention != .calliper {
            let z = try #require(heights[values.convention])
            // Both peaks are flat: the height is known to a millimetre or two, the peak's value
            // (what the convention promises) much better.
            #expect(abs(values.sliceHeightMM - z * 1000) < 2, "\(name) \(values.convention): height \(values.sliceHeightMM) vs \(z * 1000)")
            let objective: (Double) -> Double = values.convention == .longestOutline ? { outlineLength(head, $0) } : { length(head, $0) }
            let reached = objective(values.sliceHeightMM / 1000) / objective(z)
            #expect(reached > 0.9995, "\(name) \(values.convention): \(reached) of the peak")
            let want = expected(head, at: values.sliceHeightMM / 1000)
            let what = "\(name) \(values.convention)"
            #expect(abs(values.diagonalAMM - want.a) < 0.005 * want.a, "\(what): A \(values.diagonalAMM) vs \(want.a)")
            #expect(abs(values.diagonalBMM - want.b) < 0.005 * want.b, "\(what): B \(values.diagonalBMM) vs \(want.b)")
            #expect(abs(values.lengthMM - want.length) < 0.005 * want.length, "\(what): length \(values.lengthMM) vs \(want.length)")
            #expect(abs(values.widthMM - want.width) < 0.005 * want.width, "\(what): width \(values.widthMM) vs \(want.width)")
            #expect(abs(values.circumferenceMM - want.outline) < 0.005 * want.outline, "\(what): circumference")
            let longer = max(want.a, want.b), shorter = min(want.a, want.b)
            #expect(abs(values.cvai - (longer - shorter) / longer * 100) < 0.05, "\(what): CVAI \(values.cvai)")
            #expect(abs(values.cvaiShorterDiagonal - (longer - shorter) / shorter * 100) < 0.05, "\(what): CVAI by the shorter")
            #expect(abs(values.ci - want.width / want.length * 100) < 0.005 * values.ci, "\(what): CI \(values.ci)")
        }
        // The measurement's own values are the longest outline's.
        let m = slice.measurement
        #expect(all[0].cvai == m.cvai && all[0].diagonalAMM == m.diagonalAMM && all[0].circumferenceMM == m.circumferenceMM)
    }

    @Test func theCalliperReadsEachDistanceShorterByThePublishedBias() throws {
        let head = Self.heads[0].1
        let all = try #require(try Cephalometer.measure(head.mesh(), landmarks: head.landmarks).measurement.conventions)
        let longest = all[0]
        let calliper = try #require(all.last)
        let bias = CalliperBias.published
        #expect(calliper.convention == .calliper)
        #expect(abs(calliper.lengthMM - (longest.lengthMM - bias.lengthMM)) < 1e-9)
        #expect(abs(calliper.widthMM - (longest.widthMM - bias.widthMM)) < 1e-9)
        #expect(abs(calliper.diagonalAMM - (longest.diagonalAMM - bias.diagonalMM)) < 1e-9)
        #expect(abs(calliper.circumferenceMM - (longest.circumferenceMM - bias.circumferenceMM)) < 1e-9)
        #expect(calliper.sliceHeightMM == longest.sliceHeightMM)
        // The same difference shortens the longer diagonal as much as the shorter: CVAI rises.
        #expect(calliper.cvai > longest.cvai)
        #expect(abs(calliper.cvaMM - longest.cvaMM) < 1e-9)
    }

    @Test func theFormulaVariantsDifferAsTheirDefinitionsSay() {
        let values = ConventionMeasures(
            .longestOutline, sliceHeight: 0.03, diagonalA: 0.150, diagonalB: 0.141, length: 0.14, width: 0.12, perimeter: 0.42)
        #expect(abs(values.cvai - 9.0 / 150 * 100) < 1e-9)
        #expect(abs(values.cvaiShorterDiagonal - 9.0 / 141 * 100) < 1e-9)
        #expect(abs(values.cvaMM - 9) < 1e-9)
        #expect(values.severityLevel == .level2)
    }
}

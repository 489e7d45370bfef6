import Foundation
import Geometry
import Testing

@testable import Cephalometry
@testable import Simulation

/// Where the tragion lies in the notch of an ear's front outline.
struct NotchMiddleTests {
    /// The simulated ear's front outline on a flat head side, rows 0.5 mm apart: per row (z),
    /// the most forward y (metres, tragion at the origin) where the ear rises over 1 mm.
    static func outline(_ ear: EarShape, crusForward: Double = 0) -> [SIMD2<Double>] {
        stride(from: -0.010, through: 0.008, by: 0.0005).compactMap { z in
            let front = stride(from: 0.006, through: -0.025, by: -0.00001).first { y in
                ear.height(back: -y, up: z) > LandmarkDetector.earThreshold
            }
            // The crus (above the notch) fused a little forward.
            return front.map { SIMD2($0 + (z > 0.002 ? crusForward : 0), z) }
        }
    }

    @Test("on the true ear the tragion is the middle of the notch's mouth, however the ear leans", arguments: [0.0, 15, 30])
    func trueEar(tilt: Double) throws {
        let outline = Self.outline(EarShape(scale: 1, tiltDegrees: tilt, protrusionDegrees: 25))
        let pocket = try #require(LandmarkDetector.deepestPocket(outline, within: -0.010...0.008))
        let middle = pocket.middle
        #expect(length(SIMD3(middle.x, middle.y, 0)) < 0.0002, "tragion off by \(middle * 1000) mm")
    }

    /// Fusion leaves an ear's fronts a few tenths of a millimetre off, unevenly. The bridge's
    /// ends touch the tragus and crus where both are nearly flat, so such a shift slides the
    /// touching point along the front, and with it the middle of the two ends; the notch's own
    /// flanks are steep and hold the middle.
    @Test("a crus fused 0.2 mm forward moves the tragion less than it moves the bridge's middle")
    func crusForward() throws {
        let ear = EarShape(scale: 1, tiltDegrees: 25, protrusionDegrees: 25)
        let pocket = try #require(LandmarkDetector.deepestPocket(Self.outline(ear, crusForward: 0.0002), within: -0.010...0.008))
        let bridgeMiddle = (pocket.a + pocket.b) / 2
        #expect(abs(pocket.middle.x) < 0.00015, "tragion \(pocket.middle.x * 1000) mm forward")
        #expect(abs(pocket.middle.y) < 0.0004, "tragion \(pocket.middle.y * 1000) mm up")
        #expect(length(SIMD3(bridgeMiddle.x, bridgeMiddle.y, 0)) > 2 * length(SIMD3(pocket.middle.x, pocket.middle.y, 0)))
    }
}

/// Where the midline of a face's band lies across.
struct MirrorCentreTests {
    /// A face seen from the front, 60 mm wide and 40 mm tall: a forehead tilted and curved
    /// about another middle, and more curved still on its right by `lopsided` (metres of rise
    /// per metre cubed), with a hollow 3 mm deep and 40 mm wide, symmetric about `x = centre`,
    /// across its middle rows (z = 0).
    static func face(centre: Double, lopsided: Double = 0) -> HeightMap {
        let step = 0.0005, columns = 121, rows = 81
        func height(_ x: Double, _ z: Double) -> Double {
            let base = 0.08 + 0.04 * x - 2 * (x - 0.004) * (x - 0.004) + lopsided * max(0, x) * x * x - 0.5 * z * z
            let across = max(0, 1 - pow((x - centre) / 0.02, 2)), up = max(0, 1 - pow(z / 0.009, 2))
            return base - 0.003 * across * across * up * up
        }
        var mesh = TriangleMesh()
        for j in 0..<rows {
            for i in 0..<columns {
                let x = -0.03 + Double(i) * step, z = -0.02 + Double(j) * step
                mesh.vertices.append(SIMD3(x, height(x, z), z))
            }
        }
        for j in 0..<(rows - 1) {
            for i in 0..<(columns - 1) {
                let a = Int32(j * columns + i), b = a + 1, c = a + Int32(columns), d = c + 1
                mesh.faces += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        return HeightMap(mesh, origin: SIMD2(-0.03, -0.02), cell: step, columns: columns, rows: rows, across: { SIMD2($0.x, $0.z) }, along: { $0.y })
    }

    static func mirrorCentre(_ map: HeightMap) throws -> Double {
        let column = try #require(map.mirrorCentre(rows: 36...44, near: 60, reach: 6, halfWidth: 36))
        return map.origin.x + column * map.cell
    }

    @Test(
        "on a forehead tilted and curved about another middle, the mirror centre is the hollow's middle, between cells",
        arguments: [0.0, 0.00037, -0.0011])
    func hollowMiddle(centre: Double) throws {
        let x = try Self.mirrorCentre(Self.face(centre: centre))
        #expect(abs(x - centre) < 0.00003, "mirror centre \(x * 1000) mm, hollow at \(centre * 1000) mm")
    }

    /// The limit: a forehead more curved on one side than the other (0.12 mm more at the
    /// band's edge, 18 mm out) pulls the centre toward that side by about as much.
    @Test("a forehead more curved on one side pulls the centre by about as much as it rises there")
    func lopsidedForehead() throws {
        let x = try Self.mirrorCentre(Self.face(centre: 0.00037, lopsided: 20))
        #expect(abs(x - 0.00037) < 0.0002 && abs(x - 0.00037) > 0.00003, "mirror centre \(x * 1000) mm")
    }

    @Test("a band too empty to compare gives no centre")
    func emptyBand() throws {
        let map = Self.face(centre: 0)
        #expect(map.mirrorCentre(rows: 36...44, near: 3, reach: 2, halfWidth: 36) == nil)
    }
}

@Suite("The nasion's hollow in the midline profile")
struct NasionHollowTests {
    /// Rows 0.5 mm apart from above the nose tip upward; heights in metres (forward).
    static func profile(_ height: (Double) -> Double, rows: Int = 80) -> [(row: Int, height: Double)] {
        (0..<rows).map { j in (j, height(Double(j) * 0.0005)) }
    }

    @Test("an infant's forehead that rises on: the deepest row, as before")
    func risingForehead() {
        // The nose's ridge falls back 6 mm to a hollow 12 mm up, then the forehead comes forward.
        let p = Self.profile { z in 40 * (z - 0.012) * (z - 0.012) - 0.004 }
        let deepest = p.indices.min { p[$0].height < p[$1].height }
        #expect(deepestHollow(p) == deepest)
        #expect(deepestHollow(p) == 24)
    }

    @Test("an adult's forehead that recedes behind the nasion above the brow: the hollow below the brow")
    func recedingForehead() {
        // Hollow at 10 mm, brow 2 mm forward at 18 mm, then the forehead recedes 8 mm by 40 mm.
        let p = Self.profile { z in
            let hollow = 30 * (z - 0.010) * (z - 0.010)
            return z < 0.018 ? hollow : 30 * 0.008 * 0.008 - 0.4 * (z - 0.018) * 20 * (z - 0.018)
        }
        #expect(p.last!.height < p[20].height)
        #expect(deepestHollow(p) == 20)
    }

    @Test("a profile that only falls has no hollow: the forehead's top is no nasion")
    func noHollow() {
        let p = Self.profile { z in -z }
        #expect(deepestHollow(p) == nil)
        let q = Self.profile { z in -z * z }
        #expect(deepestHollow(q) == nil)
    }
}

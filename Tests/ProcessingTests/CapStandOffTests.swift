import Cephalometry
import Foundation
import Geometry
import Simulation
import Testing

@testable import Processing

/// A head drawn as a surface of revolution about the head frame's z axis, its cap's stickers
/// on a ring just above the cap's edge, and landmarks that make the head frame the identity.
private struct RevolvedHead {
    static let edge = 0.012
    static let landmarks = HeadLandmarks(
        nasion: SIMD3(0, 0.08, 0), noseTip: SIMD3(0, 0.09, -0.01), leftTragion: SIMD3(-0.07, 0, 0), rightTragion: SIMD3(0.07, 0, 0))

    /// The distance from the axis at an azimuth (degrees, 0 in front, 90 right) and height.
    var radius: (Double, Double) -> Double
    var stepDegrees = 2.0
    var stepHeight = 0.001

    /// A sphere of 75 mm about a centre 10 mm above the ear line.
    static func skull(_ azimuth: Double, _ z: Double) -> Double { (0.075 * 0.075 - (z - 0.01) * (z - 0.01)).squareRoot() }

    var mesh: TriangleMesh {
        let columns = Int((360 / stepDegrees).rounded()), rows = Int((0.08 / stepHeight).rounded()) + 1
        var vertices: [SIMD3<Double>] = []
        for row in 0..<rows {
            let z = -0.02 + Double(row) * stepHeight
            for column in 0..<columns {
                let a = Double(column) * stepDegrees - 180
                let r = radius(a, z)
                vertices.append(SIMD3(r * sin(a * .pi / 180), r * cos(a * .pi / 180), z))
            }
        }
        var faces: [SIMD3<Int32>] = []
        for row in 0..<(rows - 1) {
            for column in 0..<columns {
                let a = Int32(row * columns + column), b = Int32(row * columns + (column + 1) % columns)
                let c = a + Int32(columns), d = b + Int32(columns)
                faces += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        return TriangleMesh(vertices: vertices, faces: faces)
    }

    /// Sixteen 14 mm stickers whose lower corners lie 4 mm above the edge, on the surface.
    var stickers: [[SIMD3<Double>]] {
        (0..<16).map { i in
            let a = Double(i) * 22.5 - 180
            return [(-4.0, 0.016), (4, 0.016), (4, 0.030), (-4, 0.030)].map { da, z in
                let angle = (a + da) * .pi / 180
                let r = radius(a + da, z)
                return SIMD3(r * sin(angle), r * cos(angle), z)
            }
        }
    }

    /// `skull` with the cap lifted by `lift(azimuth)` metres, rising linearly over `width`
    /// above the edge.
    static func lifted(width: Double = 0.006, _ lift: @escaping (Double) -> Double) -> (Double, Double) -> Double {
        { a, z in skull(a, z) + lift(a) * min(1, max(0, (z - edge) / width)) }
    }

    func estimate() -> CapStandOff? { CapStandOff.estimate(mesh: mesh, landmarks: Self.landmarks, stickers: stickers) }
}

struct CapStandOffTests {
    /// A lift of `height` metres that is largest at `centre` degrees and falls to 0 at 60° from it.
    static func bump(_ height: Double, at centre: Double) -> (Double) -> Double {
        { a in
            let off = CapStandOff.angleBetween(a, centre)
            return off < 60 ? height * 0.5 * (1 + cos(off / 60 * .pi)) : 0
        }
    }

    @Test func aCapLyingOnTheSkullStandsOffByNothing() throws {
        let found = try #require(RevolvedHead(radius: RevolvedHead.skull).estimate())
        #expect(abs(found.largest) < 0.0001, "\(found.largest)")
        #expect(!found.liftedByHair)
        #expect(found.outlinesFitted == 46, "all but the 13 outlines at each ear")
    }

    @Test func hairBehindTheLeftEarIsFoundThereAndHowFar() throws {
        let head = RevolvedHead(radius: RevolvedHead.lifted(Self.bump(0.002, at: -135)))
        let found = try #require(head.estimate())
        #expect(abs(found.largest - 0.002) < 0.00015, "\(found.largest)")
        #expect(CapStandOff.angleBetween(found.azimuthDegrees, -135) <= 10, "\(found.azimuthDegrees)")
        #expect(found.place == "over the back of the head, on the left")
        #expect(found.liftedByHair)
    }

    @Test(arguments: [0.002, 0.004, 0.007, 0.010])
    func aRiseOfAnyWidthReadsItsHeight(width: Double) throws {
        let head = RevolvedHead(radius: RevolvedHead.lifted(width: width, Self.bump(0.0015, at: 45)))
        let found = try #require(head.estimate())
        #expect(abs(found.largest - 0.0015) < 0.00015, "\(width): \(found.largest)")
        #expect(found.place == "over the forehead, on the right")
    }

    @Test func aThinLayerIsNotHairAndAThickOneEverywhereIs() throws {
        let thin = try #require(RevolvedHead(radius: RevolvedHead.lifted(width: 0.004) { _ in 0.0003 }).estimate())
        #expect(abs(thin.largest - 0.0003) < 0.0001 && !thin.liftedByHair)
        let thick = try #require(RevolvedHead(radius: RevolvedHead.lifted(width: 0.004) { _ in 0.0025 }).estimate())
        #expect(abs(thick.largest - 0.0025) < 0.0001 && thick.liftedByHair)
    }

    @Test func betweenHalfAMillimetreAndTheLimitTheScanIsMeasuredWithADoubt() {
        func reading(_ millimetres: Double) -> CapStandOff { CapStandOff(largest: millimetres / 1000, azimuthDegrees: 30, outlinesFitted: 46) }
        #expect(CapFitAdvice.mayBeLiftedWarning(reading(0.4)) == nil)
        let doubt = CapFitAdvice.mayBeLiftedWarning(reading(0.7))
        #expect(doubt?.kind == .capMayBeLifted)
        #expect(doubt?.message.hasPrefix("The cap may stand about 0.7 mm off the skin at its lower edge over the forehead, on the right") == true)
        #expect(CapFitAdvice.mayBeLiftedWarning(reading(1.2)) == nil, "past the limit it is refused, or measured with the other warning")
        #expect(CapFitAdvice.liftedWarning(reading(1.2))?.kind == .capLifted)
        #expect(CapFitAdvice.liftedWarning(reading(0.7)) == nil)
    }

    @Test func earsAndABrowBelowTheEdgeAreNotHair() throws {
        let head = RevolvedHead { a, z in
            var r = RevolvedHead.skull(a, z)
            // Ears stand 15 mm out up to 4 mm above the ear line; a brow ridge 3 mm at 2 mm.
            if (CapStandOff.angleBetween(a, 90) < 14 || CapStandOff.angleBetween(a, -90) < 14) && z < 0.004 { r += 0.015 }
            if CapStandOff.angleBetween(a, 0) < 40 { r += 0.003 * exp(-pow((z - 0.002) / 0.003, 2)) }
            return r
        }
        let found = try #require(head.estimate())
        #expect(found.largest < 0.0005, "\(found.largest) at \(found.azimuthDegrees)")
    }

    @Test func theHeadInAnyPoseReadsTheSame() throws {
        let head = RevolvedHead(radius: RevolvedHead.lifted(Self.bump(0.002, at: 100)))
        let direct = try #require(head.estimate())
        let pose = RigidTransform(rotation: Rotation3(axis: normalized(SIMD3(0.3, -1, 0.5)), angle: 2.1), translation: SIMD3(0.1, -0.2, 0.4))
        var mesh = head.mesh
        mesh.vertices = mesh.vertices.map(pose.apply)
        let l = RevolvedHead.landmarks
        let moved = HeadLandmarks(
            nasion: pose.apply(l.nasion), noseTip: pose.apply(l.noseTip), leftTragion: pose.apply(l.leftTragion),
            rightTragion: pose.apply(l.rightTragion))
        let posed = try #require(CapStandOff.estimate(mesh: mesh, landmarks: moved, stickers: head.stickers.map { $0.map(pose.apply) }))
        #expect(abs(posed.largest - direct.largest) < 1e-6)
        #expect(abs(posed.azimuthDegrees - direct.azimuthDegrees) < 1e-9)
    }

    @Test func withoutStickersAroundTheHeadThereIsNoEdgeToRead() {
        let head = RevolvedHead(radius: RevolvedHead.skull)
        #expect(CapStandOff.estimate(mesh: head.mesh, landmarks: RevolvedHead.landmarks, stickers: []) == nil)
        // Two stickers are no ring: three make one, and three in front reach a third of the way around.
        let front = Array(head.stickers[7...8])
        #expect(CapStandOff.estimate(mesh: head.mesh, landmarks: RevolvedHead.landmarks, stickers: front) == nil)
    }

    @Test func junkMeshesAndMapsNeverTrap() {
        var random = SplitMix64(seed: 0xCA95)
        let head = RevolvedHead(radius: RevolvedHead.skull, stepDegrees: 6, stepHeight: 0.004)
        let junk: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 0, 1e-300]
        func value() -> Double {
            random.next() % 4 == 0 ? junk[Int(random.next() % UInt64(junk.count))] : Double(Int64(bitPattern: random.next() % 2000) - 1000) / 5000
        }
        for _ in 0..<16 {
            var mesh = head.mesh
            for _ in 0..<20 {
                let index = Int(random.next() % UInt64(mesh.vertices.count))
                mesh.vertices[index] = SIMD3(value(), value(), value())
            }
            mesh.faces.append(SIMD3(-1, 0, Int32.max))
            var stickers = head.stickers
            stickers[Int(random.next() % 16)] = [SIMD3(value(), value(), value())]
            stickers.append([])
            let landmarks =
                random.next() % 3 == 0
                ? HeadLandmarks(
                    nasion: SIMD3(value(), value(), value()), noseTip: .zero, leftTragion: SIMD3(-0.07, 0, 0), rightTragion: SIMD3(0.07, 0, 0))
                : RevolvedHead.landmarks
            if let found = CapStandOff.estimate(mesh: mesh, landmarks: landmarks, stickers: stickers) {
                #expect(found.largest.isFinite && found.azimuthDegrees.isFinite)
            }
        }
    }
}

struct CapLiftedProcessingTests {
    @Test func hairUnderTheCapStopsTheMeasurementSaysWhereAndWhatToDoAndOnRequestItIsMeasured() throws {
        let fixture = try LiftingFixture(withCap: true, hairMillimetres: 3)
        defer { fixture.remove() }
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        let error = #expect(throws: ProcessingError.self) { try SessionProcessor(library: fixture.library).process(fixture.session) }
        guard case .capLifted(let standOff) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(standOff.largest > CapStandOff.hairThreshold && standOff.largest < 0.0035, "\(standOff.largest)")
        let words = error?.description ?? ""
        #expect(words.contains("mm off the skin at its lower edge over the") && words.contains("Flatten the hair"), "\(words)")
        #expect(words.contains("--measure-over-hair"))
        #expect(try fixture.library.measurement(in: fixture.session) == nil, "nothing measured is saved")

        var options = ProcessingOptions()
        options.measuresOverLiftedCap = true
        let result = try SessionProcessor(library: fixture.library, options: options).process(fixture.session)
        let warning = try #require(result.measurement.warnings.first { $0.kind == .capLifted })
        #expect(warning.message.hasPrefix("The cap stands about") && warning.message.contains("not the skull's"))
        #expect(result.capStandOff == standOff)
    }
}

import Foundation
import Geometry
import Testing

@testable import Cephalometry

@Suite("Asymmetry map")
struct AsymmetryMapTests {
    /// Fewer registration points than a scan gets, so debug builds stay quick.
    static func options(_ plane: AsymmetryPlane = .landmarks) -> AsymmetryOptions {
        var options = AsymmetryOptions()
        options.samples = 2000
        options.plane = plane
        return options
    }

    static let pose = RigidTransform(rotation: Rotation3(yaw: -0.9, pitch: 0.5, roll: 2.0), translation: SIMD3(0.4, 0.1, -0.8))

    /// Landmarks whose mid-sagittal plane is tilted by `degrees` about the forward axis and
    /// moved sideways by `shift`, as a hand's picks are: the map must find the head's own plane.
    func skewed(_ landmarks: HeadLandmarks, degrees: Double, shift: Double) -> HeadLandmarks {
        let turn = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: degrees * Double.pi / 180), translation: SIMD3(shift, 0, 0))
        return landmarks.transformed(by: turn)
    }

    @Test("a symmetric head lies within 0.3 mm of its mirror image everywhere")
    func symmetricHead() throws {
        let head = Superellipsoid(a: 0.06, b: 0.07, n: 2.4, m: 2.2)
        let map = try AsymmetryMap.compute(
            head.mesh(around: 160, rings: 60, phase: 0.3).transformed(by: Self.pose), landmarks: head.landmarks.transformed(by: Self.pose),
            options: Self.options())
        let worst = map.valuesMM.filter { !$0.isNaN }.map(abs).max() ?? .infinity
        #expect(worst < 0.3, "worst \(worst) mm")
        #expect(map.summary.plane == .landmarks)
        #expect(map.summary.planeTiltDegrees < 0.1 && abs(map.summary.planeOffsetMM) < 0.1)
    }

    @Test("the registered plane finds a symmetric head's own plane when the landmarks are off")
    func registeredPlane() throws {
        let head = Superellipsoid(a: 0.06, b: 0.07, n: 2.4, m: 2.2)
        let landmarks = skewed(head.landmarks, degrees: 4, shift: 0.003)
        let map = try AsymmetryMap.compute(
            head.mesh(around: 160, rings: 60, phase: 0.3).transformed(by: Self.pose), landmarks: landmarks.transformed(by: Self.pose),
            options: Self.options(.registered))
        let worst = map.valuesMM.filter { !$0.isNaN }.map(abs).max() ?? .infinity
        #expect(worst < 0.3, "worst \(worst) mm")
        #expect(map.summary.coverage > 0.99)
        // The landmarks' plane was tilted 4° and moved 3 mm; the map's plane is the head's.
        #expect(abs(map.summary.planeTiltDegrees - 4) < 0.2, "tilt \(map.summary.planeTiltDegrees)")
        #expect(abs(abs(map.summary.planeOffsetMM) - 3) < 0.3, "offset \(map.summary.planeOffsetMM)")
    }

    @Test("a flattening of known depth shows as its depth, at its place", arguments: [0.003, 0.006], AsymmetryPlane.allCases)
    func flattenedHead(depth: Double, plane: AsymmetryPlane) throws {
        let head = Superellipsoid(a: 0.058, b: 0.07, forward: 0.004)
        var mesh = head.mesh(around: 160, rings: 60, phase: 0.3)
        // Cut the back-right of the vault with a plane `depth` inside its farthest point.
        let direction = normalized(SIMD3(0.7, -0.7, 0.35))
        guard let support = mesh.vertices.max(by: { dot($0, direction) < dot($1, direction) }) else { return }
        let level = dot(support, direction) - depth
        mesh.vertices = mesh.vertices.map { p in p - direction * max(0, dot(p, direction) - level) }
        let map = try AsymmetryMap.compute(
            mesh.transformed(by: Self.pose), landmarks: head.landmarks.transformed(by: Self.pose), options: Self.options(plane))
        let s = map.summary
        #expect(abs(-s.maximumInwardMM - depth * 1000) < 0.5, "deepest \(s.maximumInwardMM) mm for a \(depth * 1000) mm cut")
        let deepest = SIMD3(s.deepestPointMM[0], s.deepestPointMM[1], s.deepestPointMM[2]) / 1000
        #expect(
            length(deepest - (support - direction * depth)) < 0.012,
            "deepest at \(s.deepestPointMM), cut centre \((support - direction * depth) * 1000)")
        // Its mirrored twin on the left bulges by as much.
        #expect(abs(s.maximumOutwardMM - depth * 1000) < 0.5, "bulge \(s.maximumOutwardMM)")
    }

    @Test("the closest-point grid agrees with a search of every triangle")
    func gridMatchesBruteForce() throws {
        let mesh = Superellipsoid().mesh(around: 40, rings: 20)
        let grid = try #require(ClosestPointGrid(mesh, cellSize: 0.01))
        var random = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let p = SIMD3(random.uniform(-0.2...0.2), random.uniform(-0.2...0.2), random.uniform(-0.1...0.25))
            let hit = try #require(grid.closest(to: p))
            #expect(abs(hit.distance - mesh.distance(to: p)) < 1e-12)
        }
        #expect(grid.closest(to: SIMD3(5, 5, 5), maximumDistance: 0.1) == nil)
    }
}

@Suite("Shape measures and map of a scan with holes")
struct HoledScanTests {
    @Test("a hole in the vault is bridged for the volumes and has no mirror partner in the map")
    func holedScan() throws {
        let head = Superellipsoid(a: 0.058, b: 0.07)
        let whole = head.mesh(around: 160, rings: 60, phase: 0.3)
        // Remove every triangle whose centre lies within 12 mm of a point on the right side,
        // 40 mm above the reference plane: a patch the camera never saw.
        let centre = SIMD3(0.05, 0.0, 0.04)
        var holed = whole
        holed.faces = whole.faces.filter { f in
            let c = (whole.vertices[Int(f.x)] + whole.vertices[Int(f.y)] + whole.vertices[Int(f.z)]) / 3
            return length(c - centre) > 0.012
        }
        #expect(holed.faces.count < whole.faces.count)
        let full = try #require(try Cephalometer.measure(whole, landmarks: head.landmarks).measurement.shape)
        let slice = try Cephalometer.measure(holed, landmarks: head.landmarks)
        let shape = try #require(slice.measurement.shape)
        // The hole is bridged slice by slice: the volume moves by far less than a percent.
        #expect(
            abs(shape.cranialVolumeCM3 - full.cranialVolumeCM3) < 0.01 * full.cranialVolumeCM3,
            "\(shape.cranialVolumeCM3) vs \(full.cranialVolumeCM3)")
        var options = AsymmetryOptions()
        options.samples = 1000
        let map = try AsymmetryMap.compute(holed, landmarks: head.landmarks, options: options)
        #expect(map.valuesMM.count == holed.vertices.count)
        // Left-side points mirror into the hole: they have no partner, and none is called flat.
        #expect(map.summary.coverage < 1)
        #expect(map.valuesMM.filter { !$0.isNaN }.map(abs).max() ?? .infinity < 0.3)
    }
}

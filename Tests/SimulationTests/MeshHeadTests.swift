import Cephalometry
import Foundation
import Geometry
import Testing

@testable import Simulation

@Suite("A head given as a mesh")
struct MeshHeadTests {
    /// A drawn head and the same head given as its mesh, built once for the tests that need it.
    static let drawn = try! HeadModel(HeadParameters(lengthMM: 140, cranialIndex: 82, cvai: 6, flatSide: .right))
    static let drawnMesh: TriangleMesh = {
        // Coarser than the simulator's own (a 2 mm grid on the vault), for speed.
        var mesh = HeadMesh.skull(drawn, segments: 180, elevationSteps: 90)
        for part in [HeadMesh.ear(drawn, side: -1), HeadMesh.ear(drawn, side: 1), HeadMesh.nose(drawn)] { mesh.append(part) }
        return mesh
    }()
    static let given = try! MeshHead(mesh: drawnMesh, landmarks: drawn.landmarks, circumferenceMM: nil, gridDegrees: 1.5)

    /// A sphere of `radius` about `centre` as rings of constant elevation (poles closed).
    private func sphere(radius: Double, centre: SIMD3<Double> = .zero, segments: Int = 48, rings: Int = 24) -> TriangleMesh {
        var mesh = TriangleMesh()
        for k in 1..<rings {
            let psi = -Double.pi / 2 + Double(k) * Double.pi / Double(rings)
            for i in 0..<segments {
                let phi = Double(i) * 2 * Double.pi / Double(segments)
                mesh.vertices.append(centre + radius * SIMD3(cos(psi) * cos(phi), cos(psi) * sin(phi), sin(psi)))
            }
        }
        let south = Int32(mesh.vertices.count), north = south + 1
        mesh.vertices += [centre - SIMD3(0, 0, radius), centre + SIMD3(0, 0, radius)]
        func v(_ ring: Int, _ i: Int) -> Int32 { Int32(ring * segments + i % segments) }
        for ring in 0..<(rings - 2) {
            for i in 0..<segments {
                mesh.faces += [SIMD3(v(ring, i), v(ring, i + 1), v(ring + 1, i + 1)), SIMD3(v(ring, i), v(ring + 1, i + 1), v(ring + 1, i))]
            }
        }
        for i in 0..<segments {
            mesh.faces += [SIMD3(south, v(0, i + 1), v(0, i)), SIMD3(north, v(rings - 2, i), v(rings - 2, i + 1))]
        }
        return mesh
    }

    /// The rays from inside a sphere meet it at its radius (within the chords' sag), at the
    /// poles and across the seam at ±180° as well.
    @Test func raysFromInsideMeetASphereAtItsRadius() throws {
        let radius = 0.07
        let surface = RadialSurface(sphere(radius: radius, segments: 96, rings: 48), stepDegrees: 1.25)
        let sag = radius * (1 - cos(Double.pi / 96))
        for (phi, psi) in [(0.0, 0.0), (3.1, 0.2), (-3.14, -0.4), (1.0, 1.5707), (2.0, -1.5707), (0.7, 0.9)] {
            let r = try #require(surface.distance(phi: phi, psi: psi))
            #expect(r <= radius + 1e-9 && r >= radius - 2 * sag, "phi \(phi) psi \(psi): \(r)")
        }
    }

    /// Of two surfaces in the same direction the ray keeps the farther, the outer skin.
    @Test func theOuterOfTwoSurfacesCounts() throws {
        var mesh = sphere(radius: 0.05)
        let outer = sphere(radius: 0.08)
        let offset = Int32(mesh.vertices.count)
        mesh.vertices += outer.vertices
        mesh.faces += outer.faces.map { $0 &+ offset }
        let r = try #require(RadialSurface(mesh, stepDegrees: 2).distance(phi: 0.3, psi: 0.2))
        #expect(abs(r - 0.08) < 0.001)
    }

    /// Where the mesh has a hole, no distance is made up.
    @Test func aHoleGivesNoDistance() {
        var mesh = sphere(radius: 0.07)
        // Remove every face whose corners all lie above 60° of elevation.
        mesh.faces.removeAll { f in [f.x, f.y, f.z].allSatisfy { mesh.vertices[Int($0)].z > 0.07 * sin(Double.pi / 3) } }
        let surface = RadialSurface(mesh, stepDegrees: 2)
        #expect(surface.distance(phi: 0, psi: 1.5) == nil)
        #expect(surface.distance(phi: 0, psi: 0) != nil)
        // Angles that are no direction give nothing rather than a trap.
        for phi in [Double.nan, .infinity, 1e300, -1e300] { #expect(surface.distance(phi: phi, psi: 0) == nil) }
    }

    /// Loop's subdivision quadruples the faces, adds a vertex per edge and bends a coarse
    /// sphere's creases (the angle between neighbouring faces) less sharply, never outside it.
    @Test func subdivisionRefinesTowardTheSmoothSurface() {
        let coarse = sphere(radius: 0.07, segments: 12, rings: 6)
        let fine = LoopSubdivision.subdivide(coarse)
        #expect(fine.faces.count == 4 * coarse.faces.count)
        #expect(fine.vertices.count == coarse.vertices.count + coarse.faces.count * 3 / 2)
        #expect(fine.isValid)
        func sharpestCrease(_ m: TriangleMesh) -> Double {
            var normals: [String: [SIMD3<Double>]] = [:]
            for (i, f) in m.faces.enumerated() {
                let (a, b, c) = m.corners(of: i)
                let n = normalized(cross(b - a, c - a))
                for (u, v) in [(f.x, f.y), (f.y, f.z), (f.z, f.x)] { normals["\(min(u, v))-\(max(u, v))", default: []].append(n) }
            }
            return normals.values.filter { $0.count == 2 }.map { acos(min(1, dot($0[0], $0[1]))) }.max() ?? 0
        }
        #expect(sharpestCrease(fine) < 0.7 * sharpestCrease(coarse))
        #expect(fine.vertices.allSatisfy { length($0) <= 0.07 + 1e-9 })
        #expect(LoopSubdivision.meanEdge(fine) < 0.6 * LoopSubdivision.meanEdge(coarse))
    }

    /// The drawn head given back as a mesh measures as the drawn head does, and scaled to
    /// another circumference keeps its ratios.
    @Test func theDrawnHeadAsAMeshMeasuresAsItself() throws {
        let (drawn, mesh, given) = (Self.drawn, Self.drawnMesh, Self.given)
        #expect(given.subdivisions == 0)
        #expect(abs(given.measurements.cvai - drawn.measurements.cvai) < 0.15)
        #expect(abs(given.measurements.circumferenceMM - drawn.measurements.circumferenceMM) < 2)
        let scaled = try MeshHead(mesh: mesh, landmarks: drawn.landmarks, circumferenceMM: 380, gridDegrees: 3)
        #expect(abs(scaled.scale - 380 / given.measurements.circumferenceMM) < 1e-9)
        #expect(abs(scaled.measurements.ci - given.measurements.ci) < 0.6)
        #expect(abs(scaled.measurements.circumferenceMM - 380) < 8)
    }

    /// A mesh turned and moved: the head frame comes from its landmarks.
    @Test func aTurnedMeshIsPlacedByItsLandmarks() throws {
        let drawn = Self.drawn
        let pose = RigidTransform(rotation: Rotation3(axis: normalized(SIMD3(1, 2, 3)), angle: 1.1), translation: SIMD3(0.3, -0.2, 1.0))
        let given = try MeshHead(
            mesh: Self.drawnMesh.transformed(by: pose), landmarks: drawn.landmarks.transformed(by: pose), circumferenceMM: nil, gridDegrees: 3)
        for landmark in Landmark.allCases {
            #expect(length(given.landmarks[landmark] - drawn.landmarks[landmark]) < 1e-9)
        }
        #expect(abs(given.measurements.cvai - drawn.measurements.cvai) < 0.15)
    }

    /// Stickers go where the vault is smooth, not onto an ear.
    @Test func stickersStayOffTheEars() throws {
        let (drawn, given) = (Self.drawn, Self.given)
        #expect(given.holdsSticker(phi: 0.3, psi: 0.9))
        #expect(given.holdsSticker(phi: Double.pi / 2, psi: 0.4))
        let tragion = drawn.landmarks.rightTragion
        let behindTheTragion = SIMD3(tragion.x, tragion.y - 0.012, tragion.z - 0.004)
        let (phi, psi) = given.direction(toward: behindTheTragion)
        #expect(!given.holdsSticker(phi: phi, psi: psi))
    }

    /// A mesh head is scanned like a drawn one: the cap sits on its surface and frames come.
    @Test func theSimulatorScansAMeshHead() throws {
        var configuration = Simulator.Configuration(seed: 2, seconds: 0.1)
        configuration.meshHead = Self.given
        let simulator = try Simulator(configuration)
        let given = try #require(configuration.meshHead)
        #expect(simulator.measurements == given.measurements)
        #expect(simulator.landmarks == given.landmarks)
        #expect(simulator.cap.stickers.count + simulator.cap.folded.count == configuration.layout.markers.count)
        #expect(simulator.cap.stickers.count >= 45)
        for sticker in simulator.cap.stickers {
            // The paper rests on the surface: on it at its highest point, nowhere under it.
            var highest = -Double.infinity
            for u in stride(from: -1.0, through: 1.0, by: 0.25) {
                for v in stride(from: -1.0, through: 1.0, by: 0.25) {
                    let (phi, psi) = given.direction(toward: sticker.centre + (sticker.right * u + sticker.up * v) * sticker.side * 4 / 6)
                    let p = given.surfacePoint(phi: phi, psi: psi)
                    highest = max(highest, dot(p - sticker.centre, sticker.normal))
                }
            }
            #expect(highest <= 1e-5 && highest > -0.0006, "sticker \(sticker.id): the surface's highest point under it \(highest)")
        }
        #expect(simulator.nextFrame() != nil)
        configuration.capFit = CapFit(hairMillimetres: 2)
        #expect(throws: SimulationError.self) { try Simulator(configuration) }
    }

    /// What cannot be a head is refused with the reason.
    @Test func whatCannotBeAHeadIsRefused() throws {
        let mesh = Self.drawnMesh
        let landmarks = Self.drawn.landmarks
        var broken = mesh
        broken.vertices[5].x = .nan
        var pointsPast = mesh
        pointsPast.faces.append(SIMD3(0, 1, Int32(mesh.vertices.count)))
        var sameEars = landmarks
        sameEars.leftTragion = landmarks.rightTragion
        let far = sphere(radius: 0.05, centre: SIMD3(0.5, 0, 0))
        let cases: [(TriangleMesh, HeadLandmarks, Double?)] = [
            (TriangleMesh(), landmarks, nil), (broken, landmarks, nil), (pointsPast, landmarks, nil), (mesh, sameEars, nil),
            (mesh, landmarks, 50), (mesh, landmarks, .nan), (far, landmarks, nil),
        ]
        for (m, l, c) in cases {
            #expect(throws: SimulationError.self) { try MeshHead(mesh: m, landmarks: l, circumferenceMM: c, gridDegrees: 3) }
        }
    }
}

@Suite("A head mesh from a file, fuzzed")
struct MeshHeadFuzzTests {
    /// Random small meshes and landmarks (points on top of each other, far apart, faces that
    /// repeat a corner, scales from a micrometre to a kilometre): building a head either
    /// succeeds with finite measures and lookups, or throws; it never traps.
    @Test func arbitraryMeshesNeverTrap() {
        var random = SplitMix64(seed: 4242)
        var built = 0
        for round in 0..<60 {
            let scale = [1e-6, 0.07, 0.07, 0.07, 1e3][random.integer(0...4)]
            func point() -> SIMD3<Double> {
                SIMD3(random.gaussian(sigma: 1), random.gaussian(sigma: 1), random.gaussian(sigma: 1)) * scale
            }
            var mesh = TriangleMesh(vertices: (0..<(3 + random.integer(0...29))).map { _ in point() })
            let count = Int32(mesh.vertices.count)
            mesh.faces = (0..<(1 + random.integer(0...39))).map { _ in
                SIMD3(Int32(random.integer(0...Int(count - 1))), Int32(random.integer(0...Int(count - 1))), Int32(random.integer(0...Int(count - 1))))
            }
            let landmarks = HeadLandmarks(nasion: point(), noseTip: point(), leftTragion: point(), rightTragion: point())
            let circumference: Double? = round % 3 == 0 ? 100 + 600 * random.unit() : nil
            guard let head = try? MeshHead(mesh: mesh, landmarks: landmarks, circumferenceMM: circumference, gridDegrees: 10) else { continue }
            built += 1
            #expect(head.measurements.cvai.isFinite && head.measurements.circumferenceMM.isFinite)
            for _ in 0..<5 {
                let phi = (random.unit() - 0.5) * 7, psi = (random.unit() - 0.5) * 3.2
                let n = head.surfaceNormal(phi: phi, psi: psi)
                #expect(n.x.isFinite && n.y.isFinite && n.z.isFinite)
                _ = head.holdsSticker(phi: phi, psi: psi)
            }
        }
        #expect(built < 60, "most random meshes are no head")
    }
}

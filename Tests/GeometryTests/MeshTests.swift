import Foundation
import Testing

@testable import Geometry

/// A unit cube with outward faces, centred at `centre`.
func cube(centre: SIMD3<Double> = .zero, side: Double = 1) -> TriangleMesh {
    let h = side / 2
    var vertices: [SIMD3<Double>] = []
    for z in [-h, h] { for y in [-h, h] { for x in [-h, h] { vertices.append(centre + SIMD3(x, y, z)) } } }
    let quads: [[Int32]] = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
    let faces = quads.flatMap { q in [SIMD3(q[0], q[1], q[2]), SIMD3(q[0], q[2], q[3])] }
    return TriangleMesh(vertices: vertices, faces: faces)
}

struct TriangleMeshTests {
    @Test func cubeHasItsVolumeAndArea() {
        let mesh = cube(side: 2)
        #expect(abs(mesh.volume - 8) < 1e-12)
        #expect(abs(mesh.area - 24) < 1e-12)
        #expect(mesh.isValid)
    }

    @Test func appendKeepsComponentsApart() {
        var mesh = cube()
        mesh.append(cube(centre: SIMD3(5, 0, 0)))
        #expect(mesh.vertices.count == 16 && mesh.faces.count == 24)
        #expect(abs(mesh.volume - 2) < 1e-12)
        #expect(mesh.faces.last!.x >= 8)
    }

    @Test func plyRoundTripKeepsTheMeshWithinFloatPrecision() throws {
        let mesh = cube(centre: SIMD3(0.01, -0.02, 0.03), side: 0.1)
        let back = try PLY.decode(PLY.encode(mesh, comment: "test"))
        #expect(back.faces == mesh.faces)
        for (a, b) in zip(mesh.vertices, back.vertices) { #expect(length(a - b) < 1e-8) }
    }

    @Test func plyRoundTripKeepsVertexColours() throws {
        var mesh = cube(side: 0.1)
        mesh.colors = mesh.vertices.indices.map { SIMD3(UInt8($0 * 30), UInt8(255 - $0), 7) }
        for bytes in [PLY.encode(mesh), PLY.encodeASCII(mesh)] {
            let header = String(decoding: bytes.prefix(400), as: UTF8.self)
            #expect(header.contains("property uchar red\nproperty uchar green\nproperty uchar blue\n"))
            let back = try PLY.decode(bytes)
            #expect(back.colors == mesh.colors)
            #expect(back.faces == mesh.faces)
        }
        // Uncoloured meshes stay uncoloured; colours follow a transform and drop on a mixed append.
        #expect(try PLY.decode(PLY.encode(cube())).colors.isEmpty)
        #expect(mesh.transformed(by: RigidTransform(translation: SIMD3(1, 0, 0))).colors == mesh.colors)
        mesh.append(cube())
        #expect(mesh.colors.isEmpty)
    }

    @Test func asciiPLYWithQuadsAndExtraPropertiesIsRead() throws {
        let text = """
            ply
            format ascii 1.0
            element vertex 4
            property float x
            property float y
            property float z
            property uchar red
            element face 1
            property list uchar int vertex_indices
            end_header
            0 0 0 255
            1 0 0 255
            1 1 0 255
            0 1 0 255
            4 0 1 2 3
            """
        let mesh = try PLY.decode(Array(text.utf8))
        #expect(mesh.vertices.count == 4)
        #expect(mesh.faces == [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
    }

    @Test func brokenPLYIsAnError() {
        #expect(throws: PLY.Error.notPLY) { try PLY.decode(Array("hello".utf8)) }
        var bytes = PLY.encode(cube())
        bytes.removeLast(10)
        #expect(throws: PLY.Error.truncated) { try PLY.decode(bytes) }
    }
}

struct SliceTests {
    @Test func cubeSliceIsAClosedSquare() throws {
        let loops = cube(side: 2).slice(by: Plane(point: SIMD3(0, 0, 0.3), normal: SIMD3(0, 0, 1)))
        #expect(loops.count == 1)
        let loop = try #require(loops.first)
        #expect(loop.isClosed)
        let polygon = Polygon2(loop.points.map { SIMD2($0.x, $0.y) })
        #expect(abs(polygon.perimeter - 8) < 1e-12)
        #expect(abs(abs(polygon.signedArea) - 4) < 1e-12)
    }

    @Test func twoComponentsGiveTwoLoops() {
        var mesh = cube()
        mesh.append(cube(centre: SIMD3(3, 0, 0)))
        let loops = mesh.slice(by: Plane(point: .zero, normal: SIMD3(0, 0, 1)))
        #expect(loops.count == 2 && loops.allSatisfy(\.isClosed))
    }

    @Test func planeMissingTheMeshGivesNothing() {
        #expect(cube().slice(by: Plane(point: SIMD3(0, 0, 5), normal: SIMD3(0, 0, 1))).isEmpty)
    }
}

struct PolygonTests {
    let square = Polygon2([SIMD2(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)])

    @Test func raysFromInsideReachTheBoundary() throws {
        #expect(try #require(square.farthestHit(from: .zero, direction: SIMD2(1, 0))) == 1)
        let diagonal = try #require(square.farthestHit(from: .zero, direction: SIMD2(1, 1) / 2.0.squareRoot()))
        #expect(abs(diagonal - 2.0.squareRoot()) < 1e-12)
    }

    @Test func containmentAndExtent() {
        #expect(square.contains(SIMD2(0.5, 0.5)))
        #expect(!square.contains(SIMD2(1.5, 0)))
        #expect(square.extent(along: SIMD2(0, 1)) == 2)
        #expect(square.signedArea == 4)
    }
}

struct RigidTransformTests {
    @Test func inverseUndoesTheTransform() {
        let t = RigidTransform(rotation: Rotation3(yaw: 0.3, pitch: -0.2, roll: 0.1), translation: SIMD3(1, 2, 3))
        let p = SIMD3(0.4, -0.5, 0.6)
        #expect(length(t.inverse.apply(t.apply(p)) - p) < 1e-12)
        #expect(length((t * t.inverse).translation) < 1e-12)
        #expect(abs((t.rotation * t.rotation.inverse).angle) < 1e-7)
    }

    @Test func axisAngleRotatesByTheRightHandRule() {
        let r = Rotation3(axis: SIMD3(0, 0, 1), angle: Double.pi / 2)
        #expect(length(r.apply(SIMD3(1, 0, 0)) - SIMD3(0, 1, 0)) < 1e-12)
        #expect(abs(r.angle - Double.pi / 2) < 1e-12)
    }

    @Test func cameraLooksAtItsTargetWithThePhoneTopUp() {
        let pose = RigidTransform.camera(at: SIMD3(0, -1, 0), lookingAt: .zero, up: SIMD3(0, 0, 1))
        let inCamera = pose.inverse.apply(.zero)
        #expect(length(inCamera - SIMD3(0, 0, 1)) < 1e-12)
        // Image +x is the phone's top (world up); image +y the operator's right (+x here).
        #expect(length(pose.applyToVector(SIMD3(1, 0, 0)) - SIMD3(0, 0, 1)) < 1e-12)
        #expect(length(pose.applyToVector(SIMD3(0, 1, 0)) - SIMD3(1, 0, 0)) < 1e-12)
        #expect(pose.matrixRowMajor.count == 16)
    }
}

import Geometry
import Imaging
import Testing

@testable import Reconstruction

struct MarchingCubesTests {
    @Test func tableClosesEveryCaseWithConsistentWinding() {
        #expect(MarchingCubesTable.triangles[0].isEmpty && MarchingCubesTable.triangles[255].isEmpty)
        for inside in 1..<255 {
            let triangles = MarchingCubesTable.triangles[inside]
            #expect(!triangles.isEmpty && triangles.count % 3 == 0)
            // Exactly the edges with a sign change carry vertices.
            let crossed = Set(
                MarchingCubesTable.edges.indices.filter { e in
                    let (a, b) = MarchingCubesTable.edges[e]
                    return (inside >> a & 1) != (inside >> b & 1)
                })
            #expect(Set(triangles) == crossed)
            // Inside the cube every directed edge of the polygon is matched by its reverse in
            // another triangle, or it lies on a cube face (an edge between two crossing points on
            // the same face, which the neighbouring cell closes).
            var directed: [SIMD2<Int>: Int] = [:]
            for t in stride(from: 0, to: triangles.count, by: 3) {
                for i in 0..<3 { directed[SIMD2(triangles[t + i], triangles[t + (i + 1) % 3]), default: 0] += 1 }
            }
            #expect(directed.values.allSatisfy { $0 == 1 })
        }
        // Complementary cases are the same surface turned inside out.
        #expect(MarchingCubesTable.triangles[1].count == MarchingCubesTable.triangles[254].count)
    }

    @Test func sphereGivesAClosedWeldedMeshOnTheSphere() {
        let voxel = 0.002, radius = 0.021
        let centre = SIMD3(0.0013, -0.0007, 0.0004)
        let volume = TSDFVolume(voxelSize: voxel, truncation: 4 * voxel)
        volume.fill(from: centre - 0.03, to: centre + 0.03, weight: 5) { length($0 - centre) - radius }
        let mesh = volume.extractSurface()
        #expect(mesh.isValid && mesh.faces.count > 1000)
        // Vertices lie on the sphere within a small fraction of a voxel.
        let errors = mesh.vertices.map { abs(length($0 - centre) - radius) }
        #expect(errors.max()! < 0.1 * voxel)
        // Welded: no two vertices share a position.
        let positions = Set(mesh.vertices.map { SIMD3<Int64>(($0 * 1e7).rounded(.toNearestOrEven)) })
        #expect(positions.count == mesh.vertices.count)
        // Closed and manifold: every edge is shared by exactly two faces, in opposite
        // directions, and the Euler characteristic is that of a sphere.
        var directed: [SIMD2<Int32>: Int] = [:]
        for f in mesh.faces {
            for (a, b) in [(f.x, f.y), (f.y, f.z), (f.z, f.x)] { directed[SIMD2(a, b), default: 0] += 1 }
        }
        #expect(directed.allSatisfy { $0.value == 1 && directed[SIMD2($0.key.y, $0.key.x)] == 1 })
        #expect(mesh.vertices.count - directed.count / 2 + mesh.faces.count == 2)
        // Faces point outwards: the enclosed volume is positive and close to the sphere's.
        let exact = 4.0 / 3 * Double.pi * radius * radius * radius
        #expect(abs(mesh.volume - exact) < 0.02 * exact)
    }

    @Test func cellsSeenTooRarelyStayOpen() {
        let volume = TSDFVolume(voxelSize: 0.002, truncation: 0.008)
        volume.fill(from: SIMD3(repeating: -0.03), to: SIMD3(repeating: 0.03), weight: 1) { length($0) - 0.02 }
        #expect(volume.extractSurface(minimumWeight: 2).faces.isEmpty)
        #expect(!volume.extractSurface(minimumWeight: 1).faces.isEmpty)
    }

    @Test func fusedColourReachesTheVertices() {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)
        let centre = SIMD3(0.0, 0.0, 0.3), radius = 0.05
        var depth = DepthImage(width: k.width, height: k.height, repeating: .nan)
        var color = RGBAImage(width: k.width, height: k.height, repeating: RGBA8(r: 0, g: 0, b: 255))
        for y in 0..<k.height {
            for x in 0..<k.width {
                let d = normalized(SIMD3((Double(x) - k.cx) / k.fx, (Double(y) - k.cy) / k.fy, 1))
                let b = dot(d, centre), disc = b * b - dot(centre, centre) + radius * radius
                guard disc >= 0 else { continue }
                depth[x, y] = Float((b - disc.squareRoot()) * d.z)
                // Left half red, right half green.
                color[x, y] = x < k.width / 2 ? RGBA8(r: 200, g: 10, b: 10) : RGBA8(r: 10, g: 200, b: 10)
            }
        }
        let volume = TSDFVolume(voxelSize: 0.002, truncation: 0.008, colors: true)
        let region = FusionRegion(centre: centre, radius: 0.08)
        for _ in 0..<3 {
            volume.integrate(depth: depth, intrinsics: k, worldFromCamera: .identity, region: region, color: color, colorIntrinsics: k)
        }
        let mesh = volume.extractSurface()
        #expect(mesh.hasColors && mesh.faces.count > 300)
        // Away from the seam each side has its colour.
        for (v, c) in zip(mesh.vertices, mesh.colors) where abs(v.x) > 0.01 {
            #expect(v.x < 0 ? (c.x > 150 && c.y < 60) : (c.y > 150 && c.x < 60), "\(v) \(c)")
        }
    }
}

import Foundation
import Geometry
import Imaging
import Markers
import Recording
import Testing

@testable import Reconstruction

/// Depth of a sphere seen from the origin, analytically, at every pixel.
private func sphereDepth(centre: SIMD3<Double>, radius: Double, k: CameraIntrinsics) -> DepthImage {
    var image = DepthImage(width: k.width, height: k.height, repeating: .nan)
    for y in 0..<k.height {
        for x in 0..<k.width {
            let d = normalized(SIMD3((Double(x) - k.cx) / k.fx, (Double(y) - k.cy) / k.fy, 1))
            let b = dot(d, centre), c = dot(centre, centre) - radius * radius
            let disc = b * b - c
            guard disc >= 0 else { continue }
            let t = b - disc.squareRoot()
            image[x, y] = Float(t * d.z)
        }
    }
    return image
}

struct GeometrySolverTests {
    @Test func alignmentRecoversSimilarity() throws {
        let rotation = Rotation3(axis: SIMD3(0.3, -0.5, 0.8), angle: 1.1)
        let points: [SIMD3<Double>] = [SIMD3(0, 0, 0), SIMD3(0.1, 0, 0), SIMD3(0, 0.05, 0.02), SIMD3(0.03, 0.02, 0.09), SIMD3(-0.04, 0.07, 0.01)]
        let moved = points.map { rotation.apply($0) * 1.02 + SIMD3(0.1, -0.2, 0.3) }
        let fit = try RigidAlignment.fit(from: points, to: moved, withScale: true)
        #expect(abs(fit.scale - 1.02) < 1e-9)
        #expect(fit.rms < 1e-9)
        #expect((fit.transform.rotation.inverse * rotation).angle < 1e-9)
        #expect(throws: GeometryError.self) {
            try RigidAlignment.fit(from: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(2, 0, 0)], to: points.prefix(3).map { $0 })
        }
    }

    @Test func eigenDecompositionOfSymmetricMatrix() {
        let (values, vectors) = SymmetricEigen.decompose([4, 1, 0, 1, 3, 0, 0, 0, 1], size: 3)
        #expect(abs(values[0] - 1) < 1e-12)
        #expect(abs(values[2] - (3.5 + 1.25.squareRoot())) < 1e-12)
        #expect(abs(abs(vectors[0][2]) - 1) < 1e-12)
    }

    @Test func meshWritersRoundTrip() throws {
        let mesh = TriangleMesh(vertices: [SIMD3(0, 0, 0), SIMD3(0.01, 0, 0), SIMD3(0, 0.01, 0)], faces: [SIMD3(0, 1, 2)])
        let decoded = try PLY.decode(PLY.encodeASCII(mesh, colors: [SIMD3(255, 0, 0), SIMD3(0, 255, 0), SIMD3(0, 0, 255)]))
        #expect(decoded.faces == mesh.faces)
        #expect(zip(decoded.vertices, mesh.vertices).allSatisfy { length($0 - $1) < 1e-8 })
        #expect(STL.encode(mesh).count == 84 + 50)
        #expect(String(decoding: OBJ.encode(mesh), as: UTF8.self).contains("f 1 2 3"))
    }
}

struct MarkerLifterTests {
    let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)

    @Test func cornersFromDepthPlaneMatchTheTruth() throws {
        // A 14 mm square tilted 30° at 0.3 m, the depth of its plane everywhere.
        let rotation = Rotation3(axis: SIMD3(1, 0.2, 0), angle: 0.5)
        let centre = SIMD3(0.002, -0.001, 0.3)
        let h = 0.007
        let truth = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { rotation.apply($0) + centre }
        let normal = rotation.apply(SIMD3(0, 0, 1))
        var depth = DepthImage(width: k.width, height: k.height, repeating: .nan)
        for y in 0..<k.height {
            for x in 0..<k.width {
                let ray = SIMD3((Double(x) - k.cx) / k.fx, (Double(y) - k.cy) / k.fy, 1)
                depth[x, y] = Float(dot(normal, centre) / dot(normal, ray))
            }
        }
        let detection = DetectedMarker(id: 3, corners: truth.map { k.project($0)! })
        var scratch: [SIMD3<Double>] = []
        let lifter = MarkerLifter(markerSide: 0.014)
        let lifted = lifter.lift([detection], depth: depth, colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
        #expect(lifted.count == 1 && lifted[0].fromDepth)
        for (a, b) in zip(lifted[0].corners, truth) { #expect(length(a - b) < 2e-5) }
        // Without depth the homography pose is exact on exact corners.
        let blind = lifter.lift(
            [detection], depth: DepthImage(width: k.width, height: k.height, repeating: .nan),
            colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
        #expect(blind.count == 1 && !blind[0].fromDepth)
        for (a, b) in zip(blind[0].corners, truth) { #expect(length(a - b) < 1e-6) }
    }

    @Test func markersOfTheirOwnSizeAreLiftedAtThatSize() throws {
        // A 25 mm marker on a cap of 14 mm markers: its own size in the layout makes it
        // liftable; at the cap's size the depth route refuses it and PnP puts it too close.
        let centre = SIMD3(0.001, 0.002, 0.35)
        let h = 0.0125
        let truth = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { $0 + centre }
        let depth = DepthImage(width: k.width, height: k.height, repeating: Float(centre.z))
        let detection = DetectedMarker(id: 40, corners: truth.map { k.project($0)! })
        let layout = CapLayout(
            name: "mixed", dictionaryName: "apriltag_36h11", markerSideMillimetres: 14,
            markers: [CapMarker(id: 39, region: .top), CapMarker(id: 40, region: .top, sideMillimetres: 25)])
        var scratch: [SIMD3<Double>] = []
        let lifter = MarkerLifter(layout: layout)
        #expect(lifter.side(of: 40) == 0.025 && lifter.side(of: 39) == 0.014)
        let lifted = lifter.lift([detection], depth: depth, colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
        #expect(lifted.count == 1 && lifted[0].fromDepth)
        for (a, b) in zip(lifted.first?.corners ?? [], truth) { #expect(length(a - b) < 2e-5) }
        let blind = DepthImage(width: k.width, height: k.height, repeating: .nan)
        let pnp = lifter.lift([detection], depth: blind, colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
        for (a, b) in zip(pnp.first?.corners ?? [], truth) { #expect(length(a - b) < 1e-6) }
        let capSized = MarkerLifter(markerSide: 0.014)
        let refused = capSized.lift([detection], depth: depth, colorIntrinsics: k, depthIntrinsics: k, scratch: &scratch)
        #expect(refused.allSatisfy { !$0.fromDepth })
    }
}

struct RegistrationTests {
    /// Eight markers on a sphere-like cap, observed from two poses, with one ghost ID.
    @Test func registrationRejectsOutliersAndBundleAdjustmentReducesNoise() throws {
        var map = MarkerMap()
        for id in 0..<8 {
            let angle = Double(id) * 0.4
            let centre = SIMD3(0.07 * cos(angle), 0.07 * sin(angle), 0.3 + 0.01 * Double(id % 3))
            map.corners[id] = [SIMD3(-0.007, 0.007, 0), SIMD3(0.007, 0.007, 0), SIMD3(0.007, -0.007, 0), SIMD3(-0.007, -0.007, 0)].map { $0 + centre }
        }
        let cameraFromMap = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(0.01, 0.02, -0.01))
        var observations = map.ids.map { id in
            MarkerObservation(id: id, pixels: Array(repeating: .zero, count: 4), corners: map.corners[id]!.map(cameraFromMap.apply), fromDepth: true)
        }
        observations[2].corners = observations[2].corners.map { $0 + SIMD3(0.02, 0, 0) }
        let result = try #require(FrameRegistration().register(observations, map: map))
        #expect(!result.inliers.contains(2))
        #expect(result.inliers.count == 7)
        #expect(length((result.mapFromCamera * cameraFromMap).translation) < 1e-9)

        // Deterministic ±0.3 mm perturbations on every observation; refinement must bring
        // the corners back within the noise.
        var keyframes: [Keyframe] = []
        for f in 0..<6 {
            let pose = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.1 * Double(f)), translation: SIMD3(0.01 * Double(f), 0, 0))
            let cameraFromMap = pose.inverse
            var obs: [MarkerObservation] = []
            for id in map.ids {
                var corners: [SIMD3<Double>] = []
                for (c, p) in map.corners[id]!.enumerated() {
                    let s = Double(f * 31 + id * 7 + c)
                    let noise = SIMD3(sin(s), cos(s * 1.7), sin(s * 2.3))
                    corners.append(cameraFromMap.apply(p) + 0.0003 * noise)
                }
                obs.append(MarkerObservation(id: id, pixels: Array(repeating: .zero, count: 4), corners: corners, fromDepth: true))
            }
            keyframes.append(
                Keyframe(
                    frameIndex: f,
                    mapFromCamera: f == 0 ? pose : RigidTransform(rotation: pose.rotation, translation: pose.translation + SIMD3(0.002, 0, 0)),
                    observations: obs))
        }
        var refined = map
        BundleAdjustment().refine(keyframes: &keyframes, map: &refined)
        let errors = map.ids.flatMap { id in zip(map.corners[id]!, refined.corners[id]!).map { length($0 - $1) } }
        #expect(errors.max()! < 0.0005)
    }
}

struct TSDFTests {
    @Test func fusedSphereLiesOnTheSphere() {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)
        let centre = SIMD3(0.0, 0.0, 0.3), radius = 0.05
        let volume = TSDFVolume(voxelSize: 0.002, truncation: 0.008)
        let region = FusionRegion(centre: centre, radius: 0.08)
        // Three views from the same camera position rotated about the sphere: same image.
        let depth = sphereDepth(centre: centre, radius: radius, k: k)
        for _ in 0..<3 { volume.integrate(depth: depth, intrinsics: k, worldFromCamera: .identity, region: region) }
        let mesh = volume.extractSurface()
        #expect(mesh.faces.count > 500)
        #expect(mesh.isValid)
        let errors = mesh.vertices.map { abs(length($0 - centre) - radius) }
        #expect(errors.reduce(0, +) / Double(errors.count) < 0.0003)
        #expect(errors.max()! < 0.001)
        // Faces point outwards: towards the camera for the visible cap.
        let (a, b, c) = mesh.corners(of: 0)
        #expect(dot(cross(b - a, c - a), (a + b + c) / 3 - centre) > 0)
    }

    /// Blocks are listed and updated on several threads: the mesh is the same to the last bit
    /// for any thread count, from several views of a sphere.
    @Test func theVolumeIsTheSameForAnyThreadCount() {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)
        let centre = SIMD3(0.0, 0.0, 0.3), radius = 0.05
        let region = FusionRegion(centre: centre, radius: 0.08)
        let depth = sphereDepth(centre: centre, radius: radius, k: k)
        let poses = (0..<3).map { i in
            RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3 * Double(i)), translation: .zero)
        }
        func mesh(threads: Int) -> TriangleMesh {
            let volume = TSDFVolume(voxelSize: 0.002, truncation: 0.008)
            volume.threads = threads
            for pose in poses { volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose, region: region) }
            return volume.extractSurface()
        }
        let one = mesh(threads: 1)
        #expect(one.faces.count > 100)
        #expect(mesh(threads: 3) == one)
        #expect(mesh(threads: 8) == one)
    }

    /// `taskset` and container CPU sets show in the status mask; the thread count follows it.
    @Test func theAllowedCoresAreReadFromTheAffinityMask() {
        #expect(allowedCores(status: "Name:\theadscan\nCpus_allowed:\t00000000,0000000f\nCpus_allowed_list:\t0-3\n") == 4)
        #expect(allowedCores(status: "Cpus_allowed:\t1\n") == 1)
        #expect(allowedCores(status: "Cpus_allowed:\t0\n") == nil)
        #expect(allowedCores(status: "Name:\tx\n") == nil)
        #expect(availableCores() >= 1)
    }

    /// Markers on a flat board fit no head-sized sphere: the fused space is their extent plus
    /// a margin, not the board's enormous sphere.
    @Test func aFlatBoardBoundsTheFusedSpaceByItsMarkers() throws {
        var map = MarkerMap()
        for id in 0..<12 {
            let x = Double(id % 4) * 0.12 - 0.18, y = Double(id / 4) * 0.12 - 0.12
            map.corners[id] = [SIMD3(x, y, 1), SIMD3(x + 0.1, y, 1), SIMD3(x + 0.1, y + 0.1, 1), SIMD3(x, y + 0.1, 1)]
        }
        let region = try #require(Reconstructor().fusionRegion(map))
        #expect(region.radius <= ReconstructionOptions().maximumHeadRadius * ReconstructionOptions().regionScale)
        #expect(abs(region.centre.z - 1) < 1e-9)
        // A cap's sphere (radius 7 cm, centre (0, 0, 0.3), markers toward −z), widened and moved
        // away from the markers, toward where the face and ears are.
        let options = ReconstructionOptions()
        let head = try #require(Reconstructor().fusionRegion(domeOfMarkers()))
        #expect(abs(head.radius - 0.07 * options.regionScale) < 0.002, "a cap's sphere, widened: \(head.radius)")
        #expect(length(head.centre - SIMD3(0, 0, 0.3 + 0.07 * options.regionDrop)) < 0.002, "moved away from the cap: \(head.centre)")
    }

    /// Markers numbered as the standard cap's but laid out nowhere near where it puts them
    /// (the dome's ten) tell nothing of how the head lies.
    @Test func markersLaidOutLikeNoLayoutGiveNoFrame() {
        #expect(domeOfMarkers().headFrame(layout: .standard) == nil)
    }

    @Test func scanWithoutMarkersFailsWithAClearError() {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)
        let frame = RGBDFrame(
            timestamp: 0, color: RGBAImage(width: 160, height: 120, repeating: RGBA8(gray: 128)),
            depth: DepthImage(width: 160, height: 120, repeating: 0.3), colorIntrinsics: k, depthIntrinsics: k)
        #expect(throws: ReconstructionError.noUsableMarkers(framesSeen: 3)) {
            try Reconstructor().reconstruct(frameCount: 3, frame: { _ in frame })
        }
        #expect(throws: ReconstructionError.emptyScan) { try Reconstructor().reconstruct(frameCount: 0, frame: { _ in frame }) }
    }
}

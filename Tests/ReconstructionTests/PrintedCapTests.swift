import Foundation
import Geometry
import Imaging
import Recording
import Testing

@testable import Reconstruction

/// A printed cap without stickers: its print fixes the turns about the head's centre that the
/// depth of a round vault leaves open, and tells a view placed turned from one placed right.
@Suite("Scanning a printed cap")
struct PrintedCapTests {
    typealias Shape = SurfaceRegistrationTests.Shape
    /// Sharper than the depth-only tests' camera: the print's edges are read to a pixel, here
    /// about a millimetre at 0.3 m (a phone's is a third of that).
    static let camera = CameraIntrinsics(fx: 320, fy: 320, cx: 160, cy: 120, width: 320, height: 240)
    static let navy = SIMD3<Float>(36, 51, 117)
    static let orange = SIMD3<Float>(235, 143, 51)

    /// Blotches of the print's two colours about 20 mm across, from the point on the ball.
    static func print(_ p: SIMD3<Double>) -> SIMD3<Float> {
        sin(150 * p.x + 0.3) * sin(150 * p.y + 1.1) * sin(150 * p.z + 0.7) > 0 ? navy : orange
    }

    static func printedVolume(_ shape: Shape) -> TSDFVolume {
        let volume = TSDFVolume(voxelSize: 0.001, truncation: 0.004, colors: true)
        volume.fill(from: SIMD3(repeating: -0.09), to: SIMD3(repeating: 0.09), weight: 5, signedDistance: shape, colour: print)
        return volume
    }

    /// What the camera at `pose` (camera to world) sees of the printed `shape`.
    static func frame(_ shape: Shape, _ pose: RigidTransform, camera: CameraIntrinsics = camera, at t: Double = 0) -> RGBDFrame {
        let depth = SurfaceRegistrationTests.depth(of: shape, from: pose, camera: camera)
        var pixels = [RGBA8](repeating: RGBA8(gray: 128), count: camera.width * camera.height)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let z = Double(depth.pixels[y * camera.width + x])
                guard z.isFinite else { continue }
                let c = print(pose.apply(camera.unproject(SIMD2(Double(x), Double(y)), depth: z)))
                pixels[y * camera.width + x] = RGBA8(r: UInt8(c.x), g: UInt8(c.y), b: UInt8(c.z))
            }
        }
        let color = RGBAImage(width: camera.width, height: camera.height, pixels: pixels)
        return RGBDFrame(timestamp: t, color: color, depth: depth, colorIntrinsics: camera, depthIntrinsics: camera)
    }

    @Test func thePrintsColoursAreTold() {
        #expect(MarkerlessReconstructor.printColour(TSDFVolume.chroma(Self.navy)) == 0)
        #expect(MarkerlessReconstructor.printColour(TSDFVolume.chroma(Self.orange)) == 1)
        // Skin, hair, a plain blue cap and grey are neither.
        for other in [SIMD3<Float>(237, 189, 158), SIMD3(92, 66, 41), SIMD3(140, 173, 209), SIMD3(128, 128, 128)] {
            #expect(MarkerlessReconstructor.printColour(TSDFVolume.chroma(other)) == nil, "\(other)")
        }
        #expect(TSDFVolume.chroma(SIMD3(20, 2, 5)) == 0, "too dark to tell")
    }

    @Test func theVolumeAnswersThePrintsChromaAndWhereItChanges() throws {
        let volume = Self.printedVolume(SurfaceRegistrationTests.ball)
        var navy = 0, orange = 0
        for k in 0..<200 {
            let a = Double(k) * 0.37, b = Double(k) * 0.11
            let p = SIMD3(cos(a) * cos(b), sin(a) * cos(b), sin(b)) * 0.065
            let (c, _) = try #require(volume.chroma(at: p))
            switch MarkerlessReconstructor.printColour(c) {
            case 0?: navy += 1
            case 1?: orange += 1
            default: break
            }
        }
        // Between voxels of the two colours the value is neither; most points are one or the other.
        #expect(navy > 50 && orange > 50, "navy \(navy), orange \(orange)")
        // Across an edge of the print the gradient points from navy to orange.
        let x0 = (Double.pi - 0.3) / 150
        let edge = SIMD3(x0, 0.02, 0.0)
        let (_, g) = try #require(volume.chroma(at: edge))
        let left = TSDFVolume.chroma(Self.print(edge - SIMD3(0.002, 0, 0))), right = TSDFVolume.chroma(Self.print(edge + SIMD3(0.002, 0, 0)))
        #expect(g.x * (right - left) > 0 && abs(g.x) > 100, "gradient \(g)")
        #expect(TSDFVolume(voxelSize: 0.001, truncation: 0.004).chroma(at: .zero) == nil, "no colour fused")
        #expect(volume.chroma(at: SIMD3(Double.nan, 0, 0)) == nil)
    }

    /// Depth seen outside the colour picture (a colour camera beside the depth one, with a
    /// narrower view) takes no colour: such a voxel has no chroma to match, not black's, and
    /// its colour, once a later picture shows it, is that picture's, not darkened by the frames
    /// that had none.
    @Test func depthOutsideTheColourPictureTakesNoColour() throws {
        let camera = MarkerlessReconstructorTests.camera
        let shape = SurfaceRegistrationTests.ball
        let pose = MarkerlessReconstructorTests.pose(0)
        let depth = SurfaceRegistrationTests.depth(of: shape, from: pose, camera: camera)
        // The colour camera sees only what the depth camera sees right of its 50th column.
        let rightHalf = CameraIntrinsics(fx: camera.fx, fy: camera.fy, cx: camera.cx - 50, cy: camera.cy, width: 120, height: 90)
        func picture(_ c: SIMD3<Float>) -> RGBAImage {
            RGBAImage(width: 120, height: 90, repeating: RGBA8(r: UInt8(c.x), g: UInt8(c.y), b: UInt8(c.z)))
        }
        let volume = TSDFVolume(voxelSize: 0.002, truncation: 0.008, colors: true)
        let region = FusionRegion(centre: .zero, radius: 0.2)
        volume.integrate(
            depth: depth, intrinsics: camera, worldFromCamera: pose, region: region, color: picture(Self.navy), colorIntrinsics: rightHalf)
        func surface(atPixel x: Int) throws -> SIMD3<Double> {
            let z = Double(depth.pixels[45 * 120 + x])
            try #require(z.isFinite)
            return pose.apply(camera.unproject(SIMD2(Double(x), 45), depth: z))
        }
        #expect(try #require(volume.signedDistance(at: surface(atPixel: 44))).distance.magnitude < 0.002)
        #expect(try volume.chroma(at: surface(atPixel: 44)) == nil, "seen by depth alone")
        let right = try #require(try volume.chroma(at: surface(atPixel: 76)))
        #expect(MarkerlessReconstructor.printColour(right.value) == 0, "navy where the colour camera saw it")
        volume.integrate(
            depth: depth, intrinsics: camera, worldFromCamera: pose, region: region, color: picture(Self.orange), colorIntrinsics: camera)
        #expect(try MarkerlessReconstructor.printColour(#require(volume.chroma(at: surface(atPixel: 44))).value) == 1)
        // The mesh's colour on the left is the orange seen there, whole.
        let mesh = volume.extractSurface(minimumWeight: 1)
        let cameraFromWorld = pose.inverse
        let left = zip(mesh.vertices, mesh.colors).filter { v, _ in
            let c = cameraFromWorld.apply(v)
            return camera.fx * c.x / c.z + camera.cx < 45
        }
        #expect(left.count > 20)
        for (_, colour) in left { #expect(SIMD3<Float>(colour) == Self.orange, "\(colour)") }
    }

    /// On a ball the depth cannot see a turn about its centre (the test beside this one keeps
    /// it), the print can: 3° (3.7 mm at 70 mm) is undone to within a millimetre (0.7 mm when
    /// written: the pull back to the prediction, which the registration keeps for the
    /// directions nothing fixes, holds a little of it).
    @Test func onAPrintedBallTheTurnIsSeen() throws {
        let volume = Self.printedVolume(SurfaceRegistrationTests.ball)
        let truth = SurfaceRegistrationTests.truePose
        let f = Self.frame(SurfaceRegistrationTests.ball, truth)
        let turn = SurfaceRegistrationTests.offset(3, axis: SIMD3(0, 0, 1), shift: .zero)
        let start = turn * truth
        let registration = SurfaceRegistration(pixelStep: 2, iterations: 30)
        let samples = registration.colouredSamples(f, near: start, region: SurfaceRegistrationTests.region)
        let coloured = registration.register(
            points: samples.points, chroma: samples.chroma, predicted: start, volume: volume, about: .zero)
        let placed = try #require(coloured)
        #expect(SurfaceRegistrationTests.distance(placed.worldFromCamera, truth) < 1)
        // The same points without their colour: the turn stays.
        let plain = try #require(registration.register(points: samples.points, predicted: start, volume: volume, about: .zero))
        #expect(SurfaceRegistrationTests.distance(plain.worldFromCamera, truth) > 3)
    }

    /// A view turned 20° about the ball's centre lies on its surface as well as the right one;
    /// only the print tells them apart.
    @Test func aTurnedViewDisagreesWithThePrint() throws {
        let fine = Self.printedVolume(SurfaceRegistrationTests.ball)
        let coarse = TSDFVolume(voxelSize: 0.002, truncation: 0.015)
        coarse.fill(from: SIMD3(repeating: -0.09), to: SIMD3(repeating: 0.09), weight: 5, signedDistance: SurfaceRegistrationTests.ball)
        let truth = SurfaceRegistrationTests.truePose
        let f = Self.frame(SurfaceRegistrationTests.ball, truth)
        let samples = SurfaceRegistrationTests.registration.colouredSamples(f, near: truth, region: SurfaceRegistrationTests.region)
        let right = MarkerlessReconstructor.consistency(samples, at: truth, fine: fine, coarse: coarse)
        let turned = MarkerlessReconstructor.consistency(
            samples, at: SurfaceRegistrationTests.offset(20, axis: SIMD3(0, 0, 1), shift: .zero) * truth, fine: fine, coarse: coarse)
        #expect(right.agreement > 0.95 && turned.agreement > 0.95, "both on the surface")
        #expect(try #require(right.printAgreement) > 0.95)
        #expect(try #require(turned.printAgreement) < 0.7)
        #expect(MarkerlessReconstructor.showsPrint(samples))
        let grey = MarkerlessReconstructorTests.frame(SurfaceRegistrationTests.ball, truth, at: 0)
        #expect(
            !MarkerlessReconstructor.showsPrint(
                SurfaceRegistrationTests.registration.colouredSamples(grey, near: truth, region: SurfaceRegistrationTests.region)))
    }

    /// Circling a printed ball 45° in 3° steps while coming closer: where the plain ball's turn
    /// is not seen at all (the test of the plain ball), the printed one's is followed to within
    /// 2°. (The second frame starts from the first's pose, a whole step off; it may be lost.)
    @Test func aPrintedBallIsTrackedAllTheWay() throws {
        let shape = SurfaceRegistrationTests.ball
        let poses = (0...15).map { MarkerlessReconstructorTests.pose(Double($0) * 3, distance: 0.3 - 0.003 * Double($0)) }
        let camera = CameraIntrinsics(fx: 200, fy: 200, cx: 100, cy: 75, width: 200, height: 150)
        var reconstructor = MarkerlessReconstructorTests.reconstructor
        reconstructor.registration.pixelStep = 3
        let result = try reconstructor.reconstruct(frameCount: poses.count) {
            Self.frame(shape, poses[$0], camera: camera, at: Double($0) / 10)
        }
        #expect(result.matchedColour)
        #expect(result.mesh.colors.count == result.mesh.vertices.count, "the print's colours are on the mesh")
        #expect(result.poses.count >= poses.count - 1, "\(result.poses.count) of \(poses.count) placed")
        let last = try #require(result.poses.last)
        let truth = poses[0].inverse * poses[last.frameIndex]
        let error = (truth.rotation * last.worldFromCamera.rotation.inverse).angle * 180 / Double.pi
        #expect(error < 2, "the last view is \(error)° off")
        #expect(try #require(result.agreement) > 0.9)
    }
}

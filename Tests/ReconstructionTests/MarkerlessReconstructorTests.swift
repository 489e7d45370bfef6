import Foundation
import Geometry
import Imaging
import Recording
import Testing

@testable import Reconstruction

/// Reconstructing without markers, against analytic shapes seen by a camera circling them.
@Suite("Reconstructing without markers")
struct MarkerlessReconstructorTests {
    typealias Shape = SurfaceRegistrationTests.Shape
    static let camera = CameraIntrinsics(fx: 120, fy: 120, cx: 60, cy: 45, width: 120, height: 90)

    /// A camera 0.3 m from the shape's centre, turned `degrees` about the vertical from the
    /// front-right, looking at the centre.
    static func pose(_ degrees: Double, distance: Double = 0.3) -> RigidTransform {
        let a = (30 + degrees) * Double.pi / 180
        return RigidTransform.camera(at: SIMD3(distance * sin(a), distance * cos(a), 0.06), lookingAt: .zero, up: SIMD3(0, 0, 1))
    }

    static func frame(_ shape: Shape, _ pose: RigidTransform, at t: Double) -> RGBDFrame {
        let depth = SurfaceRegistrationTests.depth(of: shape, from: pose, camera: camera)
        let color = RGBAImage(width: camera.width, height: camera.height, repeating: RGBA8(gray: 128))
        return RGBDFrame(timestamp: t, color: color, depth: depth, colorIntrinsics: camera, depthIntrinsics: camera)
    }

    static var reconstructor: MarkerlessReconstructor {
        var options = ReconstructionOptions()
        options.threads = 1
        var r = MarkerlessReconstructor(options: options)
        r.registration.pixelStep = 2
        r.registration.minimumPoints = 150
        return r
    }

    /// How far `placed` puts points of the head's sphere from where the truth puts them,
    /// millimetres, in the first camera's frame.
    static func error(_ placed: TrackedPose, _ poses: [RigidTransform]) -> Double {
        let truth = poses[0].inverse * poses[placed.frameIndex]
        let centre = poses[0].inverse.apply(.zero)
        let probes = [SIMD3(0.07, 0, 0), SIMD3(0, 0.07, 0), SIMD3(0, 0, 0.07), SIMD3(-0.05, -0.05, 0)].map { $0 + centre }
        return probes.map { length(placed.worldFromCamera.apply(truth.inverse.apply($0)) - $0) }.max()! * 1000
    }

    @Test func theHeadInTheMiddleIsFoundBesideAShoulder() throws {
        let shoulder: Shape = { p in
            // A box beside and below the head, nearer the camera than the head's back.
            let d = p - SIMD3(0.11, 0.02, -0.09)
            let q = SIMD3(abs(d.x), abs(d.y), abs(d.z)) - SIMD3(0.04, 0.05, 0.04)
            return length(pointwiseMax(q, .zero)) + min(max(q.x, max(q.y, q.z)), 0)
        }
        let scene: Shape = { p in min(SurfaceRegistrationTests.ball(p), shoulder(p)) }
        let pose = Self.pose(0)
        let depth = SurfaceRegistrationTests.depth(of: scene, from: pose, camera: Self.camera)
        let sphere = try #require(HeadInView.sphere(depth: depth, intrinsics: Self.camera))
        let centre = pose.inverse.apply(.zero)
        #expect(length(sphere.centre - centre) < 0.002, "centre off by \(length(sphere.centre - centre) * 1000) mm")
        #expect(abs(sphere.radius - 0.065) < 0.002)
        let wall: Shape = { p in p.y + 0.05 }
        #expect(HeadInView.sphere(depth: SurfaceRegistrationTests.depth(of: wall, from: pose, camera: Self.camera), intrinsics: Self.camera) == nil)
    }

    /// A whole view is one sphere about everything nearer than the limit, and its depth's
    /// noise grows as its median distance squared past a head's 30 cm.
    @Test func aWholeViewIsEverythingNearerThanTheLimit() throws {
        let wall: Shape = { p in 0.45 - p.z }
        let depth = SurfaceRegistrationTests.depth(of: wall, from: .identity, camera: Self.camera)
        let whole = try #require(WholeView.sphere(depth: depth, intrinsics: Self.camera, maximumDepth: 1.5))
        #expect(abs(whole.medianDepth - 0.45) < 1e-6)
        #expect(abs(whole.region.centre.z - 0.45) < 1e-6 && abs(whole.region.centre.x) < 0.01 && abs(whole.region.centre.y) < 0.01)
        // The farthest pixel examined (every fourth, from the second) lies 0.2175 m and 0.161 m
        // off the wall's middle: 0.271 m, and a tenth more.
        #expect(abs(whole.region.radius - 0.2706 * 1.1) < 0.005, "radius \(whole.region.radius)")
        #expect(WholeView.sphere(depth: depth, intrinsics: Self.camera, maximumDepth: 0.4) == nil)
        var reconstructor = Self.reconstructor
        reconstructor.space = .wholeView(maximumDepth: 1.5)
        let space = try #require(reconstructor.firstSpace(Self.frame(wall, .identity, at: 0)))
        #expect(abs(space.noiseScale - 2.25) < 1e-4)
        #expect(space.fused == space.tracked)
        // Said as a view's, not a head's: nothing near enough, and frames that could not be placed.
        var near = reconstructor
        near.space = .wholeView(maximumDepth: 0.4)
        #expect(throws: ReconstructionError.nothingInView(framesSeen: 3, maximumDepth: 0.4)) {
            try near.reconstruct(frameCount: 3) { _ in Self.frame(wall, .identity, at: 0) }
        }
        let nothing: Shape = { _ in 1 }
        #expect(throws: ReconstructionError.viewLost(placed: 1, examined: 5)) {
            try reconstructor.reconstruct(frameCount: 6) { Self.frame($0 == 0 ? wall : nothing, .identity, at: Double($0) / 10) }
        }
    }

    /// The egg with a nose fixes every direction: circling it 88° in 4° steps with a camera of
    /// 120 × 90 pixels, every frame is placed within 5 mm of the truth 70 mm from the centre
    /// (relative to the first frame; 4.2 mm at worst when written).
    @Test func aShapeThatFixesEveryDirectionIsTrackedAllTheWay() throws {
        let shape = SurfaceRegistrationTests.head
        let poses = (0...22).map { Self.pose(Double($0) * 4) }
        let result = try Self.reconstructor.reconstruct(frameCount: poses.count) { Self.frame(shape, poses[$0], at: Double($0) / 10) }
        #expect(result.poses.count == poses.count)
        for placed in result.poses {
            let error = Self.error(placed, poses)
            #expect(error < 5, "frame \(placed.frameIndex) off by \(error) mm")
        }
        #expect(!result.mesh.faces.isEmpty)
        #expect(!result.matchedColour && result.mesh.colors.isEmpty, "a grey shape shows no print: no colour fused or written")
    }

    /// A ball turns about its centre without changing: the surface is still right, but the
    /// camera's turn about the centre is not seen. The camera also comes closer, which the
    /// depth does show, so frames are fused.
    @Test func aBallKeepsItsShapeButNotTheTurn() throws {
        let shape = SurfaceRegistrationTests.ball
        let poses = (0...15).map { Self.pose(Double($0) * 4, distance: 0.3 - 0.004 * Double($0)) }
        let result = try Self.reconstructor.reconstruct(frameCount: poses.count) { Self.frame(shape, poses[$0], at: Double($0) / 10) }
        let centre = poses[0].inverse.apply(.zero)
        let radii = result.mesh.vertices.map { length($0 - centre) }
        let off = radii.map { abs($0 - 0.065) }.sorted()[radii.count * 9 / 10]
        #expect(off < 0.001, "90 % of the surface within a millimetre of the ball (\(off * 1000) mm)")
        let last = try #require(result.poses.last)
        let turn = (poses[0].inverse * poses[last.frameIndex]).rotation.angle - last.worldFromCamera.rotation.angle
        #expect(abs(turn) > 10 * Double.pi / 180, "the 60° turn is not seen on a ball")
    }

    @Test func noHeadNoScan() {
        let wall: SurfaceRegistrationTests.Shape = { p in p.y + 0.05 }
        #expect(throws: ReconstructionError.noHeadInView(framesSeen: 3)) {
            try Self.reconstructor.reconstruct(frameCount: 3) { Self.frame(wall, Self.pose(Double($0)), at: 0) }
        }
        #expect(throws: ReconstructionError.emptyScan) { try Self.reconstructor.reconstruct(frameCount: 0) { _ in nil } }
    }

    /// Every view of a correctly tracked shape lies on the finished surface; a result whose
    /// checked views mostly do not is refused.
    @Test func viewsOffTheFinishedSurfaceRefuseTheScan() throws {
        let shape = SurfaceRegistrationTests.head
        let poses = (0...10).map { Self.pose(Double($0) * 4) }
        var reconstructor = Self.reconstructor
        reconstructor.checkEvery = 2
        let result = try reconstructor.reconstruct(frameCount: poses.count) { Self.frame(shape, poses[$0], at: Double($0) / 10) }
        #expect(result.checked.count == 6)
        #expect(try #require(result.agreement) > 0.95)
        var astray = result
        astray.checked = [(0, 0.99), (2, 0.95), (4, 0.9), (6, 0.99), (8, 0.8), (10, 0.99), (12, 0.98), (14, 0.97), (16, 0.99), (18, 0.99)]
            .map { CheckedView(frameIndex: $0.0, agreement: $0.1) }
        #expect(throws: ReconstructionError.placementWentAstray(agreement: 0.9)) { try astray.checkAgreement(minimum: 0.92) }
        try astray.checkAgreement(minimum: 0.9)
    }

    /// On a printed cap each checked view is held to its own measure's least share: a view
    /// that showed too little of the print, judged by its depth, is held to the depth's 0.92,
    /// not to the print's 0.9.
    @Test func eachCheckedViewIsHeldToItsOwnMeasure() throws {
        var result = try Self.reconstructor.reconstruct(frameCount: 3) { i in
            Self.frame(SurfaceRegistrationTests.head, Self.pose(Double(i) * 4), at: Double(i) / 10)
        }
        let onPrint = (0..<8).map { CheckedView(frameIndex: $0, agreement: 0.95, byPrint: true) }
        result.checked = onPrint + [0.91, 0.91].enumerated().map { CheckedView(frameIndex: 8 + $0.offset, agreement: $0.element) }
        #expect(throws: ReconstructionError.placementWentAstray(agreement: 0.91)) { try result.checkAgreement(minimum: 0.92, print: 0.9) }
        result.checked = onPrint + [CheckedView(frameIndex: 8, agreement: 0.93), CheckedView(frameIndex: 9, agreement: 0.91)]
        try result.checkAgreement(minimum: 0.92, print: 0.9)
        result.checked = onPrint.map { CheckedView(frameIndex: $0.frameIndex, agreement: 0.91, byPrint: true) }
        try result.checkAgreement(minimum: 0.92, print: 0.9)
        #expect(throws: ReconstructionError.placementWentAstray(agreement: 0.91, onPrint: true)) {
            try result.checkAgreement(minimum: 0.92, print: 0.95)
        }
        let words = ReconstructionError.placementWentAstray(agreement: 0.88, onPrint: true).description
        #expect(words.contains("12 % of the cap's print off its place"), "\(words)")
    }

    /// A head that leaves the picture for good ends the scan as soon as even the frames left
    /// could not place half of them: nothing more is read or searched.
    @Test func aHeadThatStaysAwayEndsTheScanEarly() throws {
        let shape = SurfaceRegistrationTests.head
        let empty = RGBDFrame(
            timestamp: 0, color: RGBAImage(width: Self.camera.width, height: Self.camera.height, repeating: RGBA8(gray: 128)),
            depth: DepthImage(width: Self.camera.width, height: Self.camera.height, repeating: .nan), colorIntrinsics: Self.camera,
            depthIntrinsics: Self.camera)
        var read = 0
        // Three frames of the head, then seventeen with nothing in view: after frame 13 even
        // placing the six left would give 9 of 20.
        #expect(throws: ReconstructionError.trackingLost(placed: 3, examined: 14)) {
            try Self.reconstructor.reconstruct(frameCount: 20) { i in
                read += 1
                return i < 3 ? Self.frame(shape, Self.pose(Double(i) * 4), at: Double(i) / 10) : empty
            }
        }
        #expect(read == 14)
    }

    /// The lost head is searched for in every frame of a loss up to 12.8 s, then twice each
    /// time the loss doubles.
    @Test func aLongLossIsSearchedEverMoreRarely() {
        let searched = (0...1100).filter(MarkerlessReconstructor.searchesAgain(afterLosing:))
        #expect(searched == Array(1...128) + [192, 256, 384, 512, 768, 1024])
    }

    /// A pose built on the last one stays a rotation: a stretched one is made orthonormal again
    /// without turning it.
    @Test func aStretchedRotationIsMadeExactAgain() {
        let r = Rotation3(axis: normalized(SIMD3(1, 2, 3)), angle: 0.7)
        let (a, b, c) = r.columns
        let stretched = RigidTransform(rotation: Rotation3(columns: (a * 1.01, b * 0.995 + a * 0.002, c)), translation: SIMD3(1, 2, 3))
        let exact = stretched.orthonormalized
        let (x, y, z) = exact.rotation.columns
        for (u, v) in [(x, y), (y, z), (x, z)] { #expect(abs(dot(u, v)) < 1e-12) }
        for u in [x, y, z] { #expect(abs(length(u) - 1) < 1e-12) }
        #expect((exact.rotation * r.inverse).angle < 0.003)
        #expect(exact.translation == SIMD3(1, 2, 3))
    }
}

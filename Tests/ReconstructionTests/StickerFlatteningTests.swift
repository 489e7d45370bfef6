import Foundation
import Geometry
import Testing

@testable import Reconstruction

/// A cap of 70 mm radius seen as a fine height field (0.5 mm spacing) with five flat 14 mm
/// markers, each on a sticker with a margin of one cell of six (18.7 mm of paper) touching
/// the head at its centre, 25 mm apart: the geometry of label stickers on an infant's head.
private struct StickeredDome {
    static let radius = 0.07
    static let proud = StickeredDome()
    static let lyingFlat = StickeredDome(stickersStandProud: false)
    static let side = 0.014
    let mesh: TriangleMesh
    let map: MarkerMap

    init(stickersStandProud: Bool = true) {
        let r = Self.radius
        let centres = [SIMD2(0.0, 0), SIMD2(0.025, 0), SIMD2(-0.025, 0), SIMD2(0, 0.025), SIMD2(0, -0.025)]
            .map { normalized(SIMD3($0.x, $0.y, r)) }
        let paperHalf = Self.side / 2 * 8 / 6
        var vertices: [SIMD3<Double>] = []
        for i in -80...80 {
            for j in -80...80 {
                let d = normalized(SIMD3(Double(i) * 0.0005, Double(j) * 0.0005, r))
                var p = r * d
                for n in centres where stickersStandProud {
                    // Where the ray meets the paper's tangent plane inside the paper, the
                    // camera sees the paper, not the head.
                    let (right, up) = Self.axes(n)
                    let hit = d * (r / dot(d, n))
                    let q = hit - r * n
                    if abs(dot(q, right)) <= paperHalf, abs(dot(q, up)) <= paperHalf, dot(d, n) > 0.9 { p = hit }
                }
                vertices.append(p)
            }
        }
        mesh = TriangleMesh(vertices: vertices)
        var map = MarkerMap()
        for (id, n) in centres.enumerated() {
            let (right, up) = Self.axes(n)
            let h = Self.side / 2
            map.corners[id] = [r * n - right * h + up * h, r * n + right * h + up * h, r * n + right * h - up * h, r * n - right * h - up * h]
        }
        self.map = map
    }

    static func axes(_ n: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>) {
        let right = normalized(cross(SIMD3(0, 1, 0), n))
        return (right, cross(n, right))
    }

    /// Largest distance of a vertex from the sphere, metres.
    static func worstError(_ mesh: TriangleMesh) -> Double {
        mesh.vertices.map { abs(length($0) - radius) }.max() ?? .infinity
    }
}

struct StickerFlatteningTests {
    @Test func interpolatesTheHeadUnderStickersThatStandProud() {
        let dome = StickeredDome.proud
        var mesh = dome.mesh
        #expect(StickeredDome.worstError(mesh) > 0.001, "the oracle itself: paper corners stand over a millimetre off")
        let report = StickerFlattening().apply(to: &mesh, map: dome.map, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.stickersFlattened == 5)
        #expect(report.stickersSkipped == 0)
        #expect(report.maxLift > 0.001)
        // The quadric's error over a sphere across the paper: a twentieth of the lift.
        #expect(StickeredDome.worstError(mesh) < 0.0001)
    }

    /// At the rim of a flattened patch the head turns from nearly flat to round across one
    /// label: the height field under it must follow that, not cut into the round side.
    @Test func followsAHeadWhoseCurvatureChangesUnderTheLabel() throws {
        // Radius 200 mm on one side of the label's centre, 30 mm on the other, 60 mm across;
        // the paper (18.7 mm) touches the head at its centre.
        func head(_ x: Double, _ y: Double) -> Double { -x * x / (2 * (x < 0 ? 0.2 : 0.03)) - y * y / (2 * 0.06) }
        let paperHalf = StickeredDome.side / 2 * 8 / 6
        var vertices: [SIMD3<Double>] = []
        for i in -60...60 {
            for j in -60...60 {
                let x = Double(i) * 0.0005, y = Double(j) * 0.0005
                let onPaper = abs(x) <= paperHalf && abs(y) <= paperHalf
                vertices.append(SIMD3(x, y, onPaper ? 0 : head(x, y)))
            }
        }
        var mesh = TriangleMesh(vertices: vertices)
        let h = StickeredDome.side / 2
        var map = MarkerMap()
        map.corners[0] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)]
        let report = StickerFlattening().apply(to: &mesh, map: map, headCentre: SIMD3(0, 0, -0.05), cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.stickersFlattened == 1)
        #expect(report.maxLift > 0.001, "the paper's round-side edge stands over a millimetre off")
        let worst = mesh.vertices.map { abs($0.z - head($0.x, $0.y)) }.max() ?? .infinity
        // A quadric fit leaves 0.58 mm here, the cubic 0.12 mm.
        #expect(worst < 0.00015, "worst \(worst * 1000) mm off the head")
    }

    @Test func leavesStickersThatLieOnTheHeadAlone() {
        let dome = StickeredDome.lyingFlat
        var mesh = dome.mesh
        let report = StickerFlattening().apply(to: &mesh, map: dome.map, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.stickersFlattened == 5)
        #expect(report.maxLift < 0.00005)
        #expect(StickeredDome.worstError(mesh) < 0.0001)
    }

    /// With nothing of the head around it there is nothing to interpolate from: the surface
    /// stays as it was.
    @Test func skipsAStickerWithNoHeadAroundIt() {
        let dome = StickeredDome.proud
        let wholeMeshOnPaper = TriangleMesh(vertices: dome.mesh.vertices.filter { ($0.x * $0.x + $0.y * $0.y).squareRoot() < 0.008 })
        var mesh = wholeMeshOnPaper
        let report = StickerFlattening().apply(to: &mesh, map: dome.map, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.stickersFlattened == 0)
        #expect(mesh == wholeMeshOnPaper)
    }

    /// Corners from a damaged map (repeated, not finite, too few) are passed over.
    @Test(arguments: 0..<12) func survivesDegenerateCorners(seed: Int) {
        var random = Xoshiro256(seed: UInt64(seed))
        let dome = StickeredDome.proud
        var map = dome.map
        let pick = [SIMD3<Double>.zero, SIMD3(.nan, 0, 0), SIMD3(.infinity, 1, 0), SIMD3(0.07, 0, 0)]
        for id in map.ids where Double.random(in: 0..<1, using: &random) < 0.6 {
            let count = Int.random(in: 0...5, using: &random)
            map.corners[id] = (0..<count).map { _ in pick[Int.random(in: 0..<pick.count, using: &random)] }
        }
        var mesh = dome.mesh
        let report = StickerFlattening().apply(to: &mesh, map: map, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.stickersFlattened + report.stickersSkipped <= 5)
        #expect(mesh.vertices.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
    }

    /// A printed ChArUco board lying flat, as the phones were checked with: 10 × 8 squares of
    /// 20.875 mm, a 14.6 mm marker in every white square (40), depth noisy over the print
    /// (0.6 mm) and the map off by a few tenths of a millimetre. Nothing stands off a plane,
    /// so nothing may be lowered; fitting a head into the noise lifted stickers by millimetres
    /// on a real board.
    @Test(arguments: 0..<3) func leavesABoardLyingFlatAlone(seed: Int) {
        var random = Xoshiro256(seed: UInt64(seed) &+ 900)
        func noise(_ sigma: Double) -> Double {
            // A sum of uniforms: close enough to a normal spread for noise.
            (0..<6).reduce(0) { sum, _ in sum + Double.random(in: -1...1, using: &random) } * sigma / 1.41
        }
        let square = 0.020875, side = 0.0146
        var vertices: [SIMD3<Double>] = []
        for i in -130...130 {
            for j in -105...105 {
                vertices.append(SIMD3(Double(i) * 0.0008, Double(j) * 0.0008, noise(0.0006)))
            }
        }
        var map = MarkerMap()
        for row in 0..<8 {
            for column in 0..<10 where (row + column) % 2 == 0 {
                let c = SIMD3((Double(column) - 4.5) * square, (Double(row) - 3.5) * square, 0)
                let h = side / 2
                map.corners[row * 10 + column] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map {
                    c + $0 + SIMD3(noise(0.0002), noise(0.0002), noise(0.0003))
                }
            }
        }
        let before = TriangleMesh(vertices: vertices)
        func largestMove(_ flattening: StickerFlattening) -> (Double, StickerFlattening.Report) {
            var mesh = before
            let report = flattening.apply(to: &mesh, map: map, headCentre: SIMD3(0, 0, -0.07), cellsPerSide: 6, voxelSize: 0.001)
            return (zip(before.vertices, mesh.vertices).map { length($0 - $1) }.max() ?? .infinity, report)
        }
        // The oracle itself: without asking the markers around, noise is lifted away.
        var blind = StickerFlattening()
        blind.neighbourReach = 0
        let (blindMove, blindReport) = largestMove(blind)
        #expect(blindReport.stickersFlattened > 20 && blindMove > 0.0005, "\(blindReport)")

        let (move, report) = largestMove(StickerFlattening())
        #expect(report.stickersLyingFlat == 40, "\(report)")
        #expect(report.stickersFlattened == 0)
        #expect(move <= 0.0001, "a vertex moved \(move * 1000) mm")
    }
}

/// Stickers whose code no frame read, placed by the outlines several keyframes agree on.
struct UnreadStickerTests {
    private let side = 0.014
    /// A square sticker of the cap's side centred at `centre`, facing +z.
    private func square(_ centre: SIMD3<Double>) -> [SIMD3<Double>] {
        let h = side / 2
        return [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { centre + $0 }
    }

    /// Keyframes at `poses`, each seeing the outlines (map frame) given, in its own camera frame.
    private func keyframes(_ poses: [RigidTransform], seeing outlines: [[SIMD3<Double>]]) -> [Keyframe] {
        poses.enumerated().map { k, pose in
            Keyframe(
                frameIndex: k, mapFromCamera: pose, observations: [],
                unread: outlines.map {
                    MarkerObservation(id: -1, pixels: Array(repeating: .zero, count: 4), corners: $0.map(pose.inverse.apply), fromDepth: true)
                })
        }
    }

    private let poses = (0..<4).map { k in
        RigidTransform(
            rotation: Rotation3(axis: normalized(SIMD3(0.2, 1, 0.1)), angle: 0.2 * Double(k)), translation: SIMD3(0.01 * Double(k), 0, 0.3))
    }

    @Test func anOutlineSeenFromSeveralKeyframesIsPlaced() throws {
        let sticker = square(SIMD3(0.03, 0.01, 0.07))
        // Each keyframe names the corners from a different one, and one the other way round.
        var frames = keyframes(poses, seeing: [sticker])
        frames[1].unread[0].corners = Array(frames[1].unread[0].corners[2...] + frames[1].unread[0].corners[..<2])
        frames[2].unread[0].corners.reverse()
        let placed = UnreadStickers().locate(keyframes: frames, map: MarkerMap(), side: side)
        try #require(placed.count == 1)
        #expect(zip(placed[0], sticker).allSatisfy { length($0 - $1) < 1e-9 })
    }

    @Test func tooFewViewsAMappedMarkerOrScatteredViewsPlaceNothing() {
        let sticker = square(SIMD3(0.03, 0.01, 0.07))
        #expect(UnreadStickers().locate(keyframes: keyframes(Array(poses.prefix(2)), seeing: [sticker]), map: MarkerMap(), side: side).isEmpty)
        // Two keyframes, each reporting the outline twice (two threshold passes), are two views.
        var twice = keyframes(Array(poses.prefix(2)), seeing: [sticker])
        for k in twice.indices { twice[k].unread += twice[k].unread }
        #expect(UnreadStickers().locate(keyframes: twice, map: MarkerMap(), side: side).isEmpty)
        // Off the cap: a square 3 cm outside the sphere its markers lie on (the dome: radius 7 cm
        // round (0, 0, 0.3)).
        let dome = domeOfMarkers()
        let onCap = square(SIMD3(0, 0, 0.23))
        let offCap = square(SIMD3(0, 0, 0.20))
        #expect(UnreadStickers().locate(keyframes: keyframes(poses, seeing: [onCap]), map: dome, side: side).count == 1)
        #expect(UnreadStickers().locate(keyframes: keyframes(poses, seeing: [offCap]), map: dome, side: side).isEmpty)
        // The same place as a mapped marker: that marker, read in other frames.
        let map = MarkerMap(corners: [5: square(SIMD3(0.031, 0.01, 0.07))])
        #expect(UnreadStickers().locate(keyframes: keyframes(poses, seeing: [sticker]), map: map, side: side).isEmpty)
        // Views that scatter by 2.5 mm round it (still one cluster) are not one sticker held still.
        var frames = keyframes(poses, seeing: [sticker])
        let scatter = [SIMD3(0.0025, 0, 0), SIMD3(-0.0025, 0, 0), SIMD3(0, 0.0025, 0), SIMD3(0, -0.0025, 0)]
        for k in frames.indices {
            let offset = poses[k].inverse.rotation.apply(scatter[k])
            frames[k].unread[0].corners = frames[k].unread[0].corners.map { $0 + offset }
        }
        #expect(UnreadStickers().locate(keyframes: frames, map: MarkerMap(), side: side).isEmpty)
    }

    /// The dome's middle sticker unread: without its outline it stays standing off; with it,
    /// it is flattened like the rest.
    @Test func anUnreadStickerIsFlattenedLikeTheRest() throws {
        let dome = StickeredDome.proud
        var map = dome.map
        let middle = try #require(map.corners[0])
        map.corners[0] = nil
        var without = dome.mesh
        _ = StickerFlattening().apply(to: &without, map: map, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(StickeredDome.worstError(without) > 0.001)
        var with = dome.mesh
        let report = StickerFlattening().apply(to: &with, map: map, unread: [middle], headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
        #expect(report.unreadStickersPlaced == 1)
        #expect(report.stickersFlattened == 5)
        #expect(StickeredDome.worstError(with) < 0.0001)
    }
}

/// A scan made again through a corrected camera keeps the unread outlines, seen through it too.
struct UnreadOutlinesAfterACorrectionTests {
    @Test func theRebuildSeesTheOutlinesThroughTheCorrectedCamera() throws {
        let k = CameraIntrinsics(fx: 300, fy: 300, cx: 160, cy: 120, width: 320, height: 240)
        let truth = domeOfMarkers()
        // A sticker of the dome's size between its markers, never read.
        let sticker = [SIMD3(-0.007, 0.007, 0.23), SIMD3(0.007, 0.007, 0.23), SIMD3(0.007, -0.007, 0.23), SIMD3(-0.007, -0.007, 0.23)]
        var seen: [(Int, [MarkerObservation], unread: [MarkerObservation])] = []
        for f in 0..<4 {
            let mapFromCamera = RigidTransform(rotation: .identity, translation: SIMD3(0.03 * Double(f), 0, 0))
            func observed(_ id: Int, _ corners: [SIMD3<Double>]) -> MarkerObservation? {
                let local = corners.map(mapFromCamera.inverse.apply)
                let pixels = local.compactMap(k.project)
                return pixels.count == 4 ? MarkerObservation(id: id, pixels: pixels, corners: local, fromDepth: true) : nil
            }
            let markers = truth.ids.compactMap { id in truth.corners[id].flatMap { observed(id, $0) } }
            seen.append((f, markers, unread: [observed(-1, sticker)].compactMap { $0 }))
        }
        var camera = SettledCamera(recorded: k)
        camera.focalScaleApplied = 1.05
        var keyframes: [Keyframe] = [], map = MarkerMap(), stats = ReconstructionStatistics()
        var reconstructor = Reconstructor()
        reconstructor.options.estimatesFocalLength = false
        try reconstructor.rebuild(seen, &keyframes, &map, camera: &camera, stats: &stats)
        try #require(keyframes.count >= 3)
        for keyframe in keyframes {
            let original = try #require(seen.first { $0.0 == keyframe.frameIndex }?.unread.first)
            let unread = try #require(keyframe.unread.first)
            // The same pixels and depth, seen through a focal length 5 % longer: 5 % narrower.
            for (a, b) in zip(unread.corners, original.corners) {
                #expect(abs(a.z - b.z) < 1e-12)
                #expect(abs(a.x - b.x / 1.05) < 1e-9 && abs(a.y - b.y / 1.05) < 1e-9)
            }
        }
    }
}

/// Outlines and markers as a damaged recording may give them: any corner may be huge, zero,
/// repeated or not a number. Nothing traps, and what is placed is finite.
struct UnreadStickerFuzzTests {
    @Test(arguments: 0..<4) func arbitraryOutlinesNeverTrapAndPlaceOnlyFiniteStickers(seed: UInt64) {
        var random = SplitMix64(seed: 0xC0FFEE &+ seed)
        func value() -> Double {
            switch Int(random.next() % 8) {
            case 0: return .nan
            case 1: return .infinity
            case 2: return 0
            case 3: return 1e30
            default: return (Double(random.next() % 20_000) / 10_000 - 1) * 0.1
            }
        }
        func point() -> SIMD3<Double> { SIMD3(value(), value(), value()) }
        for _ in 0..<50 {
            var map = MarkerMap()
            for id in 0..<Int(random.next() % 8) { map.corners[id] = (0..<4).map { _ in point() } }
            let keyframes = (0..<Int(random.next() % 6)).map { k in
                Keyframe(
                    frameIndex: k % 3, mapFromCamera: .identity, observations: [],
                    unread: (0..<Int(random.next() % 4)).map { _ in
                        MarkerObservation(
                            id: -1, pixels: Array(repeating: .zero, count: 4), corners: (0..<Int(random.next() % 6)).map { _ in point() },
                            fromDepth: true)
                    })
            }
            let placed = UnreadStickers().locate(keyframes: keyframes, map: map, side: 0.014)
            #expect(placed.allSatisfy { $0.count == 4 && $0.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } })
            var mesh = TriangleMesh(vertices: (0..<30).map { _ in point() })
            _ = StickerFlattening().apply(to: &mesh, map: map, unread: placed, headCentre: .zero, cellsPerSide: 6, voxelSize: 0.001)
            _ = map.headFrame(layout: .standard)
            _ = map.unseenRingsDrop(layout: .standard, radius: value())
        }
    }
}

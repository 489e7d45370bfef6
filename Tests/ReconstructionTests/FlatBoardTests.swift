import Foundation
import Geometry
import Imaging
import Markers
import Reconstruction
import Recording
import Testing

/// A flat board of AprilTag 36h11 markers of known geometry, seen by a depth camera from
/// poses that sweep ±35° around it: what calibrating with a printed board gives. The map of
/// the board and every keyframe's pose are compared with the truth.
struct FlatBoardTests {
    static let side = 0.030, gap = 0.010, columns = 4, rows = 3
    static let k = CameraIntrinsics(fx: 591.2, fy: 591.2, cx: 320.6, cy: 238.9, width: 640, height: 480)
    /// Texture resolution: metres per texel.
    static let pitch = 0.00025
    static let margin = 0.015

    static var layout: CapLayout {
        CapLayout(
            name: "board-36h11", dictionaryName: "apriltag_36h11", markerSideMillimetres: side * 1000,
            markers: (0..<columns * rows).map { CapMarker(id: $0, region: .front) })
    }

    /// Corners of marker `id` in the board frame (OpenCV order, z = 0), metres.
    static func corners(of id: Int) -> [SIMD3<Double>] {
        let width = Double(columns) * side + Double(columns - 1) * gap, height = Double(rows) * side + Double(rows - 1) * gap
        let x0 = -width / 2 + Double(id % columns) * (side + gap), y0 = -height / 2 + Double(id / columns) * (side + gap)
        return [SIMD3(x0, y0, 0), SIMD3(x0 + side, y0, 0), SIMD3(x0 + side, y0 + side, 0), SIMD3(x0, y0 + side, 0)]
    }

    /// The printed board as a gray texture, top-left at board (−width/2 − margin, −height/2 − margin).
    static func texture() throws -> (image: GrayImage, origin: SIMD2<Double>) {
        let width = Double(columns) * side + Double(columns - 1) * gap + 2 * margin
        let height = Double(rows) * side + Double(rows - 1) * gap + 2 * margin
        var image = GrayImage(width: Int((width / pitch).rounded()), height: Int((height / pitch).rounded()), repeating: 255)
        let renderer = MarkerRenderer(dictionary: try MarkerDictionary.named("apriltag_36h11"))
        let origin = SIMD2(-width / 2, -height / 2)
        for id in 0..<columns * rows {
            let c = corners(of: id)[0]
            try renderer.draw(
                id: id, side: Int((side / pitch).rounded()),
                at: (Int(((c.x - origin.x) / pitch).rounded()), Int(((c.y - origin.y) / pitch).rounded())), into: &image)
        }
        return (image, origin)
    }

    /// The frame the camera at `boardFromCamera` sees through `lens` (by default the pinhole
    /// `k`): bilinear texture and exact depth with a little seeded noise; the background has
    /// no depth.
    static func frame(
        _ boardFromCamera: RigidTransform, texture: (image: GrayImage, origin: SIMD2<Double>), seed: UInt64, time: Double,
        lens: CameraIntrinsics = k
    ) -> RGBDFrame {
        var colour = RGBAImage(width: k.width, height: k.height, repeating: RGBA8(r: 110, g: 110, b: 110))
        var depth = DepthImage(width: k.width, height: k.height, repeating: .nan)
        var rng = Xoshiro256(seed: seed)
        let o = boardFromCamera.translation
        for y in 0..<k.height {
            for x in 0..<k.width {
                let d = boardFromCamera.applyToVector(lens.unproject(SIMD2(Double(x), Double(y)), depth: 1))
                guard d.z != 0 else { continue }
                let t = -o.z / d.z
                guard t > 0 else { continue }
                let p = o + d * t
                let u = (p.x - texture.origin.x) / pitch - 0.5, v = (p.y - texture.origin.y) / pitch - 0.5
                guard u >= 0, v >= 0, u < Double(texture.image.width - 1), v < Double(texture.image.height - 1) else { continue }
                let g = bilinear(texture.image, u, v)
                colour[x, y] = RGBA8(r: g, g: g, b: g)
                depth[x, y] = Float(t) + rng.gaussian() * 0.0003
            }
        }
        return RGBDFrame(timestamp: time, color: colour, depth: depth, colorIntrinsics: lens, depthIntrinsics: lens)
    }

    static func bilinear(_ image: GrayImage, _ u: Double, _ v: Double) -> UInt8 {
        let x = Int(u), y = Int(v)
        let fx = u - Double(x), fy = v - Double(y)
        let a = Double(image[x, y]), b = Double(image[x + 1, y]), c = Double(image[x, y + 1]), d = Double(image[x + 1, y + 1])
        return UInt8((a * (1 - fx) * (1 - fy) + b * fx * (1 - fy) + c * (1 - fx) * fy + d * fx * fy).rounded())
    }

    @Test func aFlatAprilTagBoardMapsWithinHalfAMillimetreAndPosesWithinAMillimetreAndHalfADegree() throws {
        let texture = try Self.texture()
        // 24 views 0.35 m away, swinging ±35° sideways and ±20° up and down, rolling a little.
        let poses: [RigidTransform] = (0..<24).map { i in
            let a = Double(i) / 23
            let yaw = (-35 + 70 * a) * .pi / 180, pitch = 20 * sin(a * 2 * .pi) * .pi / 180
            let eye = SIMD3(0.35 * sin(yaw) * cos(pitch), 0.35 * sin(pitch), -0.35 * cos(yaw) * cos(pitch))
            let up = Rotation3(axis: SIMD3(0, 0, 1), angle: 0.2 * sin(a * 3)).apply(SIMD3(0, -1, 0))
            return RigidTransform.camera(at: eye, lookingAt: SIMD3(0.005, -0.003, 0), up: up)
        }
        let frames = poses.enumerated().map { Self.frame($0.element, texture: texture, seed: UInt64($0.offset + 1), time: Double($0.offset) / 30) }
        var options = ReconstructionOptions()
        options.fuseSurface = false
        let result = try Reconstructor(layout: Self.layout, options: options).reconstruct(frameCount: frames.count, frame: { frames[$0] })
        #expect(result.map.corners.count == Self.columns * Self.rows)

        let ids = result.map.ids
        let alignment = try RigidAlignment.fit(from: ids.flatMap { result.map.corners[$0]! }, to: ids.flatMap(Self.corners))
        #expect(alignment.rms < 0.0005, "board map RMS \(alignment.rms * 1000) mm")
        #expect(result.keyframes.count >= 5)
        for keyframe in result.keyframes {
            let estimated = alignment.transform * keyframe.mapFromCamera
            let truth = poses[keyframe.frameIndex]
            let position = length(estimated.translation - truth.translation)
            let angle = (truth.rotation.inverse * estimated.rotation).angle * 180 / .pi
            #expect(position < 0.001, "frame \(keyframe.frameIndex): camera \(position * 1000) mm off")
            #expect(angle < 0.5, "frame \(keyframe.frameIndex): camera turned \(angle)° off")
        }
    }

    /// The same board recorded by a camera whose factory focal length is 5 % long and whose
    /// centre is (5, −3) px off: both are estimated, the map rebuilt through the corrected
    /// camera, and the board comes out at its printed size.
    @Test func aMiscalibratedCameraIsCorrectedAndTheBoardKeepsItsSize() throws {
        let texture = try Self.texture()
        let poses: [RigidTransform] = (0..<24).map { i in
            let a = Double(i) / 23
            let yaw = (-35 + 70 * a) * .pi / 180, pitch = 20 * sin(a * 2 * .pi) * .pi / 180
            let eye = SIMD3(0.35 * sin(yaw) * cos(pitch), 0.35 * sin(pitch), -0.35 * cos(yaw) * cos(pitch))
            let up = Rotation3(axis: SIMD3(0, 0, 1), angle: 0.4 * sin(a * 3)).apply(SIMD3(0, -1, 0))
            return RigidTransform.camera(at: eye, lookingAt: SIMD3(0.005, -0.003, 0), up: up)
        }
        let recorded = CameraIntrinsics(fx: Self.k.fx * 1.05, fy: Self.k.fy * 1.05, cx: Self.k.cx + 5, cy: Self.k.cy - 3, width: 640, height: 480)
        let frames = poses.enumerated().map { item -> RGBDFrame in
            var f = Self.frame(item.element, texture: texture, seed: UInt64(item.offset + 1), time: Double(item.offset) / 30)
            (f.colorIntrinsics, f.depthIntrinsics) = (recorded, recorded)
            return f
        }
        var options = ReconstructionOptions()
        options.fuseSurface = false
        options.estimatesPrincipalPoint = true
        let result = try Reconstructor(layout: Self.layout, options: options).reconstruct(frameCount: frames.count, frame: { frames[$0] })
        let s = result.statistics
        let focal = recorded.fx * (s.focalScaleApplied ?? 1)
        #expect(abs(focal / Self.k.fx - 1) < 0.003, "focal \(focal)")
        let shift = try #require(s.principalPointShift)
        #expect(abs(recorded.cx + shift[0] - Self.k.cx) < 2 && abs(recorded.cy + shift[1] - Self.k.cy) < 2, "shift \(shift)")
        // The reconstruction returns the camera it settled on; the statistics keep its numbers.
        #expect(result.camera.recorded == recorded)
        #expect(s.camera(recorded: recorded) == result.camera)
        #expect(result.camera.pinhole.fx == focal && result.camera.correction.principalShift == SIMD2(shift[0], shift[1]))
        // Each keyframe, as the reconstruction saw it, puts the mapped corners on its detections.
        for view in result.keyframeViews {
            let keyframe = try #require(result.keyframes.first { $0.frameIndex == view.frameIndex })
            for o in keyframe.observations {
                let mapped = try #require(result.map.corners[o.id])
                for c in 0..<4 {
                    let pixel = try #require(view.project(mapped[c]))
                    #expect(distance(pixel, o.pixels[c]) < 1.5, "frame \(view.frameIndex), marker \(o.id)")
                }
            }
        }
        let ids = result.map.ids
        let rigid = try RigidAlignment.fit(from: ids.flatMap { result.map.corners[$0]! }, to: ids.flatMap(Self.corners))
        #expect(rigid.rms < 0.0005, "board map RMS \(rigid.rms * 1000) mm")
    }

    /// A lens with barrel distortion (k1 = −0.1, about 4 px at the picture's corners): when
    /// the recording states it, the pictures are corrected and the board maps as well as a
    /// pinhole's; when it does not, calibrating estimates it.
    @Test func aLensWithDistortionIsCorrectedWhenStatedAndEstimatedWhenNot() throws {
        let texture = try Self.texture()
        var lens = Self.k
        lens.distortion = RadialDistortion(k1: -0.1)
        // The board swept around and aimed at different parts of the picture, corners too.
        let frames = (0..<20).map { i -> RGBDFrame in
            let a = Double(i) / 19
            let yaw = (-30 + 60 * a) * .pi / 180, pitch = 15 * sin(a * 2 * .pi) * .pi / 180
            let eye = SIMD3(0.3 * sin(yaw) * cos(pitch), 0.3 * sin(pitch), -0.3 * cos(yaw) * cos(pitch))
            let aim = SIMD3(0.07 * cos(a * 9), 0.05 * sin(a * 7), 0)
            let pose = RigidTransform.camera(at: eye, lookingAt: aim, up: SIMD3(0, -1, 0))
            return Self.frame(pose, texture: texture, seed: UInt64(i + 1), time: Double(i) / 30, lens: lens)
        }
        var options = ReconstructionOptions()
        options.fuseSurface = false
        let stated = try Reconstructor(layout: Self.layout, options: options).reconstruct(frameCount: frames.count, frame: { frames[$0] })
        let ids = stated.map.ids
        let fit = try RigidAlignment.fit(from: ids.flatMap { stated.map.corners[$0]! }, to: ids.flatMap(Self.corners))
        #expect(ids.count == Self.columns * Self.rows)
        #expect(fit.rms < 0.0003, "board map RMS \(fit.rms * 1000) mm")

        options.estimatesDistortion = true
        options.estimatesPrincipalPoint = true
        let unstated = try Reconstructor(layout: Self.layout, options: options).reconstruct(
            frameCount: frames.count,
            frame: { i in
                var f = frames[i]
                (f.colorIntrinsics, f.depthIntrinsics) = (Self.k, Self.k)
                return f
            })
        let k1 = try #require(unstated.statistics.distortionK1)
        let sigma = try #require(unstated.statistics.distortionK1Sigma)
        #expect(abs(k1 + 0.1) < 0.01, "k1 \(k1) ± \(sigma)")
        #expect(sigma > 0 && sigma < 0.02)
    }
}

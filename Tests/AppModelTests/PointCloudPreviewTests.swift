import AppModel
import Feedback
import Geometry
import Imaging
import Markers
import Recording
import Testing

/// Frames made by hand: a flat wall at a known depth, with holes and a colour gradient.
enum Wall {
    static let camera = CameraIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)

    /// A `width` x `height` frame (640x480 unless given) of a wall `depth` metres away whose
    /// every pixel with x divisible by 7 is a hole; red grows with x, green with y.
    static func frame(width: Int = 640, height: Int = 480, depth: Float = 0.4, colourScale: Int = 1) -> RGBDFrame {
        var z = DepthImage(width: width, height: height, repeating: depth)
        for y in 0..<height { for x in stride(from: 0, to: width, by: 7) { z[x, y] = .nan } }
        let cw = width * colourScale, ch = height * colourScale
        var colour = RGBAImage(width: cw, height: ch, repeating: RGBA8(gray: 0))
        for y in 0..<ch { for x in 0..<cw { colour[x, y] = RGBA8(r: UInt8(x * 255 / cw), g: UInt8(y * 255 / ch), b: 7) } }
        let depthCamera = camera.scaled(toWidth: width, height: height)
        return RGBDFrame(
            timestamp: 0, color: colour, depth: z, colorIntrinsics: camera.scaled(toWidth: cw, height: ch), depthIntrinsics: depthCamera)
    }

    /// A marker whose corners surround `centre`, `side` pixels wide.
    static func marker(_ id: Int, at centre: SIMD2<Double>, side: Double = 20) -> DetectedMarker {
        let h = side / 2
        return DetectedMarker(id: id, corners: [centre + [-h, -h], centre + [h, -h], centre + [h, h], centre + [-h, h]])
    }
}

struct PointCloudPreviewTests {
    @Test func keepsEveryNthDepthPixelWithADepthWithinTheBudget() {
        let frame = Wall.frame()
        let cloud = PointCloudPreview(frame: frame, detected: [], states: [], maxPoints: 3000)
        let step = PointCloudPreview.step(width: 640, height: 480, maxPoints: 3000)
        #expect(step == 11)
        let columns = Array(stride(from: step / 2, to: 640, by: step))
        let rows = Array(stride(from: step / 2, to: 480, by: step))
        let kept = columns.filter { $0 % 7 != 0 }
        #expect(cloud.points.count == kept.count * rows.count)
        #expect(cloud.points.count <= 3000 && cloud.colours.count == cloud.points.count)
        // The first kept point: row step/2, the first column without a hole, lifted through the camera.
        let x = kept[0], y = rows[0]
        let expected = Wall.camera.unproject(SIMD2(Double(x), Double(y)), depth: 0.4)
        #expect(abs(Double(cloud.points[0].x) - expected.x) < 1e-6 && abs(Double(cloud.points[0].y) - expected.y) < 1e-6)
        #expect(cloud.points.allSatisfy { $0.z == 0.4 })
        #expect(cloud.colours[0] == SIMD3(UInt8(x * 255 / 640), UInt8(y * 255 / 480), 7))
        #expect(abs(cloud.spacing - Double(step)) < 1e-9 && cloud.camera == Wall.camera)
    }

    @Test func theBudgetHoldsForAnySize() {
        for (w, h, budget) in [(640, 480, 3000), (640, 480, 100), (320, 240, 5000), (7, 5, 1), (1, 1, 10), (641, 479, 2500)] {
            let step = PointCloudPreview.step(width: w, height: h, maxPoints: budget)
            let cells = stride(from: step / 2, to: w, by: step).underestimatedCount * stride(from: step / 2, to: h, by: step).underestimatedCount
            #expect(cells <= budget, "\(w)x\(h) budget \(budget): step \(step) keeps \(cells)")
            // And no smaller step would have kept within it.
            if step > 1 {
                let s = step - 1
                let finer = stride(from: s / 2, to: w, by: s).underestimatedCount * stride(from: s / 2, to: h, by: s).underestimatedCount
                #expect(finer > budget)
            }
        }
    }

    /// TrueDepth's colour picture can be larger than its depth map: colours come from the
    /// colour pixel over each depth pixel, and the camera is the colour picture's.
    @Test func coloursComeFromTheMatchingPixelOfALargerPicture() {
        let frame = Wall.frame(width: 320, height: 240, colourScale: 2)
        let cloud = PointCloudPreview(frame: frame, detected: [], states: [], maxPoints: 1000)
        let step = PointCloudPreview.step(width: 320, height: 240, maxPoints: 1000)
        let x = stride(from: step / 2, to: 320, by: step).first { $0 % 7 != 0 }!, y = step / 2
        // The depth pixel's centre lies between two colour pixels on each axis; either is right.
        let c = cloud.colours[0]
        #expect([2 * x, 2 * x + 1].map { UInt8($0 * 255 / 640) }.contains(c.x))
        #expect([2 * y, 2 * y + 1].map { UInt8($0 * 255 / 480) }.contains(c.y))
        #expect(cloud.camera.width == 640 && abs(cloud.spacing - 2 * Double(step)) < 1e-9)
    }

    @Test func markersSitOnTheSurfaceInTheirStates() throws {
        var frame = Wall.frame()
        // A marker where the sensor gave no depth at all (too close): it keeps the cloud's depth.
        for y in 190...210 { for x in 490...510 { frame.depth[x, y] = .nan } }
        let detected = [Wall.marker(3, at: [101, 101]), Wall.marker(9, at: [500, 200]), Wall.marker(44, at: [300, 300])]
        let states: [(id: Int, state: MarkerState)] = [(3, .green), (9, .red), (12, .blue)]
        let cloud = PointCloudPreview(frame: frame, detected: detected, states: states)
        #expect(cloud.markers.map(\.id) == [3, 9, 12])
        #expect(cloud.markers.map(\.state) == [.green, .red, .blue])
        let green = try #require(cloud.markers[0].position)
        let expected = Wall.camera.unproject([101, 101], depth: 0.4)
        #expect(abs(Double(green.x) - expected.x) < 1e-6 && abs(Double(green.y) - expected.y) < 1e-6 && green.z == 0.4)
        #expect(cloud.markers[1].position?.z == 0.4)
        #expect(cloud.markers[2].position == nil)  // blue: not in this frame
        #expect(cloud.count(.green) == 1 && cloud.count(.red) == 1 && cloud.count(.blue) == 1)
    }

    /// Zero, negative and infinite depths are no depth either: none becomes a point.
    @Test func onlyPositiveFiniteDepthsBecomePoints() {
        var frame = Wall.frame(width: 64, height: 48)
        let values: [Float] = [0, -0.2, .infinity, .nan, 0.5]
        for y in 0..<48 { for x in 0..<64 { frame.depth[x, y] = values[(x + y) % values.count] } }
        let cloud = PointCloudPreview(frame: frame, detected: [], states: [], maxPoints: 64 * 48)
        #expect(!cloud.points.isEmpty && cloud.points.allSatisfy { $0.z == 0.5 })
        var positive = 0
        for y in 0..<48 { for x in 0..<64 where (x + y) % values.count == 4 { positive += 1 } }
        #expect(cloud.points.count == positive)
    }

    @Test func aFrameWithoutDepthGivesAnEmptyCloudAndUnplacedMarkers() {
        var frame = Wall.frame(width: 64, height: 48)
        frame.depth = DepthImage(width: 64, height: 48, repeating: .nan)
        let cloud = PointCloudPreview(frame: frame, detected: [Wall.marker(1, at: [20, 20], side: 6)], states: [(1, .red)])
        #expect(cloud.points.isEmpty && cloud.markers == [CloudMarker(id: 1, state: .red, position: nil)])
    }
}

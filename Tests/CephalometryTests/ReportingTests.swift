import Foundation
import Geometry
import Imaging
import Recording
import Testing

@testable import Cephalometry

@Suite("Calliper, trend, lifting, SVG")
struct ReportingTests {
    @Test("calliper values give their own CVAI and CI and the differences to 3D")
    func calliper() throws {
        let measured = HeadMeasurement(diagonalA: 0.150, diagonalB: 0.140, length: 0.150, width: 0.120, perimeter: 0.440)
        let hand = CalliperMeasurements(lengthMM: 148, widthMM: 121, diagonalAMM: 149, diagonalBMM: 141, circumferenceMM: 438)
        let c = try CalliperComparison(measured, calliper: hand)
        #expect(abs(c.calliperCVAI - 8 / 149 * 100) < 1e-9)
        #expect(abs(c.calliperCI - 121 / 148 * 100) < 1e-9)
        #expect(abs(c.lengthDifferenceMM - 2) < 1e-9)
        #expect(abs(c.diagonalADifferenceMM - 1) < 1e-9)
        #expect(abs((c.circumferenceDifferenceMM ?? 0) - 2) < 1e-9)
        #expect(c.severityAgrees == (c.calliperSeverityLevel == .level3))
        let centimetres = CalliperMeasurements(lengthMM: 14.8, widthMM: 12.1, diagonalAMM: 14.9, diagonalBMM: 14.1)
        #expect(throws: CephalometryError.self) { try CalliperComparison(measured, calliper: centimetres) }
    }

    @Test("the visit trend is the least-squares change per week")
    func trend() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let week = 7 * 24 * 3600.0
        // CVAI falls 0.5 points a week under a helmet; B grows 1 mm a week.
        let visits = (0..<4).map { k in
            Visit(
                date: start + Double(k) * 2 * week,
                measurement: HeadMeasurement(
                    diagonalA: 0.140, diagonalB: 0.130 + Double(k) * 0.002, length: 0.14, width: 0.115, perimeter: 0.43))
        }
        let trend = try VisitTrend(visits.reversed())
        #expect(abs(trend.diagonalBMMPerWeek - 1) < 1e-9)
        #expect(abs(trend.diagonalAMMPerWeek) < 1e-9)
        #expect(trend.cvaiPerWeek < -0.6 && trend.cvaiPerWeek > -0.8)
        #expect(abs(trend.spanWeeks - 6) < 1e-9)
        #expect(trend.firstSeverity > trend.lastSeverity)
        #expect(throws: CephalometryError.self) { try VisitTrend([visits[0]]) }
        #expect(throws: CephalometryError.self) { try VisitTrend([visits[0], visits[0]]) }
    }

    /// A frame looking at a wall 0.5 m away, colour at twice the depth resolution.
    func wallFrame(depth: (Int, Int) -> Float) -> RGBDFrame {
        let colour = CameraIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5, width: 640, height: 480)
        let depthK = colour.scaled(toWidth: 320, height: 240)
        let pixels = (0..<(320 * 240)).map { depth($0 % 320, $0 / 320) }
        return RGBDFrame(
            timestamp: 0, color: RGBAImage(width: 640, height: 480, repeating: RGBA8(r: 0, g: 0, b: 0, a: 255)),
            depth: DepthImage(width: 320, height: 240, pixels: pixels), colorIntrinsics: colour, depthIntrinsics: depthK)
    }

    @Test("a pick lifts to 3D through the frame's depth and pose; a hole in the depth is bridged along the ray by the mesh")
    func lifting() throws {
        let pose = RigidTransform(rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(0.1, 0.2, 0.3))
        let pixel = SIMD2(419.5, 139.5)
        let expected = pose.apply(CameraIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5, width: 640, height: 480).unproject(pixel, depth: 0.5))
        // The wall at 0.5 m as a mesh, in the mesh's frame.
        let corners = [SIMD3(-1.0, -1, 0.5), SIMD3(1, -1, 0.5), SIMD3(1, 1, 0.5), SIMD3(-1, 1, 0.5)].map(pose.apply)
        let wall = TriangleMesh(vertices: corners, faces: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
        let clean = try HeadLandmarks.lift(pixel: pixel, in: wallFrame { _, _ in 0.5 }, meshFromCamera: pose, mesh: wall)
        #expect(length(clean.point - expected) < 1e-6)
        #expect(clean.method == .depth)
        #expect(clean.residual! < 1e-6)
        // A small hole right at the pixel: the valid depths around it stand in.
        let small = wallFrame { x, y in abs(x - 209) <= 1 && abs(y - 69) <= 1 ? .nan : 0.5 }
        let filled = try HeadLandmarks.lift(pixel: pixel, in: small, meshFromCamera: pose, mesh: wall)
        #expect(length(filled.point - expected) < 1e-6)
        #expect(filled.method == .nearbyDepth)
        // A wider hole: the pixel's ray meets the mesh at the same point.
        let holed = wallFrame { x, y in abs(x - 209) <= 6 && abs(y - 69) <= 6 ? .nan : 0.5 }
        let bridged = try HeadLandmarks.lift(pixel: pixel, in: holed, meshFromCamera: pose, mesh: wall)
        #expect(length(bridged.point - expected) < 1e-9)
        #expect(bridged.method == .meshRay)
        // Without a mesh a hole cannot be bridged; outside the picture nothing can be lifted.
        #expect(throws: CephalometryError.self) { try HeadLandmarks.lift(pixel: pixel, in: holed, meshFromCamera: pose) }
        #expect(throws: CephalometryError.self) {
            try HeadLandmarks.lift(pixel: SIMD2(-40, 10), in: wallFrame { _, _ in 0.5 }, meshFromCamera: pose, mesh: wall)
        }
    }

    @Test("the SVG draws the outline, both diagonals, the axes and the values")
    func svg() throws {
        let head = AnalyticHead(halfWidth: 0.058, halfLength: 0.071, shear: 0.1)
        let slice = try Cephalometer.measure(head.mesh(rings: 40), landmarks: head.landmarks)
        let svg = SliceSVG.render(slice)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("<polygon"))
        #expect(svg.components(separatedBy: "<line").count - 1 == 4)
        #expect(svg.contains("CVAI \(String(format: "%.2f", slice.measurement.cvai)) %"))
        #expect(svg.contains("CHOA level \(slice.measurement.severityLevel.rawValue)"))
    }
}

import Foundation
import Geometry
import Imaging
import Markers
import Reconstruction
import Recording
import Testing

@testable import Processing

/// A reconstruction whose cap slid on the head keeps where the cap lay after the slide, so a
/// landmark picked on a frame after it is placed on the head, and one picked while the cap
/// moved is refused with the reason.
@Suite("A slid cap in the stored reconstruction")
struct CapSlideRecordTests {
    static let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)

    static func record() -> ReconstructionRecord {
        var statistics = ReconstructionStatistics()
        statistics.capSlide = CapSlide(
            startSeconds: 3, endSeconds: 5, startFrame: 90, endFrame: 150, millimetres: 9, degrees: 7, keyframesSetAside: 4,
            keyframesMoved: 20, onSurfaceByMarkers: 0.4, onSurfaceByHead: 0.8)
        let corners = [SIMD3(0.01, 0.0, 0.07), SIMD3(0.02, 0.0, 0.07), SIMD3(0.02, 0.01, 0.07), SIMD3(0.01, 0.01, 0.07)]
        var record = ReconstructionRecord(
            scan: .init(bytes: 1, modified: 0), capLayout: "standard-57", markers: ["3": corners],
            keyframes: [.init(frame: 120, mapFromCamera: RigidTransform.identity.matrixRowMajor)], statistics: statistics,
            reconstructedAt: Date(timeIntervalSince1970: 0))
        record.markersAfterSlide = ["3": corners.map { $0 + SIMD3(0.005, 0, 0) }]
        return record
    }

    static let grey = RGBDFrame(
        timestamp: 0, color: RGBAImage(width: 160, height: 120, repeating: RGBA8(r: 90, g: 90, b: 90, a: 255)),
        depth: DepthImage(width: 160, height: 120, repeating: 0.3), colorIntrinsics: k, depthIntrinsics: k)

    @Test func theCapAfterTheSlideIsKeptAndReadBack() throws {
        let record = Self.record()
        try record.validate()
        let decoded = try ReconstructionRecord.decode(from: try record.encodedAlone())
        #expect(decoded.markersAfterSlide == record.markersAfterSlide)
        #expect(decoded.statistics.capSlide == record.statistics.capSlide)
        var broken = record
        broken.markersAfterSlide = ["3": [.zero]]
        #expect(throws: (any Error).self) { try broken.validate() }
    }

    @Test func aFrameTakenWhileTheCapMovedIsRefusedAndAKeyframeStillPlaced() throws {
        let locator = try Self.record().locator(layout: .standard)
        #expect(locator.slide?.map.corners[3]?.first == SIMD3(0.015, 0.0, 0.07))
        #expect(throws: ReconstructionError.frameWhileCapSlid(index: 100)) { try locator.locate(Self.grey, index: 100) }
        // Before and after the slide the markers are read (here there are none to read).
        #expect(throws: ReconstructionError.cannotLocateFrame(index: 60, markers: 0)) { try locator.locate(Self.grey, index: 60) }
        #expect(throws: ReconstructionError.cannotLocateFrame(index: 160, markers: 0)) { try locator.locate(Self.grey, index: 160) }
        // A keyframe taken while the cap moved (kept only if the fusion kept it) has its pose.
        #expect(try locator.locate(Self.grey, index: 120).isKeyframe)
    }

    @Test func withoutASlideEveryFrameIsReadOnTheOneMap() throws {
        var record = Self.record()
        record.statistics.capSlide = nil
        let locator = try record.locator(layout: .standard)
        #expect(locator.slide == nil)
        #expect(throws: ReconstructionError.cannotLocateFrame(index: 100, markers: 0)) { try locator.locate(Self.grey, index: 100) }
    }
}

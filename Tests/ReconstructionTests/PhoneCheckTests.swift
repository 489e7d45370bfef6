import Foundation
import Geometry
import Markers
import Testing

@testable import Reconstruction

struct PhoneCheckTests {
    let layout = CapLayout(
        name: "board", dictionaryName: "4x4_100", markerSideMillimetres: 20,
        markers: (0..<12).map { CapMarker(id: $0, region: .front) })

    /// A board map whose markers measure `scale` times their printed 20 mm, each off by a
    /// little (±0.05 %), seen in `keyframes` views with the focal length known to `focalSigma`.
    func reconstruction(
        scale: Double, markers: Int = 12, keyframes: Int = 40, focalSigma: Double = 0.002, corrected: Bool = false
    )
        -> Reconstruction
    {
        var map = MarkerMap()
        for id in 0..<markers {
            let h = 0.01 * scale * (1 + 0.0005 * (id % 2 == 0 ? 1 : -1))
            let c = SIMD3(0.025 * Double(id % 4), 0.025 * Double(id / 4), 0.3)
            map.corners[id] = [SIMD3(-h, h, 0), SIMD3(h, h, 0), SIMD3(h, -h, 0), SIMD3(-h, -h, 0)].map { $0 + c }
        }
        var stats = ReconstructionStatistics()
        stats.keyframes = keyframes
        stats.focalScale = corrected ? 1.06 : 1.002
        stats.focalScaleSigma = focalSigma
        stats.focalScaleApplied = corrected ? 1.06 : nil
        let recorded = CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        return Reconstruction(
            map: map, keyframes: [], mesh: TriangleMesh(), region: FusionRegion(centre: .zero, radius: 0), statistics: stats,
            camera: stats.camera(recorded: recorded))
    }

    @Test(arguments: [(1.0, PhoneCheck.Verdict.pass), (1.004, .pass), (0.996, .pass), (1.006, .fail), (0.99, .fail)])
    func theVerdictFollowsTheBoardsMeasuredSize(scale: Double, verdict: PhoneCheck.Verdict) {
        let check = PhoneCheck(reconstruction(scale: scale), layout: layout)
        #expect(check.verdict == verdict)
        #expect(abs(check.scale - scale) < 1e-9)
        #expect(check.scaleSigma > 0 && check.scaleSigma < 0.0002)
    }

    @Test func theWordsSayWhatToDo() {
        let failed = PhoneCheck(reconstruction(scale: 1.013), layout: layout).summary
        #expect(failed.hasPrefix("Fail: this phone measures the printed board 1.30 % too large"))
        #expect(failed.contains("printed at 100 %") && failed.contains("20.0 mm"))
        let corrected = PhoneCheck(reconstruction(scale: 1, corrected: true), layout: layout).summary
        #expect(corrected.hasPrefix("Pass") && corrected.contains("6.00 % off; HeadScan corrects for it"))
    }

    /// A board that comes out right while depth and colour disagree (a focal estimate refused)
    /// is luck at that distance: the phone fails, and the words say why.
    @Test func depthAndColourDisagreeingFailsWhateverTheBoardsSize() {
        var r = reconstruction(scale: 1.004)
        r.statistics.focalCorrectionRefused = "with the estimated focal length the depth would make the markers 2.6 % smaller than printed"
        let check = PhoneCheck(r, layout: layout)
        #expect(check.verdict == .fail)
        #expect(check.summary.hasPrefix("Fail: its depth and its colour camera disagree"))
        #expect(check.summary.contains("Its camera's focal length was not corrected: with the estimated focal length"))
        #expect(PhoneCheck(reconstruction(scale: 1.004), layout: layout).verdict == .pass)
        var large = reconstruction(scale: 1.02)
        large.statistics.focalCorrectionRefused = "depth and colour disagree"
        #expect(PhoneCheck(large, layout: layout).summary.contains("cannot be trusted; this phone measures the printed board 2.00 % too large"))
    }

    /// With printed positions the board is measured by its markers' spacing: corners placed
    /// inside the printed squares (a detector's bias) do not move the centres.
    @Test func printedPositionsMeasureBySpacingNotBySides() {
        var positioned = layout
        for i in positioned.markers.indices {
            let id = positioned.markers[i].id
            positioned.markers[i].boardPosition = BoardPosition(xMillimetres: 25 * Double(id % 4), yMillimetres: 25 * Double(id / 4))
        }
        func shrunkCorners(scale: Double) -> Reconstruction {
            var r = reconstruction(scale: scale)
            for (id, c) in r.map.corners {
                let centre = (c[0] + c[1] + c[2] + c[3]) / 4
                // Centres at `scale` times the printed spacing, squares 1 % small.
                let moved = SIMD3(0.025 * Double(id % 4), 0.025 * Double(id / 4), 0) * scale + SIMD3(0, 0, 0.3)
                r.map.corners[id] = c.map { moved + ($0 - centre) * 0.99 }
            }
            return r
        }
        let spacing = PhoneCheck(shrunkCorners(scale: 1.002), layout: positioned)
        #expect(spacing.measuredBy == "marker spacing" && spacing.verdict == .pass && abs(spacing.scale - 1.002) < 1e-9)
        #expect(PhoneCheck(shrunkCorners(scale: 1.002), layout: layout).verdict == .fail)  // by sides: 0.8 % small
        #expect(PhoneCheck(shrunkCorners(scale: 1.007), layout: positioned).verdict == .fail)
    }

    /// The words end with what set the scale: a board's markers set it as a cap's do.
    @Test func theWordsSayWhatSetTheScale() {
        var r = reconstruction(scale: 1.001)
        r.statistics.printedScale = PrintedScale(ratio: 1.0076, ratioSigma: 0.0002, markers: 12)
        let check = PhoneCheck(r, layout: layout)
        #expect(check.verdict == .pass && check.printedScale == r.statistics.printedScale)
        let words =
            "Its scale: set by the stickers' printed size: through the depth they measured 0.76 % larger than printed "
            + "(± 0.02 %, 12 stickers), and the scan was scaled to the print."
        #expect(check.summary.hasSuffix(words))
    }

    @Test func tooLittleToJudgeIsSaid() {
        for r in [reconstruction(scale: 1, markers: 3), reconstruction(scale: 1, keyframes: 2), reconstruction(scale: 1, focalSigma: 0.02)] {
            let check = PhoneCheck(r, layout: layout)
            #expect(check.verdict == .inconclusive)
            #expect(check.summary.contains("tilt the phone slowly"))
        }
    }
}

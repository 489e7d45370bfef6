import Geometry
import Reconstruction
import Recording
import Testing

@testable import Evaluation

@Suite("What reconstruct writes for other tools")
struct ReconstructionExportTests {
    /// The poses file's depth camera is the one the fusion read with: the recorded one with
    /// the applied focal scale and the principal point's shift, the shift scaled to the depth
    /// picture (here half the colour picture's width).
    @Test func thePosesFileCarriesTheCorrectedDepthCamera() {
        let depth = CameraIntrinsics(fx: 300, fy: 300, cx: 160, cy: 120, width: 320, height: 240)
        var settled = SettledCamera(recorded: CameraIntrinsics(fx: 600, fy: 600, cx: 320, cy: 240, width: 640, height: 480))
        #expect(ReconstructionExport.fusedDepthCamera(recordedDepth: depth, colorWidth: 640, settled: settled) == depth)
        settled.focalScale = 1.03
        settled.focalScaleApplied = 1.03
        settled.principalShift = SIMD2(4, -2)
        let k = ReconstructionExport.fusedDepthCamera(recordedDepth: depth, colorWidth: 640, settled: settled)
        #expect(abs(k.fx - 309) < 1e-9 && abs(k.fy - 309) < 1e-9)
        #expect(abs(k.cx - 162) < 1e-9 && abs(k.cy - 119) < 1e-9)
        // An estimate that was not applied leaves the focal length as recorded.
        settled.focalScaleApplied = nil
        #expect(abs(ReconstructionExport.fusedDepthCamera(recordedDepth: depth, colorWidth: 640, settled: settled).fx - 300) < 1e-9)
    }
}

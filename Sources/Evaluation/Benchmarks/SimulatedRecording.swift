import Foundation
import Recording
import ScanLibrary
import Simulation

/// A simulated scan recorded into a new session of `library`, as a benchmark trial needs it:
/// every frame written, the frames' truth kept.
enum SimulatedRecording {
    /// The fixed date trials record under (their figures must not depend on the clock).
    static let date = Date(timeIntervalSince1970: 1_767_225_600)

    static func record(_ simulator: Simulator, into library: ScanLibrary, device: String) throws -> (ScanSession, [FrameTruth]) {
        let session = try library.createSession(date: date)
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(
            url: session.scanURL,
            header: ScanHeader(
                device: device, appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
                layout: simulator.configuration.layout, createdAt: date))
        var frames: [FrameTruth] = []
        while let simulated = simulator.nextFrame() {
            try writer.append(simulated.frame)
            frames.append(simulated.truth)
        }
        try writer.close()
        return (session, frames)
    }
}

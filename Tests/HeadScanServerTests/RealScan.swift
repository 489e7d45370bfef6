import Foundation
import HeadScanTesting
import Processing

/// One session with a real (simulated) recording and landmark picks, made once per test run
/// and shared read-only by the tests that need a recording: simulating is the slow part in a
/// debug build. Twelve frames around the head (0.4 s of the scan's orbit) are enough for the
/// whole pipeline.
enum RealScan {
    static let fixture: Result<SimulatedSessionFixture, any Error> = {
        let made = Result { try SimulatedSessionFixture(patientID: 41, seconds: 0.4, seed: 1, cvai: 8) }
        atexit { try? RealScan.fixture.get().remove() }
        return made
    }()

    static func session() throws -> SimulatedSessionFixture { try fixture.get() }

    /// Processing as `headscan process` runs it, on a coarser volume (2.5 mm) with fewer
    /// bundle-adjustment iterations: the small scan is measured in seconds, and every stage
    /// still runs.
    static var quickProcessing: ProcessingOptions {
        var options = ProcessingOptions()
        options.reconstruction.frameStride = 1
        options.reconstruction.voxelSize = 0.0025
        options.reconstruction.truncation = 0.0075
        options.reconstruction.bundleIterations = 6
        options.reconstruction.jointBundleIterations = 3
        return options
    }
}

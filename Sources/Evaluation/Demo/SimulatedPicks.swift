import Cephalometry
import Foundation
import Recording
import ScanLibrary
import Simulation

/// The picks of a simulated therapist, as the replay would save them.
public enum SimulatedPicks {
    public static func annotations(_ simulator: Simulator, frames: [FrameTruth], scan: URL, seed: UInt64) throws -> AnnotationsRecord {
        let reader = try ScanReader(url: scan)
        let picks = SimulatedAnnotator(seed: seed).picks(
            landmarks: simulator.landmarks, truth: frames, intrinsics: simulator.configuration.intrinsics,
            depth: { try? reader.frame(at: $0).depth })
        var annotations = AnnotationsRecord(savedAt: Date())
        for pick in picks {
            guard let landmark = Landmark(rawValue: pick.landmark) else { continue }
            annotations.pick(landmark, frameIndex: pick.frameIndex, pixel: pick.pixel)
        }
        return annotations
    }
}

extension ScanLibrary {
    /// The smallest patient ID no session uses, as the demo's new patient.
    public func nextFreePatientID() throws -> Int {
        let used = Set(try usedPatientIDs())
        return (1...).first { !used.contains($0) } ?? 1
    }
}

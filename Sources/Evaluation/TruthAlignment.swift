import Geometry
import Processing
import ScanLibrary
import Simulation

/// The reconstruction set against the simulator's truth: its marker map fitted rigidly onto
/// the true cap's sticker corners. The mesh and the map share one frame, so the same fit
/// carries found landmarks into the true head frame.
public enum TruthAlignment {
    /// The rigid fit from the session's reconstructed marker map onto the simulated cap, or nil
    /// when the session has no reconstruction record.
    public static func mapOntoCap(session: ScanSession, library: ScanLibrary, simulator: Simulator) throws -> RigidAlignment.Fit? {
        guard let record = try library.document(ReconstructionRecord.self, in: session) else { return nil }
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = []
        for sticker in simulator.cap.stickers {
            guard let mapped = record.map.corners[sticker.id] else { continue }
            source += mapped
            target += sticker.corners
        }
        return try RigidAlignment.fit(from: source, to: target)
    }

    /// The reconstructed marker map against the simulated cap after rigid alignment, mm RMS;
    /// NaN without a reconstruction.
    public static func markerMapError(session: ScanSession, library: ScanLibrary, simulator: Simulator) throws -> Double {
        guard let fit = try mapOntoCap(session: session, library: library, simulator: simulator) else { return .nan }
        return fit.rms * 1000
    }
}

import Cephalometry
import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Simulation

/// One simulated scan processed with automatic landmarks and with simulated picks; in the
/// output, one entry of `perHead`.
public struct LandmarkTrial: Codable {
    public var scenario: String
    public var trueCVAI: Double
    /// Distance of each found landmark from the truth, mm (nil: not found).
    public var errorsMM: [String: Double]
    /// The same errors as vectors in the true head frame (x right, y forward, z up), mm.
    public var offsetsMM: [String: [Double]]
    public var cvaiAutomatic: Double?
    public var cvaiPicks: Double?
    /// CVAI of the same reconstruction measured with the true landmarks: what landmarks alone cannot improve.
    public var cvaiTrueLandmarks: Double?
    /// CVAI's 95 % intervals as processing stated them, with found landmarks and with picks.
    public var cvaiIntervalAutomatic: ValueInterval?
    public var cvaiIntervalPicks: ValueInterval?
    public var failure: String?
    public var confidences: [String: Double]

    /// A head the benchmark draws: length 120–160 mm, cranial index 72–98, CVAI 0–15 %, either
    /// side flat, ears of every size.
    ///
    /// `ears`: `.clay`, the simulator's standard ear (its relief never below the skin), or
    /// `.sunk`, the same head with a real ear's depth: the concha 3–6 mm below the skin and the
    /// tragus only 1.8–3 mm out (drawn from a stream of their own, so that every other figure of
    /// the head, and the heads after it, are the same as with clay ears).
    public static func drawHead(_ random: inout SplitMix64, ears kind: EarKind = .clay) -> HeadParameters {
        var head = HeadParameters(
            lengthMM: random.uniform(120...160), cranialIndex: random.uniform(72...98), cvai: random.uniform(0...15),
            flatSide: random.unit() < 0.5 ? .left : .right,
            ears: EarShape(scale: random.uniform(0.85...1.2), tiltDegrees: random.uniform(5...30), protrusionDegrees: random.uniform(10...35)))
        if kind == .sunk {
            var own = SplitMix64(seed: head.ears.scale.bitPattern ^ head.ears.tiltDegrees.bitPattern ^ 0xEA25)
            head.ears.conchaDepthMM = own.uniform(3...6)
            head.ears.tragusHeightMM = own.uniform(1.8...3)
        }
        return head
    }

    /// The ears a benchmark draws on its heads.
    public enum EarKind: String, Sendable, Codable, CaseIterable {
        /// The simulator's standard ear: tragus 4.5 mm out, no bowl below the skin.
        case clay
        /// A real ear's depth: a concha sunk 3–6 mm, a tragus 1.8–3 mm out.
        case sunk
    }

    public static func run(head: HeadParameters, scenario: Scenario, seed: UInt64, seconds: Double, keep: URL? = nil) throws -> LandmarkTrial {
        let folder = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-landmarks-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let library = ScanLibrary(root: folder)
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds, head: head))
        let (session, frames) = try SimulatedRecording.record(simulator, into: library, device: "simulator (bench landmarks)")

        var trial = LandmarkTrial(simulator: simulator, scenario: scenario)
        trial.measureAutomatic(library: library, session: session, simulator: simulator)
        let picks = try SimulatedPicks.annotations(simulator, frames: frames, scan: session.scanURL, seed: seed)
        if picks.isComplete {
            try library.saveAnnotations(picks, in: session)
            trial.measurePicks(library: library, session: session)
        }
        return trial
    }

    /// The scan kept in `kept` by an earlier run, measured again from its stored
    /// reconstruction: without picks, then with the picks it kept.
    public static func remeasure(head: HeadParameters, scenario: Scenario, seed: UInt64, seconds: Double, kept: URL) throws -> LandmarkTrial {
        let library = ScanLibrary(root: kept)
        guard FileManager.default.fileExists(atPath: kept.path), let session = try library.list().entries.first?.session else {
            throw EvaluationError("no kept scan in \(kept.path): keep the scans first with --keep and the same heads, seed and seconds")
        }
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds, head: head))
        let picks = try library.annotations(in: session)
        if picks != nil { try FileManager.default.removeItem(at: session.annotationsURL) }
        var trial = LandmarkTrial(simulator: simulator, scenario: scenario)
        trial.measureAutomatic(library: library, session: session, simulator: simulator)
        if let picks {
            try library.saveAnnotations(picks, in: session)
            trial.measurePicks(library: library, session: session)
        }
        return trial
    }

    private init(simulator: Simulator, scenario: Scenario) {
        self.scenario = scenario.rawValue
        trueCVAI = simulator.measurements.cvai
        errorsMM = [:]
        offsetsMM = [:]
        confidences = [:]
    }

    /// Processes the session without picks and compares the landmarks found with the truth.
    private mutating func measureAutomatic(library: ScanLibrary, session: ScanSession, simulator: Simulator) {
        let processor = SessionProcessor(library: library)
        do {
            let result = try processor.process(session)
            cvaiAutomatic = result.measurement.cvai
            cvaiIntervalAutomatic = result.measurement.intervals?.cvai
            if let found = result.automatic {
                let headFromMesh = try Self.headFromMeshTransform(library: library, session: session, simulator: simulator)
                let truth = simulator.landmarks
                let meshFromHead = headFromMesh.inverse
                if let data = try? Data(contentsOf: session.meshURL), let mesh = try? PLY.decode([UInt8](data)) {
                    cvaiTrueLandmarks = try? Cephalometer.measure(mesh, landmarks: truth.transformed(by: meshFromHead)).measurement.cvai
                }
                for landmark in Landmark.allCases {
                    let name = landmark.rawValue, d = found[landmark]
                    let offset = (headFromMesh.apply(d.point) - truth[landmark]) * 1000
                    errorsMM[name] = length(offset)
                    offsetsMM[name] = [offset.x, offset.y, offset.z]
                    confidences[name] = d.confidence
                }
            }
        } catch {
            failure = "\(error)"
        }
    }

    /// Processes the session with its picks.
    private mutating func measurePicks(library: ScanLibrary, session: ScanSession) {
        let measurement = (try? SessionProcessor(library: library).process(session))?.measurement
        cvaiPicks = measurement?.cvai
        cvaiIntervalPicks = measurement?.intervals?.cvai
    }

    /// The rigid transform that puts the reconstruction's marker map onto the true cap.
    public static func headFromMeshTransform(library: ScanLibrary, session: ScanSession, simulator: Simulator) throws -> RigidTransform {
        guard let fit = try TruthAlignment.mapOntoCap(session: session, library: library, simulator: simulator) else {
            throw EvaluationError("no reconstruction record")
        }
        return fit.transform
    }
}

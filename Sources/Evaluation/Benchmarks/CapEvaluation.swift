import Cephalometry
import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Simulation

/// A cap that sits badly, as one benchmark case: a name and the fit it makes.
public struct CapCondition: Sendable, Equatable {
    public var name: String
    public var fit: CapFit

    public init(name: String, fit: CapFit) {
        self.name = name
        self.fit = fit
    }

    /// The field test's problems the simulator makes, and the perfect cap beside them.
    public static let all: [CapCondition] = [
        CapCondition(name: "perfect", fit: .perfect),
        CapCondition(name: "hair-3mm", fit: CapFit(hairMillimetres: 3)),
        CapCondition(name: "rides-up", fit: CapFit(ridesUp: true)),
        CapCondition(name: "third-lost", fit: CapFit(lostShare: 1.0 / 3)),
        CapCondition(name: "third-damaged", fit: CapFit(damagedShare: 1.0 / 3)),
        CapCondition(name: "slides", fit: CapFit(slideDegrees: 8)),
        CapCondition(name: "stretches", fit: CapFit(stretchMillimetres: 3)),
    ]
}

/// One simulated scan under a cap condition, processed as `headscan process` does without
/// picks, against the truth: CVAI and the skull surface, or the refusal's words.
public struct CapTrial: Codable, Sendable {
    public var condition: String
    public var scenario: String
    public var seed: UInt64
    public var trueCVAI: Double
    public var cvai: Double?
    /// Mean distance of the reconstructed surface under the cap from the true skull, mm.
    public var surfaceMeanMM: Double?
    /// Why the scan was not measured, in the words the therapist would read.
    public var refusal: String?
    /// When the simulated cap started to slide, seconds.
    public var capSlideStartSeconds: Double?
    /// A slide the reconstruction found and undid: when it began (seconds) and how far the
    /// head lay from the cap's markers after it (millimetres on a head-sized sphere).
    public var slideFoundAtSeconds: Double?
    public var slideFoundMillimetres: Double?
    /// A slide the reconstruction saw too faintly to undo, reported as a doubt: when.
    public var slideDoubtAtSeconds: Double?
    /// How far the cap stood off the skin at its lower edge, as processing found it, mm.
    public var capStandOffMM: Double?
    /// A scan refused for a cap lifted off the skin, measured anyway: its CVAI.
    public var cvaiOverLiftedCap: Double?

    public var cvaiError: Double? { cvai.map { abs($0 - trueCVAI) } }

    public init(
        condition: String, scenario: String, seed: UInt64, trueCVAI: Double, cvai: Double? = nil, surfaceMeanMM: Double? = nil,
        refusal: String? = nil
    ) {
        self.condition = condition
        self.scenario = scenario
        self.seed = seed
        self.trueCVAI = trueCVAI
        self.cvai = cvai
        self.surfaceMeanMM = surfaceMeanMM
        self.refusal = refusal
    }

    /// Simulates, reconstructs and measures one scan; with `kept`, the scan library it made is
    /// left in a folder there named after the condition, scenario and seed.
    public static func run(
        condition: CapCondition, scenario: Scenario, seed: UInt64, head: HeadParameters, seconds: Double,
        processing: ProcessingOptions = .init(), keepingIn kept: URL? = nil, reusing: Bool = false
    ) throws -> CapTrial {
        let folder =
            kept?.appendingPathComponent("\(condition.name)-\(scenario.rawValue)-\(seed)")
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-cap-\(UUID().uuidString)")
        defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }
        let library = ScanLibrary(root: folder)
        var configuration = Simulator.Configuration(scenario: scenario, seed: seed, seconds: seconds, head: head)
        configuration.capFit = condition.fit
        let simulator = try Simulator(configuration)
        let session: ScanSession
        let slideStart: Double?
        if reusing, kept != nil, let earlier = try? keptSession(in: library) {
            // The scan kept by an earlier run: processed again, not simulated again.
            session = earlier
            slideStart = try? keptSlideStart(session)
        } else {
            let (recorded, frames) = try SimulatedRecording.record(simulator, into: library, device: "simulator (bench cap)")
            session = recorded
            slideStart = frames.first { ($0.capTurnDegrees ?? 0) > 0 }?.timestamp
            if kept != nil { try keepTruth(simulator, frames: frames, in: session) }
        }
        var trial = CapTrial(
            condition: condition.name, scenario: scenario.rawValue, seed: seed, trueCVAI: simulator.measurements.cvai)
        trial.capSlideStartSeconds = slideStart
        do {
            // Measured over a lifted cap too, so that a refusal for one shows what it saved.
            var anyway = processing
            anyway.measuresOverLiftedCap = true
            anyway.forceReconstruction = true
            let result = try SessionProcessor(library: library, options: anyway).process(session)
            trial.capStandOffMM = result.capStandOff.map { $0.largest * 1000 }
            if let standOff = result.capStandOff, standOff.liftedByHair, !processing.measuresOverLiftedCap {
                trial.refusal = ProcessingError.capLifted(standOff).description
                trial.cvaiOverLiftedCap = result.measurement.cvai
            } else {
                trial.cvai = result.measurement.cvai
            }
            trial.surfaceMeanMM = try surfaceError(session: session, library: library, simulator: simulator)
            if let record = try? library.document(ReconstructionRecord.self, in: session) {
                trial.slideFoundAtSeconds = record.statistics.capSlide?.startSeconds
                trial.slideFoundMillimetres = record.statistics.capSlide?.millimetres
                trial.slideDoubtAtSeconds = record.statistics.capSlideDoubt?.startSeconds
            }
        } catch {
            trial.refusal = "\(error)"
        }
        return trial
    }

    /// The session a run with `keepingIn` left in `library`, when it has its recording and truth.
    static func keptSession(in library: ScanLibrary) throws -> ScanSession? {
        let name = try SessionName(id: SessionName.temporaryID, date: SimulatedRecording.date, timeZone: library.timeZone)
        let session = ScanSession(name: name, root: library.root)
        let truth = session.url.appendingPathComponent("truth.json")
        guard FileManager.default.fileExists(atPath: session.scanURL.path), FileManager.default.fileExists(atPath: truth.path) else {
            return nil
        }
        return session
    }

    /// When the kept scan's cap started to slide, from its truth.
    static func keptSlideStart(_ session: ScanSession) throws -> Double? {
        let data = try Data(contentsOf: session.url.appendingPathComponent("truth.json"))
        return try JSONDecoder().decode(ScanTruth.self, from: data).frames.first { ($0.capTurnDegrees ?? 0) > 0 }?.timestamp
    }

    /// The truth beside a kept scan, as `headscan simulate --library` writes it.
    static func keepTruth(_ simulator: Simulator, frames: [FrameTruth], in session: ScanSession) throws {
        let url = session.url.appendingPathComponent("truth.json")
        let meshURL = url.deletingPathExtension().appendingPathExtension("ply")
        try Data(PLY.encode(simulator.mesh, comment: "HeadScan simulated head, metres, head frame")).write(to: meshURL)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(simulator.truth(frames: frames, meshFile: meshURL.lastPathComponent)).write(to: url)
    }

    /// The reconstructed surface above the cap's edge, carried into the head frame by the marker
    /// map's fit onto the cap, against the true skull: the mean distance, mm.
    static func surfaceError(session: ScanSession, library: ScanLibrary, simulator: Simulator) throws -> Double? {
        guard let fit = try TruthAlignment.mapOntoCap(session: session, library: library, simulator: simulator),
            let grid = ClosestPointGrid(simulator.mesh, cellSize: 0.005)
        else { return nil }
        let mesh = try PLY.decode([UInt8](Data(contentsOf: session.meshURL)))
        let distances = mesh.vertices.map(fit.transform.apply).filter { $0.z > Cap.lowerEdge + 0.01 }.compactMap {
            grid.closest(to: $0, maximumDistance: 0.01)?.distance
        }
        return distances.isEmpty ? nil : distances.reduce(0, +) / Double(distances.count) * 1000
    }
}

/// What `bench cap` reports: per condition and scenario, the share of scans measured, their
/// CVAI and surface errors, and every refusal.
public struct CapBenchResult: Encodable {
    public struct Group: Encodable {
        public var condition: String
        public var scenario: String
        public var scans: Int
        public var measured: Int
        public var cvaiErrorMedian: Double?
        public var cvaiErrorMax: Double?
        public var within03: Int
        public var surfaceMeanMM: Double?
        public var surfaceWorstMM: Double?
        /// The cap's stand-off at its edge as processing found it, over every scan, mm.
        public var standOffMedianMM: Double?
        public var standOffMaxMM: Double?
        /// The CVAI errors the scans refused for a lifted cap would have had, measured.
        public var overLiftedCapErrorMax: Double?
        /// Scans in which the reconstruction found the cap sliding on the head (and undid it).
        public var slidesFound: Int
        /// Scans in which it saw a slide too faintly to undo, and warned of it.
        public var slideDoubts: Int
        public var refusals: [String]
    }

    public var groups: [Group]
    public var trials: [CapTrial]

    public init(trials: [CapTrial]) {
        self.trials = trials
        var keys: [String] = []
        for trial in trials where !keys.contains(trial.condition + "/" + trial.scenario) { keys.append(trial.condition + "/" + trial.scenario) }
        groups = keys.map { key in
            let group = trials.filter { $0.condition + "/" + $0.scenario == key }
            let errors = group.compactMap(\.cvaiError), surfaces = group.filter { $0.cvai != nil }.compactMap(\.surfaceMeanMM)
            let standOffs = group.compactMap(\.capStandOffMM)
            let overLifted = group.compactMap { t in t.cvaiOverLiftedCap.map { abs($0 - t.trueCVAI) } }
            return Group(
                condition: group[0].condition, scenario: group[0].scenario, scans: group.count, measured: errors.count,
                cvaiErrorMedian: errors.isEmpty ? nil : Statistics.median(errors), cvaiErrorMax: errors.max(),
                within03: errors.count { $0 <= 0.3 },
                surfaceMeanMM: surfaces.isEmpty ? nil : surfaces.reduce(0, +) / Double(surfaces.count), surfaceWorstMM: surfaces.max(),
                standOffMedianMM: standOffs.isEmpty ? nil : Statistics.median(standOffs), standOffMaxMM: standOffs.max(),
                overLiftedCapErrorMax: overLifted.max(), slidesFound: group.count { $0.slideFoundAtSeconds != nil },
                slideDoubts: group.count { $0.slideDoubtAtSeconds != nil },
                refusals: group.compactMap { t in
                    let anyway = t.cvaiOverLiftedCap.map { String(format: " [measured anyway: CVAI off by %.2f]", abs($0 - t.trueCVAI)) } ?? ""
                    return t.refusal.map { "seed \(t.seed): \($0)\(anyway)" }
                })
        }
    }
}

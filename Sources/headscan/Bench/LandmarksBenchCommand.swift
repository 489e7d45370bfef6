import ArgumentParser
import Cephalometry
import Foundation
import Geometry
import Processing
import Recording
import ScanLibrary
import Simulation

/// `headscan bench landmarks`: automatic landmarks on simulated scans against the truth, and
/// how CVAI repeats over scans of one head with automatic landmarks and with hand picks.
struct LandmarksBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Benchmark the automatic landmarks and the repeatability of CVAI on simulated scans.",
        discussion: """
            Simulates --heads scans of different heads (length 120–160 mm, cranial index \
            72–98, CVAI 0–15 %, either side flat, ears of every size, lean and protrusion \
            the simulator makes; ideal and restless scans by turns), processes each as \
            `headscan process` does without picks, and compares the landmarks found on the \
            reconstruction with the true ones (after placing the reconstruction on the true \
            head by its marker map). CVAI is reported three ways: with the landmarks found, \
            with a simulated therapist's picks (2–3 frames per landmark, up to 2 px off), and \
            the head's true CVAI.

            Then it scans each of --repeat-heads further heads --repeats times, with different \
            seeds for the infant's motion, the therapist's path and the sensor's noise, and \
            reports the spread (largest minus smallest) of CVAI per head with automatic \
            landmarks and with simulated picks. These heads are drawn apart from the first \
            ones, so --heads 0 runs the repeats alone on the same heads.

            Each scan takes several seconds to simulate and reconstruct; the full run (30 + \
            50 scans) takes about 45 minutes on two cores.

            Examples:
              swift run -c release headscan bench landmarks --json
              swift run -c release headscan bench landmarks --heads 4 --repeat-heads 0
              swift run -c release headscan bench landmarks --only 22 --keep heads
              swift run -c release headscan bench landmarks --keep heads --repeat-heads 0
              swift run -c release headscan bench landmarks --reuse heads --repeat-heads 0
            """)

    @Option(help: "Different heads to scan once each.")
    var heads = 30

    @Option(help: "Heads to scan several times for repeatability (0: none).")
    var repeatHeads = 10

    @Option(help: "Scans of each repeated head.")
    var repeats = 5

    @Option(help: "Seconds per scan.")
    var seconds = 30.0

    @Option(help: "Seed of the heads and scans.")
    var seed: UInt64 = 11

    @Option(help: "Scan only this one of the different heads (counting from 0), to look into it; no repeats.")
    var only: Int?

    @Option(help: "Keep each scan's library (recording, mesh, results) in this folder, one folder per scan, to open in the replay.")
    var keep: String?

    @Option(help: "Measure again the scans kept earlier with --keep in this folder, without scanning: after a change to the landmark search, the figures in seconds per head rather than minutes. The other options must name the same heads as when they were kept.")
    var reuse: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard heads >= 0, repeatHeads >= 0, heads + repeatHeads >= 1 else { throw ValidationError("give at least one head") }
        if let only, only < 0 { throw ValidationError("--only counts heads from 0") }
        guard repeats >= 2 else { throw ValidationError("--repeats must be at least 2") }
        guard seconds >= 10, seconds <= 120 else { throw ValidationError("--seconds must be in 10...120") }
        if keep != nil, reuse != nil { throw ValidationError("--keep and --reuse exclude each other: keep scans once, then reuse them") }
    }

    func run() throws {
        var random = SplitMix64(seed: seed)
        var trials: [LandmarkTrial] = []
        var bar = ProgressBar("Scanning heads")
        let scanned = only.map { $0...$0 } ?? 0...max(0, heads - 1)
        // The heads are drawn in turn, so that head n is the same with --only n.
        for index in 0...scanned.upperBound where only != nil || heads > 0 {
            let head = Self.drawHead(&random)
            guard scanned.contains(index) else { continue }
            bar.update(index - scanned.lowerBound, of: scanned.count)
            let scenario: Scenario = index % 2 == 0 ? .ideal : .restless
            trials.append(try trial(head: head, scenario: scenario, seed: seed &+ UInt64(index), name: "head-\(index)"))
        }
        bar.update(trials.count, of: trials.count)
        var repeated: [[LandmarkTrial]] = []
        var again = ProgressBar("Repeating scans")
        // The repeated heads come from a stream of their own, so that --heads does not change them.
        var repeatRandom = SplitMix64(seed: seed &+ 0x5EED)
        for h in 0..<(only == nil ? repeatHeads : 0) {
            let head = Self.drawHead(&repeatRandom)
            var scans: [LandmarkTrial] = []
            for r in 0..<repeats {
                again.update(h * repeats + r, of: repeatHeads * repeats)
                scans.append(try trial(head: head, scenario: .restless, seed: seed &+ 1000 &+ UInt64(h * repeats + r), name: "repeat-\(h)-\(r)"))
            }
            repeated.append(scans)
        }
        again.update(repeatHeads * repeats, of: repeatHeads * repeats)
        try outputOptions.emit(LandmarksBenchResult(trials: trials, repeated: repeated))
    }

    /// One scan, simulated and measured, or its kept library measured again.
    private func trial(head: HeadParameters, scenario: Scenario, seed: UInt64, name: String) throws -> LandmarkTrial {
        if let reuse {
            return try LandmarkTrial.remeasure(
                head: head, scenario: scenario, seed: seed, seconds: seconds, kept: URL(fileURLWithPath: reuse).appendingPathComponent(name))
        }
        return try LandmarkTrial.run(
            head: head, scenario: scenario, seed: seed, seconds: seconds, keep: keep.map { URL(fileURLWithPath: $0).appendingPathComponent(name) })
    }

    static func drawHead(_ random: inout SplitMix64) -> HeadParameters {
        HeadParameters(
            lengthMM: random.uniform(120...160), cranialIndex: random.uniform(72...98), cvai: random.uniform(0...15),
            flatSide: random.unit() < 0.5 ? .left : .right,
            ears: EarShape(scale: random.uniform(0.85...1.2), tiltDegrees: random.uniform(5...30), protrusionDegrees: random.uniform(10...35)))
    }
}

/// One simulated scan processed with automatic landmarks and with simulated picks; in the
/// output, one entry of `perHead`.
struct LandmarkTrial: Codable {
    var scenario: String
    var trueCVAI: Double
    /// Distance of each found landmark from the truth, mm (nil: not found).
    var errorsMM: [String: Double]
    /// The same errors as vectors in the true head frame (x right, y forward, z up), mm.
    var offsetsMM: [String: [Double]]
    var cvaiAutomatic: Double?
    var cvaiPicks: Double?
    /// CVAI of the same reconstruction measured with the true landmarks: what landmarks alone cannot improve.
    var cvaiTrueLandmarks: Double?
    var failure: String?
    var confidences: [String: Double]

    static func run(head: HeadParameters, scenario: Scenario, seed: UInt64, seconds: Double, keep: URL? = nil) throws -> LandmarkTrial {
        let folder = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-landmarks-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let library = ScanLibrary(root: folder)
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds, head: head))
        let session = try library.createSession(date: Date(timeIntervalSince1970: 1_767_225_600))
        let k = simulator.configuration.intrinsics
        let writer = try ScanWriter(url: session.scanURL, header: ScanHeader(
            device: "simulator (bench landmarks)", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            layout: simulator.configuration.layout, createdAt: Date(timeIntervalSince1970: 1_767_225_600)))
        var frames: [FrameTruth] = []
        while let simulated = simulator.nextFrame() {
            try writer.append(simulated.frame)
            frames.append(simulated.truth)
        }
        try writer.close()

        var trial = LandmarkTrial(simulator: simulator, scenario: scenario)
        trial.measureAutomatic(library: library, session: session, simulator: simulator)
        let picks = try DemoCommand.simulatedPicks(simulator, frames: frames, scan: session.scanURL, seed: seed)
        if picks.isComplete {
            try library.saveAnnotations(picks, in: session)
            trial.cvaiPicks = try? SessionProcessor(library: library).process(session).measurement.cvai
        }
        return trial
    }

    /// The scan kept in `kept` by an earlier run, measured again from its stored
    /// reconstruction: without picks, then with the picks it kept.
    static func remeasure(head: HeadParameters, scenario: Scenario, seed: UInt64, seconds: Double, kept: URL) throws -> LandmarkTrial {
        let library = ScanLibrary(root: kept)
        guard FileManager.default.fileExists(atPath: kept.path), let session = try library.list().entries.first?.session else {
            throw ToolError("no kept scan in \(kept.path): keep the scans first with --keep and the same heads, seed and seconds")
        }
        let simulator = try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds, head: head))
        let picks = try library.annotations(in: session)
        if picks != nil { try FileManager.default.removeItem(at: session.annotationsURL) }
        var trial = LandmarkTrial(simulator: simulator, scenario: scenario)
        trial.measureAutomatic(library: library, session: session, simulator: simulator)
        if let picks {
            try library.saveAnnotations(picks, in: session)
            trial.cvaiPicks = try? SessionProcessor(library: library).process(session).measurement.cvai
        }
        return trial
    }

    private init(simulator: Simulator, scenario: Scenario) {
        self.scenario = scenario.rawValue
        trueCVAI = simulator.head.measurements.cvai
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
            if let found = result.automatic {
                let headFromMesh = try Self.headFromMeshTransform(library: library, session: session, simulator: simulator)
                let truth = simulator.head.landmarks
                let pairs: [(String, SIMD3<Double>)] = [
                    ("nasion", truth.nasion), ("noseTip", truth.noseTip), ("leftTragion", truth.leftTragion), ("rightTragion", truth.rightTragion),
                ]
                let meshFromHead = headFromMesh.inverse
                if let data = try? Data(contentsOf: session.meshURL), let mesh = try? PLY.decode([UInt8](data)) {
                    let t = HeadLandmarks(
                        nasion: meshFromHead.apply(truth.nasion), noseTip: meshFromHead.apply(truth.noseTip),
                        leftTragion: meshFromHead.apply(truth.leftTragion), rightTragion: meshFromHead.apply(truth.rightTragion))
                    cvaiTrueLandmarks = try? Cephalometer.measure(mesh, landmarks: t).measurement.cvai
                }
                for (name, point) in pairs {
                    guard let d = found[name] else { continue }
                    let offset = (headFromMesh.apply(d.point) - point) * 1000
                    errorsMM[name] = length(offset)
                    offsetsMM[name] = [offset.x, offset.y, offset.z]
                    confidences[name] = d.confidence
                }
            }
        } catch {
            failure = "\(error)"
        }
    }

    /// The rigid transform that puts the reconstruction's marker map onto the true cap.
    static func headFromMeshTransform(library: ScanLibrary, session: ScanSession, simulator: Simulator) throws -> RigidTransform {
        guard let record = try library.document(ReconstructionRecord.self, in: session) else { throw ToolError("no reconstruction record") }
        var source: [SIMD3<Double>] = [], target: [SIMD3<Double>] = []
        for sticker in simulator.cap.stickers {
            guard let mapped = record.map.corners[sticker.id] else { continue }
            source += mapped
            target += sticker.corners
        }
        return try RigidAlignment.fit(from: source, to: target).transform
    }
}

/// What `bench landmarks` reports.
struct LandmarksBenchResult: TextReport {
    struct Landmark: Codable {
        var medianMM: Double
        var maxMM: Double
        var within2MM: Int
    }

    struct CVAI: Codable {
        /// Nil when no head was measured automatically.
        var maxErrorAutomatic: Double?
        var medianErrorAutomatic: Double?
        var within03: Int
        var maxErrorPicks: Double?
        var medianErrorPicks: Double?
        /// The same reconstructions measured with the true landmarks.
        var maxErrorTrueLandmarks: Double?
        /// Automatic against true landmarks on the same reconstruction.
        var maxDifferenceFromTrueLandmarks: Double?
    }

    /// CVAI's largest minus smallest value per repeated head, over the scans measured; a
    /// head with fewer than two measured scans has none (nil).
    struct Repeatability: Codable {
        var spreadsAutomatic: [Double?]
        var spreadsPicks: [Double?]
        var maxSpreadAutomatic: Double?
        var maxSpreadPicks: Double?
        /// Repeated scans that could not be measured automatically.
        var unmeasuredAutomatic: Int
        /// Each repeated head's CVAI per scan with automatic landmarks (nil: not measured).
        var cvaiAutomatic: [[Double?]]
        /// Why a repeated scan was not measured: "head h, scan s: reason".
        var failures: [String]
    }

    var heads: Int
    var found: Int
    var perHead: [LandmarkTrial]
    var failures: [String]
    var landmarks: [String: Landmark]
    var cvai: CVAI
    var repeatability: Repeatability?

    init(trials: [LandmarkTrial], repeated: [[LandmarkTrial]]) {
        heads = trials.count
        found = trials.count { $0.errorsMM.count == 4 }
        perHead = trials
        failures = trials.compactMap(\.failure)
        var landmarks: [String: Landmark] = [:]
        for name in ["nasion", "noseTip", "leftTragion", "rightTragion"] {
            let errors = trials.compactMap { $0.errorsMM[name] }
            guard !errors.isEmpty else { continue }
            landmarks[name] = Landmark(medianMM: median(errors), maxMM: errors.max()!, within2MM: errors.count { $0 <= 2 })
        }
        self.landmarks = landmarks
        let automatic = trials.compactMap { t in t.cvaiAutomatic.map { abs($0 - t.trueCVAI) } }
        let picks = trials.compactMap { t in t.cvaiPicks.map { abs($0 - t.trueCVAI) } }
        let trueLandmarks = trials.compactMap { t in t.cvaiTrueLandmarks.map { abs($0 - t.trueCVAI) } }
        let difference = trials.compactMap { t in t.cvaiAutomatic.flatMap { a in t.cvaiTrueLandmarks.map { abs(a - $0) } } }
        cvai = CVAI(
            maxErrorAutomatic: automatic.max(), medianErrorAutomatic: automatic.isEmpty ? nil : median(automatic),
            within03: automatic.count { $0 <= 0.3 }, maxErrorPicks: picks.max(), medianErrorPicks: picks.isEmpty ? nil : median(picks),
            maxErrorTrueLandmarks: trueLandmarks.max(), maxDifferenceFromTrueLandmarks: difference.max())
        if !repeated.isEmpty {
            func spread(_ values: [Double]) -> Double? {
                guard values.count >= 2, let high = values.max(), let low = values.min() else { return nil }
                return high - low
            }
            let a = repeated.map { spread($0.compactMap(\.cvaiAutomatic)) }
            let p = repeated.map { spread($0.compactMap(\.cvaiPicks)) }
            repeatability = Repeatability(
                spreadsAutomatic: a, spreadsPicks: p, maxSpreadAutomatic: a.compactMap { $0 }.max(), maxSpreadPicks: p.compactMap { $0 }.max(),
                unmeasuredAutomatic: repeated.joined().count { $0.cvaiAutomatic == nil },
                cvaiAutomatic: repeated.map { $0.map(\.cvaiAutomatic) },
                failures: repeated.enumerated().flatMap { h, scans in
                    scans.enumerated().compactMap { s, trial in trial.failure.map { "head \(h), scan \(s): \($0)" } }
                })
        }
    }

    var text: String {
        var lines = ["Automatic landmarks on \(heads) simulated scans: found on \(found)"]
        for name in ["nasion", "noseTip", "leftTragion", "rightTragion"] {
            guard let l = landmarks[name] else { continue }
            lines.append(String(format: "  %-13@ median %.2f mm, worst %.2f mm, %d of %d within 2 mm", name as NSString, l.medianMM, l.maxMM, l.within2MM, heads))
        }
        if let m = cvai.medianErrorAutomatic, let w = cvai.maxErrorAutomatic {
            lines.append(String(format: "CVAI with automatic landmarks: median error %.2f, worst %.2f points; %d of %d within 0.3", m, w, cvai.within03, heads))
        } else {
            lines.append("CVAI with automatic landmarks: no head measured")
        }
        if let m = cvai.medianErrorPicks, let w = cvai.maxErrorPicks {
            lines.append(String(format: "CVAI with simulated picks:     median error %.2f, worst %.2f points", m, w))
        }
        if let t = cvai.maxErrorTrueLandmarks, let d = cvai.maxDifferenceFromTrueLandmarks {
            lines.append(String(format: "CVAI with the true landmarks on the same reconstructions: worst error %.2f; automatic differs from it by at most %.2f", t, d))
        }
        if let r = repeatability {
            func figure(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "none" }
            lines.append("Repeatability over \(r.spreadsAutomatic.count) heads: CVAI spread per head at most \(figure(r.maxSpreadAutomatic)) points with automatic landmarks, \(figure(r.maxSpreadPicks)) with picks")
            if r.unmeasuredAutomatic > 0 { lines.append("  \(r.unmeasuredAutomatic) repeated scans not measured automatically") }
            lines += r.failures.map { "  not measured: repeated \($0)" }
        }
        lines += failures.map { "  not found: \($0)" }
        return lines.joined(separator: "\n")
    }
}

private func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

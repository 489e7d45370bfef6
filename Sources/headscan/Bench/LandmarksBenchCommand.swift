import ArgumentParser
import Cephalometry
import Evaluation
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

            `coverage` counts, over every scan measured, how often the 95 % interval that \
            processing states for CVAI holds the true CVAI, with found landmarks and with \
            picks, and gives the intervals' median and largest width.

            Each scan takes several seconds to simulate and reconstruct; the full run (30 + \
            50 scans) takes about 45 minutes on two cores.

            Examples:
              swift run -c release headscan bench landmarks --json
              swift run -c release headscan bench landmarks --heads 4 --repeat-heads 0
              swift run -c release headscan bench landmarks --only 22 --keep heads
              swift run -c release headscan bench landmarks --keep heads --repeat-heads 0
              swift run -c release headscan bench landmarks --reuse heads --repeat-heads 0
              swift run -c release headscan bench landmarks --ears sunk --heads 10 --repeat-heads 0
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

    @Option(
        help:
            "Measure again the scans kept earlier with --keep in this folder, without scanning: after a change to the landmark search, the figures in seconds per head rather than minutes. The other options must name the same heads as when they were kept."
    )
    var reuse: String?

    @Option(
        help:
            "The heads' ears: clay (the simulator's standard ear, its relief never below the skin) or sunk (a real ear's depth: the concha 3–6 mm into the head, the tragus 1.8–3 mm out; the heads otherwise the same)."
    )
    var ears: LandmarkTrial.EarKind = .clay

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
            let head = LandmarkTrial.drawHead(&random, ears: ears)
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
            let head = LandmarkTrial.drawHead(&repeatRandom, ears: ears)
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
}

extension LandmarksBenchResult: TextReport {
    var text: String {
        var lines = ["Automatic landmarks on \(heads) simulated scans: found on \(found)"]
        for name in ["nasion", "noseTip", "leftTragion", "rightTragion"] {
            guard let l = landmarks[name] else { continue }
            lines.append(
                String(
                    format: "  %-13@ median %.2f mm, worst %.2f mm, %d of %d within 2 mm", name as NSString, l.medianMM, l.maxMM, l.within2MM, heads))
        }
        if let m = cvai.medianErrorAutomatic, let w = cvai.maxErrorAutomatic {
            lines.append(
                String(format: "CVAI with automatic landmarks: median error %.2f, worst %.2f points; %d of %d within 0.3", m, w, cvai.within03, heads)
            )
        } else {
            lines.append("CVAI with automatic landmarks: no head measured")
        }
        if let m = cvai.medianErrorPicks, let w = cvai.maxErrorPicks {
            lines.append(String(format: "CVAI with simulated picks:     median error %.2f, worst %.2f points", m, w))
        }
        if let t = cvai.maxErrorTrueLandmarks, let d = cvai.maxDifferenceFromTrueLandmarks {
            lines.append(
                String(
                    format: "CVAI with the true landmarks on the same reconstructions: worst error %.2f; automatic differs from it by at most %.2f",
                    t, d))
        }
        if let r = repeatability {
            func figure(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "none" }
            lines.append(
                "Repeatability over \(r.spreadsAutomatic.count) heads: CVAI spread per head at most \(figure(r.maxSpreadAutomatic)) points with automatic landmarks, \(figure(r.maxSpreadPicks)) with picks"
            )
            if r.unmeasuredAutomatic > 0 { lines.append("  \(r.unmeasuredAutomatic) repeated scans not measured automatically") }
            lines += r.failures.map { "  not measured: repeated \($0)" }
        }
        lines += failures.map { "  not found: \($0)" }
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import Evaluation
import Feedback
import Foundation
import Markers
import Simulation

extension FeedbackBenchCommand {
    /// `bench feedback --without-markers`: the guide that follows the head's surface.
    func runWithoutMarkers() throws {
        var results: [SurfaceLoopResult] = []
        for covering in try coverings() {
            for name in scenarios.split(separator: ",") {
                let scenario = try Scenario.named(String(name))
                var follower: [SurfaceLoopRun] = [], ignorer: [SurfaceLoopRun] = []
                for seed in 1...UInt64(max(1, seeds)) {
                    for follow in [true, false] {
                        let name = "\(covering.rawValue)-\(scenario.rawValue)-\(follow ? "follow" : "ignore")-\(seed).csv"
                        let run = try SurfaceGuideEvaluation.closedLoop(
                            scenario, capFit: Self.capFit(covering), follow: follow, seed: seed, seconds: seconds,
                            trace: trace.map { URL(fileURLWithPath: $0).appendingPathComponent(name) })
                        if follow { follower.append(run) } else { ignorer.append(run) }
                    }
                }
                results.append(SurfaceLoopResult(cap: covering.rawValue, scenario: scenario.rawValue, follower: follower, ignorer: ignorer))
            }
        }
        try outputOptions.emit(SurfaceGuideBenchResult(seconds: seconds, closedLoop: results))
    }

    /// The simulated covering: the cap with every sticker gone, or hair 3 mm thick.
    static func capFit(_ covering: MarkerlessBenchCommand.Covering) -> CapFit {
        if let shade = covering.shade { return CapFit.bare(BareHair(shade: shade, thicknessMillimetres: 3)) }
        return CapFit(lostShare: 1, printed: covering == .printed)
    }

    private func coverings() throws -> [MarkerlessBenchCommand.Covering] {
        let choices = MarkerlessBenchCommand.Covering.allCases.map(\.rawValue).joined(separator: ", ")
        let names = caps.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { throw ValidationError("--caps needs at least one of \(choices)") }
        return try names.map { name in
            guard let covering = MarkerlessBenchCommand.Covering(rawValue: name) else {
                throw ValidationError("--caps: '\(name)' is not a covering; choose from \(choices), comma-separated")
            }
            return covering
        }
    }
}

/// One covering and scenario of `bench feedback --without-markers`.
struct SurfaceLoopResult: Encodable {
    var cap: String
    var scenario: String
    var follower: [SurfaceLoopRun]
    var ignorer: [SurfaceLoopRun]

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    /// The text line for one group of runs.
    static func describe(_ runs: [SurfaceLoopRun]) -> String {
        let done = runs.compactMap(\.completed)
        let least = runs.compactMap { $0.trueSharesAtCompletion?.min() }.min()
        return String(format: "out of position %.1f s, completed %d/%d", mean(runs.map(\.outOfPosition)), done.count, runs.count)
            + (done.isEmpty ? "" : String(format: " (at %.1f s)", mean(done)))
            + String(format: ", progress %.0f %%", mean(runs.map { Double($0.progress) }))
            + String(format: ", share error ≤ %.2f", runs.map(\.largestShareError).max() ?? 0)
            + (least.map { String(format: ", least true share when done %.2f", $0) } ?? "")
            + String(format: ", %d frames not placed", runs.map(\.framesNotPlaced).reduce(0, +))
    }
}

/// What `bench feedback --without-markers` reports.
struct SurfaceGuideBenchResult: TextReport {
    var seconds: Double
    var regions = HeadRegion.allCases.map(\.rawValue)
    var closedLoop: [SurfaceLoopResult]

    var text: String {
        var lines = [
            String(
                format: "guide without markers, closed loop on rendered %.0f s scans (shares per region: %@):", seconds,
                regions.joined(separator: ", "))
        ]
        for r in closedLoop {
            lines.append("\(r.cap), \(r.scenario): follower \(SurfaceLoopResult.describe(r.follower))")
            lines.append("\(r.cap), \(r.scenario): ignorer \(SurfaceLoopResult.describe(r.ignorer))")
        }
        return lines.joined(separator: "\n")
    }
}

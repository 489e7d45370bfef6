import Cephalometry
import Geometry

/// What `bench landmarks` reports.
public struct LandmarksBenchResult: Codable {
    public struct Landmark: Codable {
        public var medianMM: Double
        public var maxMM: Double
        public var within2MM: Int
    }

    public struct CVAI: Codable {
        /// Nil when no head was measured automatically.
        public var maxErrorAutomatic: Double?
        public var medianErrorAutomatic: Double?
        public var within03: Int
        public var maxErrorPicks: Double?
        public var medianErrorPicks: Double?
        /// The same reconstructions measured with the true landmarks.
        public var maxErrorTrueLandmarks: Double?
        /// Automatic against true landmarks on the same reconstruction.
        public var maxDifferenceFromTrueLandmarks: Double?
    }

    /// CVAI's largest minus smallest value per repeated head, over the scans measured; a
    /// head with fewer than two measured scans has none (nil).
    public struct Repeatability: Codable {
        public var spreadsAutomatic: [Double?]
        public var spreadsPicks: [Double?]
        public var maxSpreadAutomatic: Double?
        public var maxSpreadPicks: Double?
        /// Repeated scans that could not be measured automatically.
        public var unmeasuredAutomatic: Int
        /// Each repeated head's CVAI per scan with automatic landmarks (nil: not measured).
        public var cvaiAutomatic: [[Double?]]
        /// Each repeated head's true CVAI, and CVAI's stated interval per scan.
        public var trueCVAI: [Double]
        public var intervalsAutomatic: [[ValueInterval?]]
        /// Why a repeated scan was not measured: "head h, scan s: reason".
        public var failures: [String]
    }

    public var heads: Int
    public var found: Int
    public var perHead: [LandmarkTrial]
    public var failures: [String]
    public var landmarks: [String: Landmark]
    public var cvai: CVAI
    public var repeatability: Repeatability?
    /// How often CVAI's stated 95 % interval holds the true CVAI, over every scan measured
    /// (the heads and the repeated heads), with found landmarks and with picks.
    public var coverage: [String: Coverage]

    /// How often intervals held the truth, and how wide they were.
    public struct Coverage: Codable {
        public var scans: Int
        public var containing: Int
        public var share: Double?
        public var medianWidth: Double?
        public var maxWidth: Double?

        init(_ cases: [(interval: ValueInterval, truth: Double)]) {
            scans = cases.count
            containing = cases.count { $0.interval.contains($0.truth) }
            share = cases.isEmpty ? nil : Double(containing) / Double(cases.count)
            let widths = cases.map { $0.interval.high - $0.interval.low }
            medianWidth = widths.isEmpty ? nil : Statistics.median(widths)
            maxWidth = widths.max()
        }
    }

    public init(trials: [LandmarkTrial], repeated: [[LandmarkTrial]]) {
        heads = trials.count
        found = trials.count { $0.errorsMM.count == 4 }
        perHead = trials
        failures = trials.compactMap(\.failure)
        var landmarks: [String: Landmark] = [:]
        for name in ["nasion", "noseTip", "leftTragion", "rightTragion"] {
            let errors = trials.compactMap { $0.errorsMM[name] }
            guard !errors.isEmpty else { continue }
            landmarks[name] = Landmark(medianMM: Statistics.median(errors), maxMM: errors.max()!, within2MM: errors.count { $0 <= 2 })
        }
        self.landmarks = landmarks
        let automatic = trials.compactMap { t in t.cvaiAutomatic.map { abs($0 - t.trueCVAI) } }
        let picks = trials.compactMap { t in t.cvaiPicks.map { abs($0 - t.trueCVAI) } }
        let trueLandmarks = trials.compactMap { t in t.cvaiTrueLandmarks.map { abs($0 - t.trueCVAI) } }
        let difference = trials.compactMap { t in t.cvaiAutomatic.flatMap { a in t.cvaiTrueLandmarks.map { abs(a - $0) } } }
        cvai = CVAI(
            maxErrorAutomatic: automatic.max(), medianErrorAutomatic: automatic.isEmpty ? nil : Statistics.median(automatic),
            within03: automatic.count { $0 <= 0.3 }, maxErrorPicks: picks.max(), medianErrorPicks: picks.isEmpty ? nil : Statistics.median(picks),
            maxErrorTrueLandmarks: trueLandmarks.max(), maxDifferenceFromTrueLandmarks: difference.max())
        let every = trials + repeated.joined()
        coverage = [
            "automatic": Coverage(every.compactMap { t in t.cvaiIntervalAutomatic.map { ($0, t.trueCVAI) } }),
            "picks": Coverage(every.compactMap { t in t.cvaiIntervalPicks.map { ($0, t.trueCVAI) } }),
        ]
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
                trueCVAI: repeated.map { $0.first?.trueCVAI ?? .nan }, intervalsAutomatic: repeated.map { $0.map(\.cvaiIntervalAutomatic) },
                failures: repeated.enumerated().flatMap { h, scans in
                    scans.enumerated().compactMap { s, trial in trial.failure.map { "head \(h), scan \(s): \($0)" } }
                })
        }
    }
}

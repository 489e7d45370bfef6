/// Precision, recall and timing of detected events against the truth, per event kind.
public struct EventScore: Sendable, Hashable, Codable {
    /// Detected events matched to a true one.
    public var truePositives = 0
    /// Detected events without a true one.
    public var falsePositives = 0
    /// True events nothing was detected for.
    public var falseNegatives = 0
    /// Detected minus true frame, per match.
    public var frameErrors: [Int] = []

    /// An empty score.
    public init() {}

    /// Matched share of the detections (1 when nothing was detected).
    public var precision: Double {
        truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
    }

    /// Matched share of the truth (1 when nothing was true).
    public var recall: Double {
        truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
    }

    /// The largest timing error in frames.
    public var maxFrameError: Int { frameErrors.map(abs).max() ?? 0 }

    /// Mean absolute timing error in frames.
    public var meanFrameError: Double {
        frameErrors.isEmpty ? 0 : Double(frameErrors.map(abs).reduce(0, +)) / Double(frameErrors.count)
    }

    /// Median absolute timing error in frames.
    public var medianFrameError: Double {
        let sorted = frameErrors.map(abs).sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Share of the matches within `frames` of the truth.
    public func within(_ frames: Int) -> Double {
        frameErrors.isEmpty ? 1 : Double(frameErrors.filter { abs($0) <= frames }.count) / Double(frameErrors.count)
    }

    /// Adds another score's counts.
    public mutating func add(_ other: EventScore) {
        truePositives += other.truePositives
        falsePositives += other.falsePositives
        falseNegatives += other.falseNegatives
        frameErrors += other.frameErrors
    }
}

/// Matches detected events to true ones of the same kind within a window.
public enum EventScoring {
    /// The kind an event is scored under: "looked left", "nod", "startedLooking up", …
    public static func kind(type: String, direction: GestureDirection?) -> String {
        direction.map { "\(type) \($0.rawValue)" } ?? type
    }

    /// Scores per kind. Every detected gesture event counts (tracking and movement events do
    /// not); each true event takes the nearest unmatched detection of its kind within
    /// `windowFrames`.
    public static func score(detected: [TimedGestureEvent], truth: [TruthEvent], fps: Double, windowFrames: Int = 15) -> [String: EventScore] {
        var found: [String: [Int]] = [:]
        for e in detected where e.event.isGesture {
            found[kind(type: e.event.typeName, direction: e.event.direction), default: []].append(Int((e.time * fps).rounded()))
        }
        var expected: [String: [Int]] = [:]
        for e in truth { expected[kind(type: e.type, direction: e.direction), default: []].append(e.frame) }
        var scores: [String: EventScore] = [:]
        for name in Set(found.keys).union(expected.keys) {
            scores[name] = match(found: found[name] ?? [], expected: expected[name] ?? [], window: windowFrames)
        }
        return scores
    }

    private static func match(found: [Int], expected: [Int], window: Int) -> EventScore {
        var score = EventScore()
        var used = [Bool](repeating: false, count: found.count)
        for frame in expected {
            var best: Int?
            for (i, f) in found.enumerated() where !used[i] && abs(f - frame) <= window {
                if best.map({ abs(f - frame) < abs(found[$0] - frame) }) ?? true { best = i }
            }
            if let best {
                used[best] = true
                score.truePositives += 1
                score.frameErrors.append(found[best] - frame)
            } else {
                score.falseNegatives += 1
            }
        }
        score.falsePositives = used.filter { !$0 }.count
        return score
    }
}

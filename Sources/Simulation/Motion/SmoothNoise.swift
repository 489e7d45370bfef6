import Foundation
import Geometry
import Recording

/// A smooth, seeded random signal in −1...1: a sum of three slow sines with random
/// frequencies and phases (the way a hand or an infant drifts).
struct SmoothNoise: Sendable {
    private let terms: [(frequency: Double, phase: Double, weight: Double)]

    /// Frequencies between `lowest` and `highest` hertz.
    init(rng: inout Xoshiro256, lowest: Double = 0.1, highest: Double = 0.8) {
        terms = [0.5, 0.3, 0.2].map { weight in
            (lowest + (highest - lowest) * rng.unitDouble(), 2 * Double.pi * rng.unitDouble(), weight)
        }
    }

    func value(at t: Double) -> Double {
        terms.reduce(0) { $0 + $1.weight * sin(2 * Double.pi * $1.frequency * t + $1.phase) }
    }
}

/// Times when something happens for a while (the operator comes close, the infant turns).
struct Episodes: Sendable {
    /// Start and end times in seconds, and a random sign or direction per episode.
    let spans: [(start: Double, end: Double, direction: Double)]
    /// Seconds to build up and to fade.
    let ramp: Double

    /// `count` episodes of `duration` seconds spread over `total` seconds, none in the first two.
    init(count: Int, duration: Double, total: Double, ramp: Double = 0.4, rng: inout Xoshiro256) {
        self.ramp = ramp
        guard count > 0, total > 4 + duration else { spans = []; return }
        let slot = (total - 2) / Double(count)
        spans = (0..<count).map { k in
            let start = 2 + Double(k) * slot + rng.unitDouble() * max(0, slot - duration)
            return (start, start + duration, rng.unitDouble() * 2 * Double.pi)
        }
    }

    /// How far into an episode `t` is: 0 outside, rising to 1 over the ramp, falling at its end.
    func strength(at t: Double) -> (value: Double, direction: Double) {
        for span in spans where t > span.start - ramp && t < span.end + ramp {
            let rise = min(1, max(0, (t - span.start + ramp) / ramp))
            let fall = min(1, max(0, (span.end + ramp - t) / ramp))
            return (min(rise, fall), span.direction)
        }
        return (0, 0)
    }
}

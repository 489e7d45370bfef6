/// How much this person's head sways at rest, per axis, and the swing a nod or shake must
/// reach above it.
///
/// People differ: a calm head holds within a degree or two, a restless one wanders several.
/// A fixed swing threshold must sit above the restless head's sway and so misses a calm
/// person's conversational nod; this one follows the person. The sway is the root mean square
/// of the resting pointer's offset from the centre (landmark noise included, after the same
/// three-frame mean the swings are judged on), followed quickly when it grows and slowly when
/// it shrinks, so that a restless spell raises the threshold at once and one quiet moment does
/// not lower it.
public struct RestingSway: Sendable {
    /// The root mean square offset, eye distances, horizontal (x) and vertical (y).
    public private(set) var rms: SIMD2<Double>
    private let floor: Double
    private let cap: Double
    private let factor: Double

    /// Time constants in seconds with which the mean square follows a growing and a
    /// shrinking sway.
    static let riseSeconds = 1.0
    static let fallSeconds = 3.0
    /// A single offset counts at most this many times the current root mean square (and at
    /// least the floor's share), so that a small nod made while "resting" barely moves it.
    static let clip = 3.0

    /// A meter for `settings`, starting from the spread of the calibration samples.
    public init(settings: GestureSettings, calibrationSpread: SIMD2<Double>) {
        floor = settings.swingThreshold
        cap = settings.movementThreshold
        factor = settings.swayFactor
        rms = calibrationSpread
    }

    /// The swing threshold, horizontal and vertical: `factor` times the sway, within the
    /// floor and the movement threshold.
    public var thresholds: SIMD2<Double> {
        SIMD2(threshold(rms.x), threshold(rms.y))
    }

    private func threshold(_ sway: Double) -> Double { min(cap, max(floor, factor * sway)) }

    /// Takes the (three-frame mean) offset of a resting frame `dt` seconds after the last.
    public mutating func add(_ offset: SIMD2<Double>, dt: Double) {
        rms = SIMD2(follow(rms.x, offset.x, dt), follow(rms.y, offset.y, dt))
    }

    private func follow(_ current: Double, _ value: Double, _ dt: Double) -> Double {
        let limit = Self.clip * max(current, floor / max(factor, 1))
        let sample = min(abs(value), limit)
        let square = current * current, target = sample * sample
        let tau = target > square ? Self.riseSeconds : Self.fallSeconds
        return (square + min(1, dt / tau) * (target - square)).squareRoot()
    }

    /// The spread of calibration samples about their mean, per axis, eye distances.
    public static func spread(of positions: [SIMD2<Double>], eyeDistance: Double) -> SIMD2<Double> {
        guard positions.count > 1, eyeDistance > 0 else { return .zero }
        let mean = positions.reduce(.zero, +) / Double(positions.count)
        let squares = positions.reduce(SIMD2<Double>.zero) { $0 + ($1 - mean) * ($1 - mean) } / Double(positions.count - 1)
        return SIMD2(squares.x.squareRoot(), squares.y.squareRoot()) / eyeDistance
    }
}

/// An event that truly happened in a simulated stream.
public struct TruthEvent: Sendable, Hashable, Codable {
    /// Seconds.
    public var t: Double
    /// Frame index.
    public var frame: Int
    /// The event's type name, as `GestureEvent.typeName`.
    public var type: String
    /// The direction, for looks.
    public var direction: GestureDirection?

    /// An event from its parts.
    public init(t: Double, frame: Int, type: String, direction: GestureDirection? = nil) {
        self.t = t
        self.frame = frame
        self.type = type
        self.direction = direction
    }
}

/// The events a stream truly holds for given settings: which ones comes from the script (a
/// scripted look is one look, a nod one nod however slow, leaning in nothing), when from the noise-free
/// pointer crossing the settings' thresholds: a look starts where the exact offset reaches the
/// movement threshold and ends where it falls back below the return radius.
public enum GestureTruth {
    /// Seconds after a step during which its return is still looked for.
    static let tail = 0.3

    /// The true gesture events of `stream` under `settings`, in time order.
    public static func events(of stream: SimulatedStream, settings: GestureSettings) throws(GestureError) -> [TruthEvent] {
        var result: [TruthEvent] = []
        for step in stream.script.steps {
            let first = Int((step.start * stream.fps).rounded(.up))
            let last = min(stream.ideal.count, Int(((step.end + tail) * stream.fps).rounded(.down)) + 1)
            guard first < last else { continue }
            var scanner = Scanner(stream: stream, settings: settings, range: first..<last)
            switch step.motion {
            case .look(let d, let degrees, _, _):
                let look = try scanner.next([d], what: "a look \(d.rawValue) of \(degrees)°")
                result += scanner.report(look, discrete: true)
            case .nod(let degrees, let cycles, _):
                guard cycles >= 2 else { throw .invalidScript("a nod needs at least 2 cycles") }
                var downs: [Swing] = []
                for _ in 0..<cycles { downs.append(try scanner.next([.down], what: "a nod of \(degrees)°", swing: true)) }
                guard settings.recognisesNodsAndShakes else {
                    result += downs.flatMap { scanner.report($0, discrete: true) }
                    continue
                }
                result += downs.flatMap { scanner.report($0, discrete: false) }
                result.append(scanner.event("nod", at: downs[1].end))
            case .shake(let degrees, let cycles, _, _):
                guard cycles >= 2 else { throw .invalidScript("a shake needs at least 2 cycles") }
                var swings: [Swing] = []
                for _ in 0..<(2 * cycles) { swings.append(try scanner.next([.left, .right], what: "a shake of \(degrees)°", swing: true)) }
                guard settings.recognisesNodsAndShakes else {
                    result += swings.flatMap { scanner.report($0, discrete: true) }
                    continue
                }
                result += swings.flatMap { scanner.report($0, discrete: false) }
                result.append(scanner.event("shake", at: swings[3].end))
            case .rest, .approach, .faceLost:
                break
            }
        }
        return result.sorted { ($0.frame, $0.type) < ($1.frame, $1.type) }
    }

    /// One excursion of the exact offset: frames where it passed the threshold and came back.
    struct Swing {
        var direction: GestureDirection
        /// Where it passed the movement threshold, or the swing threshold when it never did.
        var start: Int
        var end: Int
        /// Whether it passed the movement threshold: only then is it a look too.
        var isLook = true
    }

    /// Walks the exact offsets of one step.
    struct Scanner {
        let stream: SimulatedStream
        let settings: GestureSettings
        let range: Range<Int>
        var cursor: Int

        init(stream: SimulatedStream, settings: GestureSettings, range: Range<Int>) {
            self.stream = stream
            self.settings = settings
            self.range = range
            cursor = range.lowerBound
        }

        /// The next swing in one of `directions`: past the movement threshold, or for a nod
        /// or shake (`swing`) past the swing threshold of a calmly resting head.
        mutating func next(_ directions: [GestureDirection], what: String, swing: Bool = false) throws(GestureError) -> Swing {
            let small = swing && settings.recognisesNodsAndShakes && settings.swingThreshold < settings.movementThreshold
            let threshold = small ? settings.swingThreshold : settings.movementThreshold
            var start: (Int, GestureDirection)?
            var look: Int?
            for k in cursor..<range.upperBound {
                if let (s, d) = start {
                    let reach = d.reach(of: stream.ideal[k])
                    if look == nil, reach >= settings.movementThreshold { look = k }
                    if reach < (look == nil ? settings.swingReturn(threshold) : settings.returnRadius) {
                        cursor = k + 1
                        return Swing(direction: d, start: look ?? s, end: k, isLook: look != nil)
                    }
                } else if let d = directions.first(where: { $0.reach(of: stream.ideal[k]) >= threshold }) {
                    start = (k, d)
                    if d.reach(of: stream.ideal[k]) >= settings.movementThreshold { look = k }
                }
            }
            let peak = range.map { k in directions.map { $0.reach(of: stream.ideal[k]) }.max() ?? 0 }.max() ?? 0
            throw .invalidScript(
                "\(what) at \(Double(range.lowerBound) / stream.fps) s "
                    + (start == nil
                        ? "reaches only \(peak) eye distances, short of the threshold \(threshold); script a larger angle"
                        : "does not come back into the idle zone; script a longer step"))
        }

        /// The look events of a swing: started/stopped in continuous mode, looked in discrete
        /// mode when it is a look of its own.
        func report(_ swing: Swing, discrete: Bool) -> [TruthEvent] {
            guard swing.isLook else { return [] }
            if settings.mode == .continuous {
                return [event("startedLooking", at: swing.start, swing.direction), event("stoppedLooking", at: swing.end, swing.direction)]
            }
            return discrete ? [event("looked", at: swing.end, swing.direction)] : []
        }

        func event(_ type: String, at frame: Int, _ direction: GestureDirection? = nil) -> TruthEvent {
            TruthEvent(t: Double(frame) / stream.fps, frame: frame, type: type, direction: direction)
        }
    }
}

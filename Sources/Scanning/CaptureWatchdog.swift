/// Notices when the camera stops delivering frames during a recording. In this product
/// silence means "position fine", so a camera that stops without a word (a call, another app
/// taking the camera, an error) would leave the operator walking round a head that is not being
/// recorded. The watchdog is checked on a timer; it warns once per stall and says when frames
/// come back.
public struct CaptureWatchdog: Sendable, Equatable {
    /// Seconds without a frame that count as a stall: 22 missing frames at 30 a second, and
    /// with a check every quarter second the operator hears of it within a second.
    public let stallSeconds: Double
    private var lastFrame: Double?
    private var watching = false
    private var warned = false

    public init(stallSeconds: Double = 0.75) { self.stallSeconds = stallSeconds }

    /// Recording starts (or resumes) at `time`: the first frame is due within the stall time.
    public mutating func start(at time: Double) {
        watching = true
        lastFrame = time
        warned = false
    }

    /// Recording paused or ended: the camera is off on purpose.
    public mutating func stop() {
        watching = false
        warned = false
    }

    /// A frame arrived at `time`; true when it ends a stall that was warned about.
    public mutating func frameArrived(at time: Double) -> Bool {
        lastFrame = time
        defer { warned = false }
        return watching && warned
    }

    /// The timer's check at `time`; true once when a stall begins.
    public mutating func check(at time: Double) -> Bool {
        guard watching, !warned, let lastFrame, time - lastFrame >= stallSeconds else { return false }
        warned = true
        return true
    }
}

/// Tells nods and shakes from single looks, and in discrete mode reports the looks.
///
/// Quick looks (shorter than `quickLookSeconds`, and turning back from their peak within
/// `longestSwingHold`: a slow nod's swing may last as long as a brief look, but it does not
/// dwell) on one axis, each starting within
/// `gestureGapSeconds` of the previous one's end (or, after a slow swing, within
/// `rhythmFactor` times its length: a slow nod dwells longer at the top between its swings),
/// form a sequence (swings short of the movement threshold too, though they are never
/// reported as looks): two looks down make a nod
/// (looks up between them are the head coming back a little too far), two looks to each side,
/// alternating, make a shake. A quick look cannot be reported as a look until it is clear that
/// no second one follows, so discrete looks of a sequence that never becomes a nod or shake
/// are reported when the sequence ends. Slow looks are never part of one and are reported at
/// once.
public struct NodShakeRecognizer: Sendable {
    /// Whether looks are reported (discrete mode) or only nods and shakes.
    public let reportsLooks: Bool
    /// Whether nods and shakes are recognised at all.
    public let isEnabled: Bool
    /// Longest quick look, seconds.
    public let quickLookSeconds: Double
    /// Longest pause between the looks of one sequence, seconds.
    public let gapSeconds: Double

    private var pending: [Look] = []
    private var horizontal: Bool?
    private var downs = 0, lefts = 0, rights = 0
    private var lastSide: GestureDirection?
    private var recognised = false
    private var lastEnd = -Double.infinity
    /// The longest swing and the longest pause between swings of the open sequence.
    private var longestSwing = 0.0
    private var longestPause = 0.0

    /// How long the pause after a quick swing may be, as a multiple of the swing: past the
    /// threshold a nod of 18° at 1.25 s a cycle spends 0.47 s, and 0.78 s back near the rest.
    static let rhythmFactor = 1.75

    /// The longest time near its peak a swing of a nod or shake spends, seconds: a nod at
    /// 1.25 s a cycle spends 0.32 s within 85 % of its peak; a held look, its hold.
    static let longestSwingHold = 0.5

    /// The longest pause after the last swing that still continues the sequence: the
    /// settings' gap, or longer when the sequence's swings are slow or already paused longer.
    private var allowedGap: Double { max(gapSeconds, Self.rhythmFactor * longestSwing, 1.5 * longestPause) }

    /// A recognizer with the settings' mode and timing.
    public init(settings: GestureSettings) {
        reportsLooks = settings.mode == .discrete
        isEnabled = settings.recognisesNodsAndShakes
        quickLookSeconds = settings.quickLookSeconds
        gapSeconds = settings.gestureGapSeconds
        pending.reserveCapacity(8)
    }

    /// Whether a sequence of quick looks is open.
    public var isOpen: Bool { horizontal != nil }

    /// Takes a look that just ended.
    public mutating func lookEnded(_ look: Look, events: inout [GestureEvent]) {
        guard isEnabled, look.duration <= quickLookSeconds, look.holdSeconds <= Self.longestSwingHold else {
            // A slow small swing is the head settling or swaying: no look, and nothing ends.
            if look.isSmallSwing { return }
            flush(events: &events)
            if reportsLooks { events.append(.looked(look.direction, distance: look.peak)) }
            return
        }
        if isOpen, !continuesSequence(look) { flush(events: &events) }
        add(look, events: &events)
    }

    /// Ends a sequence whose pause has run out; call every frame. `looking`: a look is under
    /// way, whose end will decide instead.
    public mutating func tick(time: Double, looking: Bool, events: inout [GestureEvent]) {
        if isOpen, !looking, time - lastEnd > allowedGap { flush(events: &events) }
    }

    /// Reports what is pending as looks and closes the sequence.
    public mutating func flush(events: inout [GestureEvent]) {
        if reportsLooks && !recognised {
            for look in pending where !look.isSmallSwing { events.append(.looked(look.direction, distance: look.peak)) }
        }
        pending.removeAll(keepingCapacity: true)
        horizontal = nil
        downs = 0
        lefts = 0
        rights = 0
        lastSide = nil
        recognised = false
        longestSwing = 0
        longestPause = 0
    }

    private func continuesSequence(_ look: Look) -> Bool {
        guard look.direction.isHorizontal == horizontal, (look.swingStart ?? look.start) - lastEnd <= allowedGap else { return false }
        // A shake swings to the other side each time; twice to the same side are two looks.
        return !look.direction.isHorizontal || look.direction != lastSide
    }

    private mutating func add(_ look: Look, events: inout [GestureEvent]) {
        if isOpen { longestPause = max(longestPause, (look.swingStart ?? look.start) - lastEnd) } else { horizontal = look.direction.isHorizontal }
        lastEnd = look.end
        longestSwing = max(longestSwing, look.end - (look.swingStart ?? look.start))
        if look.direction.isHorizontal { lastSide = look.direction }
        // Further swings of a nod or shake already reported belong to it.
        guard !recognised else { return }
        pending.append(look)
        switch look.direction {
        case .down: downs += 1
        case .left: lefts += 1
        case .right: rights += 1
        case .up: break
        }
        if downs >= 2 {
            events.append(.nod)
        } else if lefts >= 2 && rights >= 2 {
            events.append(.shake)
        } else {
            return
        }
        recognised = true
        pending.removeAll(keepingCapacity: true)
    }
}

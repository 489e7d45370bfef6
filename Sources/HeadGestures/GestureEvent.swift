/// A direction of the head, as the person sees it: `left` is turning to one's own left (on the
/// unmirrored image the face then moves to the right), `down` is looking down.
public enum GestureDirection: String, Sendable, Codable, CaseIterable {
    case left, right, up, down

    /// Whether the direction is left or right.
    public var isHorizontal: Bool { self == .left || self == .right }

    /// How far `offset` reaches in this direction; `offset` is in the upright unmirrored image
    /// (x right, y down), where turning to one's left moves the face to the right.
    @inlinable
    public func reach(of offset: SIMD2<Double>) -> Double {
        switch self {
        case .left: offset.x
        case .right: -offset.x
        case .down: offset.y
        case .up: -offset.y
        }
    }

    /// The direction `offset` reaches furthest in.
    @inlinable
    public static func dominant(_ offset: SIMD2<Double>) -> GestureDirection {
        if abs(offset.x) >= abs(offset.y) { return offset.x >= 0 ? .left : .right }
        return offset.y >= 0 ? .down : .up
    }
}

/// The pointer of one tracked frame: NodKit's "moved from … to … around the centre".
public struct PointerMove: Sendable, Hashable {
    /// The previous frame's pointer, upright image pixels.
    public var from: SIMD2<Double>
    /// This frame's pointer.
    public var to: SIMD2<Double>
    /// The idle zone's centre.
    public var centre: SIMD2<Double>
    /// `to - centre` in eye distances.
    public var offset: SIMD2<Double>
    /// Pixels per eye distance at this frame.
    public var scale: Double
    /// Idle radius in pixels at this frame, for drawing the zone.
    public var idleRadiusPixels: Double
    /// Whether the pointer is in the idle zone (with the hysteresis at its border).
    public var isInIdleZone: Bool

    /// A move from its parts.
    public init(
        from: SIMD2<Double>, to: SIMD2<Double>, centre: SIMD2<Double>, offset: SIMD2<Double>, scale: Double,
        idleRadiusPixels: Double, isInIdleZone: Bool
    ) {
        self.from = from
        self.to = to
        self.centre = centre
        self.offset = offset
        self.scale = scale
        self.idleRadiusPixels = idleRadiusPixels
        self.isInIdleZone = isInIdleZone
    }
}

/// Something the head did. Distances are in eye distances from the idle zone's centre.
public enum GestureEvent: Sendable, Hashable {
    /// Calibration finished: the idle zone is centred here (upright pixels).
    case startedTracking(centre: SIMD2<Double>, eyeDistance: Double)
    /// The face has been gone longer than the loss tolerance; calibration restarts when it returns.
    case stoppedTracking
    /// Continuous mode: the head went past the movement threshold.
    case startedLooking(GestureDirection, distance: Double)
    /// Continuous mode: the head came back.
    case stoppedLooking(GestureDirection)
    /// Discrete mode: the head looked that way and came back; `distance` is the furthest reach.
    case looked(GestureDirection, distance: Double)
    /// The head went quickly down and up at least twice.
    case nod
    /// The head went quickly left and right at least twice.
    case shake
    /// Every tracked frame: where the pointer went.
    case moved(PointerMove)

    /// The event's name in output: startedTracking, looked, nod, …
    public var typeName: String {
        switch self {
        case .startedTracking: "startedTracking"
        case .stoppedTracking: "stoppedTracking"
        case .startedLooking: "startedLooking"
        case .stoppedLooking: "stoppedLooking"
        case .looked: "looked"
        case .nod: "nod"
        case .shake: "shake"
        case .moved: "moved"
        }
    }

    /// The direction, for the looking events.
    public var direction: GestureDirection? {
        switch self {
        case .startedLooking(let d, _), .stoppedLooking(let d), .looked(let d, _): d
        default: nil
        }
    }

    /// The distance, for the events that carry one.
    public var distance: Double? {
        switch self {
        case .startedLooking(_, let d), .looked(_, let d): d
        default: nil
        }
    }

    /// Whether the event is a gesture an app would act on (not tracking state or movement).
    public var isGesture: Bool {
        switch self {
        case .startedLooking, .stoppedLooking, .looked, .nod, .shake: true
        case .startedTracking, .stoppedTracking, .moved: false
        }
    }
}

/// An event with the time of the frame that produced it.
public struct TimedGestureEvent: Sendable, Hashable {
    /// Seconds on the camera's clock.
    public var time: Double
    /// What happened.
    public var event: GestureEvent

    /// An event at `time`.
    public init(time: Double, event: GestureEvent) {
        self.time = time
        self.event = event
    }
}

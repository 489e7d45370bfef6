/// One look: the head went past the movement threshold in one direction and came back.
public struct Look: Sendable, Hashable {
    /// Which way.
    public var direction: GestureDirection
    /// When the pointer passed the movement threshold.
    public var start: Double
    /// When it came back (equal to `start` while the look lasts).
    public var end: Double
    /// The furthest reach in the direction, eye distances.
    public var peak: Double
    /// Seconds the reach stayed near its peak (within `Look.nearPeak` of it): a held look
    /// dwells there, a swing of a nod or shake turns straight back.
    public var holdSeconds = 0.0

    /// A swing that stayed short of the movement threshold, past the swing threshold only:
    /// it may be part of a nod or shake, but is no look.
    public var isSmallSwing = false
    /// Where a small swing ends, eye distances.
    var returnReach = 0.0
    /// When the swing passed the swing threshold, which may be before it passed the movement
    /// threshold (`start`): the pause between the swings of a nod ends here.
    public var swingStart: Double?

    /// Seconds past the threshold.
    public var duration: Double { end - start }

    /// The share of the peak that counts as near it.
    public static let nearPeak = 0.85
}

/// What changed in one frame: a look may end and another start (a shake swinging straight
/// from left to right does both).
public struct LookChange: Sendable, Hashable {
    /// The look that ended in this frame.
    public var ended: Look?
    /// The look that started in this frame (its `peak` is the distance at the start).
    public var started: Look?
}

/// The idle zone and the movement threshold: decides, frame by frame, whether the head rests
/// or looks somewhere.
///
/// A look starts once the reach in the dominant direction is at least the movement threshold
/// and ends once the reach in its direction falls below the return radius (the idle radius
/// shrunk by the hysteresis). The idle-zone flag itself also has the hysteresis: leaving
/// needs the radius, coming back the return radius.
public struct IdleZone: Sendable {
    /// Idle radius, eye distances.
    public let radius: Double
    /// Where a look ends and the zone is entered again.
    public let returnRadius: Double
    /// Where a look starts.
    public let threshold: Double
    /// Whether the pointer is in the zone.
    public private(set) var isInside = true
    /// The look under way, if any.
    public private(set) var current: Look?
    /// The reach in the current look's direction at each frame of it, for its hold.
    private var reaches: [(time: Double, reach: Double)] = []
    /// The last three offsets, whose mean judges small swings: one noisy frame must not
    /// start one.
    private var recent: [SIMD2<Double>] = []
    private let settings: GestureSettings
    /// Whether a small swing may start: only once the three-frame mean has come back below
    /// the swing threshold since the last look or swing ended, so that the tail of a return
    /// (which the mean still holds) is none.
    private var armed = true

    /// A zone with the settings' radius, hysteresis and threshold.
    public init(settings: GestureSettings) {
        radius = settings.idleRadius
        returnRadius = settings.returnRadius
        threshold = settings.movementThreshold
        self.settings = settings
        recent.reserveCapacity(3)
    }

    /// The mean of the last three offsets.
    public var smoothedOffset: SIMD2<Double> {
        recent.isEmpty ? .zero : recent.reduce(.zero, +) / Double(recent.count)
    }

    /// Takes this frame's offset from the centre (eye distances, upright image axes).
    /// `swingThresholds` (horizontal, vertical; below the movement threshold) also start
    /// small swings, judged on the three-frame mean; nil starts looks only.
    public mutating func update(offset: SIMD2<Double>, time: Double, swingThresholds: SIMD2<Double>? = nil) -> LookChange {
        if recent.count == 3 { recent.removeFirst() }
        recent.append(offset)
        let distance = norm(offset)
        if isInside, distance > radius { isInside = false }
        if !isInside, distance < returnRadius { isInside = true }
        var change = LookChange()
        if let thresholds = swingThresholds, !reaches(smoothedOffset, thresholds) { armed = true }
        if var look = current {
            let reach = look.direction.reach(of: offset)
            // A small swing that lasts is a change of posture, which the centre must follow.
            let over = look.isSmallSwing && (takenOver(offset, from: look) || time - look.start > settings.quickLookSeconds)
            if reach < (look.isSmallSwing ? look.returnReach : returnRadius) || over {
                look.end = time
                look.holdSeconds = holdSeconds(end: time)
                current = nil
                change.ended = look
                armed = false
            } else if look.isSmallSwing, reach >= threshold {
                // Past the movement threshold the swing is a look as if it started here.
                var grown = Look(direction: look.direction, start: time, end: time, peak: reach)
                grown.swingStart = look.start
                current = grown
                change.started = current
                reaches.removeAll(keepingCapacity: true)
                reaches.append((time, reach))
            } else {
                look.peak = max(look.peak, reach)
                reaches.append((time, reach))
                current = look
            }
        }
        if current == nil {
            // Checked after an end, so that a shake swinging straight from left to right
            // starts the next look in the same frame.
            let direction = GestureDirection.dominant(offset)
            let reach = direction.reach(of: offset)
            if reach >= threshold {
                current = Look(direction: direction, start: time, end: time, peak: reach)
                change.started = current
                reaches.removeAll(keepingCapacity: true)
                reaches.append((time, reach))
            } else if let swingThresholds {
                startSmallSwing(swingThresholds, time: time)
            }
        }
        return change
    }

    /// Whether `offset` reaches the swing threshold of its dominant direction's axis.
    private func reaches(_ offset: SIMD2<Double>, _ thresholds: SIMD2<Double>) -> Bool {
        let direction = GestureDirection.dominant(offset)
        return direction.reach(of: offset) >= (direction.isHorizontal ? thresholds.x : thresholds.y)
    }

    /// Starts a small swing where the three-frame mean reaches the swing threshold of its axis.
    private mutating func startSmallSwing(_ thresholds: SIMD2<Double>, time: Double) {
        let smoothed = smoothedOffset
        let direction = GestureDirection.dominant(smoothed)
        let limit = direction.isHorizontal ? thresholds.x : thresholds.y
        let reach = direction.reach(of: smoothed)
        guard armed, recent.count == 3, limit < threshold, reach >= limit, direction.reach(of: recent[2]) >= limit else { return }
        var look = Look(direction: direction, start: time, end: time, peak: reach)
        look.isSmallSwing = true
        look.returnReach = settings.swingReturn(limit)
        current = look
        reaches.removeAll(keepingCapacity: true)
        reaches.append((time, reach))
    }

    /// Whether the head has gone past the movement threshold in another direction during a
    /// small swing: the look there must start as it would have without the swing.
    private func takenOver(_ offset: SIMD2<Double>, from look: Look) -> Bool {
        let direction = GestureDirection.dominant(offset)
        return direction != look.direction && direction.reach(of: offset) >= threshold
    }

    /// Ends everything without a look coming back (the face was lost); returns the look
    /// that was under way.
    public mutating func reset(time: Double) -> Look? {
        defer {
            current = nil
            isInside = true
            recent.removeAll(keepingCapacity: true)
            armed = true
        }
        guard var look = current else { return nil }
        look.end = time
        look.holdSeconds = holdSeconds(end: time)
        return look
    }

    /// The time the current look's reach spent near its peak, each frame counted until the
    /// next. The reach is the median of three frames, so that one noisy frame neither sets
    /// the peak nor breaks the hold.
    private func holdSeconds(end: Double) -> Double {
        let smoothed = reaches.indices.map { k -> Double in
            let here = reaches[k].reach
            let before = reaches[max(0, k - 1)].reach, after = reaches[min(reaches.count - 1, k + 1)].reach
            return max(min(before, here), min(max(before, here), after))  // the median of three
        }
        let peak = smoothed.max() ?? 0
        var total = 0.0
        for (k, reach) in smoothed.enumerated() where reach >= Look.nearPeak * peak {
            total += (k + 1 < reaches.count ? reaches[k + 1].time : end) - reaches[k].time
        }
        return total
    }
}

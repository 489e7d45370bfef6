/// How a person answers "move the phone left" without seeing the screen: after a reaction
/// time a short, quick stroke in the announced direction, then the phone held still for a
/// moment to feel whether the vibration stops, and another stroke only if it goes on.
///
/// Why this and not a steady glide for as long as the instruction lasts: people correct a
/// position they cannot see in discrete submovements, a few per second with pauses between
/// (intermittent control: a choice reaction to a cue takes about 0.3 s, a corrective
/// submovement 0.2–0.3 s). And the glide is not something the app could ever stop: a phone
/// moving at `OperatorPath.steeringSpeed` smears 14 mm stickers past reading (about 6 px of
/// motion blur at 0.34 m), so the detector sees nothing until the phone is still again, and
/// an operator who never pauses is never told the head is back and sweeps past it.
struct DirectionResponse: Sendable {
    /// From the instruction to the first move, seconds.
    static let reactionTime = 0.3
    /// One stroke, seconds (at `OperatorPath.steeringSpeed`: 5 cm).
    static let strokeDuration = 0.25
    /// Holding still after a stroke before the next one, seconds.
    static let holdDuration = 0.25

    private enum Phase: Sendable {
        case idle
        case reacting(left: Double)
        case stroke(left: Double, x: Double, y: Double)
        case holding(left: Double)
    }

    private var phase = Phase.idle

    /// The move the phone makes during the next `dt` seconds (components in −1...1, x to the
    /// operator's right, y up), or nil while it is held still, given the direction in force
    /// now (nil: none, e.g. the vibration stopped). A stroke once begun is carried through.
    mutating func step(instruction: (x: Double, y: Double)?, dt: Double) -> (x: Double, y: Double)? {
        switch phase {
        case .idle:
            if instruction != nil { phase = .reacting(left: Self.reactionTime - dt) }
            return nil
        case .reacting(let left):
            guard let instruction else { phase = .idle; return nil }
            if left > 0 { phase = .reacting(left: left - dt); return nil }
            return startStroke(instruction, dt: dt)
        case .stroke(let left, let x, let y):
            phase = left > dt ? .stroke(left: left - dt, x: x, y: y) : .holding(left: Self.holdDuration)
            return (x, y)
        case .holding(let left):
            guard let instruction else { phase = .idle; return nil }
            if left > 0 { phase = .holding(left: left - dt); return nil }
            return startStroke(instruction, dt: dt)
        }
    }

    private mutating func startStroke(_ direction: (x: Double, y: Double), dt: Double) -> (x: Double, y: Double) {
        phase = .stroke(left: Self.strokeDuration - dt, x: direction.x, y: direction.y)
        return direction
    }
}

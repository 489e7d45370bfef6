import Markers

/// What the operator is told between frames: the simulator's operator follows it, so a
/// feedback engine can be tested in a closed loop.
public enum Steering: Sendable, Equatable {
    /// Carry on with the planned path.
    case none
    /// Step back from the head.
    case moveBack
    /// Come closer to the head.
    case moveCloser
    /// Move the phone in the operator's view: up, down, left, right or a diagonal
    /// (components in −1...1; x to the operator's right, y up).
    case movePhone(x: Double, y: Double)
    /// Go round to look at a region of the head.
    case goTo(HeadRegion)
    /// Walk slowly back the way the phone came, to a part of the head already scanned.
    case goBack
    /// Stop walking round, look at the infant and point the phone at the head again (the
    /// therapist cannot see the screen, but can see the infant).
    case findHead
}

/// Something about a measurement that makes it less trustworthy, with what to do.
public enum AnalysisWarning: Sendable, Equatable, Codable {
    /// The knee moved less than the setting between its smallest and largest angle.
    case smallMotion(degrees: Double, minimum: Double)
    /// The hip, knee or ankle was at or beyond the picture's edge in this many frames.
    case leftPicture(frames: Int)
    /// The leg left the picture at an end of the movement (the most bent one when
    /// `mostBent`, else the straightest): that end was not seen, and the knee may go further.
    case endLeftPicture(mostBent: Bool)
    /// The camera looked at the leg from roughly this many degrees off the patient's side.
    case notSideOn(degrees: Double)
    /// Only this many frames passed.
    case fewFrames(Int)
    /// The video never bends the knee enough to tell flexion from hyperextension.
    case unknownFlexionSense

    /// The warning in words.
    public var message: String {
        switch self {
        case .smallMotion(let degrees, let minimum):
            "The knee moved through only \(Int(degrees.rounded()))° (less than \(Int(minimum.rounded()))°): bend and straighten the knee as far as it goes."
        case .leftPicture(let frames):
            "The leg was at or beyond the edge of the picture in \(frames) frame\(frames == 1 ? "" : "s"): keep the whole leg, hip to foot, in the picture."
        case .endLeftPicture(let mostBent):
            mostBent
                ? "The leg left the picture where the knee was most bent: the knee may bend further than measured. Film from further away, the whole leg in the picture."
                : "The leg left the picture where the knee was straightest: the knee may straighten further than measured. Film from further away, the whole leg in the picture."
        case .notSideOn(let degrees):
            "The camera seems about \(Int(degrees.rounded()))° off the side of the leg: angles seen at a slant are wrong, so film the knee from the side."
        case .fewFrames(let count):
            "Only \(count) frame\(count == 1 ? "" : "s") could be measured: film for longer, at least two full bends."
        case .unknownFlexionSense:
            "The knee never bent enough to tell bending from over-straightening: hyperextension is not measured."
        }
    }
}

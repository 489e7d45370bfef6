import Feedback
import Geometry
import Markers
import Scanning

/// The simulated therapist's ears: hears each guided frame and decides how the phone moves
/// before the next one. Used by the demo, the benchmarks and the closed-loop tests alike, so
/// they all measure the same behaviour.
public final class SimulatedOperator: PipelineSink {
    /// Whether the operator does what the feedback says or carries on regardless.
    public let follows: Bool
    /// What the operator does until the next frame.
    public private(set) var steering = Steering.none
    private var region: (HeadRegion, Double)?
    /// Since when the operator has been walking back on being told the head was lost, or
    /// looking for the head on being told it left the picture.
    private var walkingBackSince: Double?
    private var lookingSince: Double?

    /// An operator who follows the feedback, or ignores it.
    public init(follows: Bool = true) { self.follows = follows }

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) { hear(frame.update) }

    /// Reacts to one update of the guide.
    public func hear(_ update: GuidanceUpdate) {
        guard follows else { return }
        steering = Self.response(to: update, region: &region, walkingBackSince: &walkingBackSince, lookingSince: &lookingSince)
    }

    /// How long an operator told to go back walks back before carrying on as planned, seconds:
    /// at `OperatorPath.walkBackSpeed` 45° round the head, about as far as the planned walk
    /// goes on in the two seconds a head is typically lost for.
    public static let longestWalkBack = 3.0
    /// How long an operator told there is no head in the picture looks for it before carrying
    /// on, seconds.
    public static let longestLook = 3.0

    /// What an operator who follows the feedback does after `update`: too close → step back,
    /// a direction → move the phone that way, region guidance → go round there while the head
    /// is in view (it is about coverage, not position) for three seconds after it was said,
    /// "go back" → walk slowly back the way they came until the vibration stops (the head is
    /// placed again), or for `longestWalkBack` seconds; "no head in the picture" → stop, look
    /// at the infant and point the phone at the head until the guide says otherwise, or for
    /// `longestLook` seconds.
    static func response(
        to update: GuidanceUpdate, region: inout (HeadRegion, Double)?, walkingBackSince: inout Double?, lookingSince: inout Double?
    ) -> Steering {
        for case .speak(.regionMissing(let r), _) in update.events { region = (r, update.time) }
        for case .speak(.goBack, _) in update.events where walkingBackSince == nil { walkingBackSince = update.time }
        for case .speak(.noHead, _) in update.events where lookingSince == nil { lookingSince = update.time }
        if update.published.kind != .off || update.published.direction != .none { lookingSince = nil }
        if update.published.kind == .ideal { walkingBackSince = nil }
        if let since = walkingBackSince, update.time - since >= longestWalkBack { walkingBackSince = nil }
        if let since = lookingSince, update.time - since >= longestLook { lookingSince = nil }
        switch update.published.kind {
        case .tooClose: return .moveBack
        case .off where update.published.direction != .none:
            let d = update.published.direction
            return .movePhone(x: Double(d.horizontal), y: Double(d.vertical))
        case .off where walkingBackSince != nil:
            return .goBack
        case .off where lookingSince != nil:
            return .findHead
        case .ideal:
            if let (r, since) = region, update.time - since < 3 { return .goTo(r) }
            return .none
        default:
            return .none
        }
    }
}

extension FrameTruth {
    /// What the guide would observe of this frame with a perfect detector: the corners as
    /// projected, and depth missing on every corner when the camera is nearer than 0.2 m to
    /// the head's centre (the TrueDepth near limit). For quick closed loops without rendering.
    public func exactObservation(intrinsics k: CameraIntrinsics) -> FrameObservation {
        let m = meshFromCamera
        let distance = (m[3] * m[3] + m[7] * m[7] + m[11] * m[11]).squareRoot()
        let depth: Float = distance < 0.2 ? .nan : Float(distance)
        return FrameObservation(
            timestamp: timestamp, width: k.width, height: k.height,
            markers: markers.map { ObservedMarker(id: $0.id, corners: $0.corners.map { SIMD2($0[0], $0[1]) }, depths: [depth, depth, depth, depth]) })
    }
}

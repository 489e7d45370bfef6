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

    /// An operator who follows the feedback, or ignores it.
    public init(follows: Bool = true) { self.follows = follows }

    public func receive(_ frame: GuidedFrame, guide: ScanGuide) { hear(frame.update) }

    /// Reacts to one update of the guide.
    public func hear(_ update: GuidanceUpdate) {
        guard follows else { return }
        steering = Self.response(to: update, region: &region)
    }

    /// What an operator who follows the feedback does after `update`: too close → step back,
    /// a direction → move the phone that way, region guidance → go round there while the head
    /// is in view (it is about coverage, not position) for three seconds after it was said.
    static func response(to update: GuidanceUpdate, region: inout (HeadRegion, Double)?) -> Steering {
        for case .speak(.regionMissing(let r), _) in update.events { region = (r, update.time) }
        switch update.published.kind {
        case .tooClose: return .moveBack
        case .off where update.published.direction != .none:
            let d = update.published.direction
            return .movePhone(x: Double(d.horizontal), y: Double(d.vertical))
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

import Feedback
import Markers

/// A square marker centred at (x, y) in raw image pixels, printed top toward -y.
func marker(_ id: Int, x: Double, y: Double, side: Double = 20, invalid: Bool = false) -> ObservedMarker {
    let h = side / 2
    return ObservedMarker(
        id: id, corners: [SIMD2(x - h, y - h), SIMD2(x + h, y - h), SIMD2(x + h, y + h), SIMD2(x - h, y + h)],
        depths: invalid ? [.nan, 0.3, 0.3, 0.3] : [0.3, 0.3, 0.3, 0.3])
}

/// A frame of a 640x480 image.
func frame(_ t: Double, _ markers: [ObservedMarker]) -> FrameObservation {
    FrameObservation(timestamp: t, width: 640, height: 480, markers: markers)
}

/// A cap of `count` markers (IDs 0..<count) spread evenly over the five regions.
func cap(_ count: Int) -> CapLayout {
    let regions = HeadRegion.allCases
    return CapLayout(
        dictionaryName: "4x4_100", markerSideMillimetres: 14,
        markers: (0..<count).map { CapMarker(id: $0, region: regions[$0 * regions.count / count]) })
}

/// Settings without the ear/face requirement, for tests of the original rules.
func plainSettings(_ change: (inout FeedbackSettings) -> Void = { _ in }) -> FeedbackSettings {
    var s = FeedbackSettings()
    s.requireEarsAndFace = false
    change(&s)
    return s
}

/// Feeds frames 1/30 s apart starting at `t0`; returns every update.
func feed(_ guide: inout ScanGuide, _ frames: [[ObservedMarker]], from t0: Double = 0) -> [GuidanceUpdate] {
    frames.enumerated().map { guide.update(frame(t0 + Double($0.offset) / 30, $0.element)) }
}

extension [GuidanceUpdate] {
    var events: [FeedbackEvent] { flatMap(\.events) }
}

/// Two green-able markers near the centre: an ideal frame once they are known.
let centred = [marker(0, x: 320, y: 240), marker(1, x: 340, y: 240)]

import Feedback
import Markers
import Testing

/// The ear rule on hand-made markers: an ear counts when the markers right above it face the
/// camera, not when they are slivers seen edge-on (the view from behind or from the front).
struct EarRuleTests {
    func marker(_ id: Int, _ corners: [[Double]]) -> ObservedMarker {
        ObservedMarker(id: id, corners: corners.map { SIMD2($0[0], $0[1]) }, depths: [0.3, 0.3, 0.3, 0.3])
    }

    @Test func edgeOnMarkersAboveAnEarDoNotCountButFacingOnesDo() {
        let settings = FeedbackSettings()
        // Two markers as a camera in front of the face and above saw them (the recording's pixels).
        let edgeOn = [
            marker(13, [[299, 348], [312, 352], [289, 347], [275, 344]]),
            marker(18, [[360, 352], [371, 352], [346, 353], [334, 353]]),
        ]
        #expect(!FeatureRule.isInPicture(.leftEar, markers: edgeOn, width: 640, height: 480, settings: settings))
        // The same markers seen from the side: squares 20 px wide, top edge up.
        let facing = [
            marker(13, [[300, 200], [320, 200], [320, 220], [300, 220]]),
            marker(18, [[340, 205], [360, 205], [360, 225], [340, 225]]),
        ]
        #expect(FeatureRule.isInPicture(.leftEar, markers: facing, width: 640, height: 480, settings: settings))
        // The face keeps its own rule: a marker squashed sideways still shows the nose below it.
        #expect(FeatureRule.isInPicture(.face, markers: facing, width: 640, height: 480, settings: settings))
    }

    @Test func onlyTheMarkersRightAboveAnEarSpeakForIt() {
        let layout = CapLayout.standard
        #expect(layout.earMarkers(.left) == [13, 14, 18])
        #expect(layout.earMarkers(.right) == [25, 26, 30])
        // A layout without placements cannot say which sit above the ear: all of the region's.
        var unplaced = layout
        unplaced.markers = layout.markers.map { CapMarker(id: $0.id, region: $0.region) }
        #expect(unplaced.earMarkers(.left) == layout.ids(in: .left))
    }
}

import Markers

/// Decides whether the face or an ear is in the picture, from the cap's markers alone.
///
/// The face and the ears lie below the cap, where no marker is, so the rule reasons from the
/// markers just above them. Every sticker is glued with its printed top toward the crown, so
/// in the image the vector from a marker's top edge to its bottom edge points down the head,
/// and its length is the printed marker side: it is both the head's "down" and the scale in
/// pixels per metre at that spot. The face (ear) is in the picture when
/// 1. at least `featureMinMarkers` markers of the front (left, right) region are detected;
/// 2. the lowest of them, continued down the head by `faceReach` (`earReach`) from its
///    centre, still lands inside the picture, so the point where the nose (ear) sits is
///    imaged; and
/// 3. that marker is seen from no more than about 60° above or below (its top-to-bottom side
///    at least half as long as its left-to-right side): a camera high over the crown sees the
///    front markers squashed, and the face hidden under the brow even if the point lands in
///    the picture; and
/// 4. for an ear, the markers are the ones right above it (`CapLayout.earMarkers`) and that
///    marker faces the camera within about 53° in every direction: from behind, in front or
///    above, the ear is edge-on or hidden by the head although the point below lands in the
///    picture.
/// The simulator's head checks it: whenever the rule fires, the true nose tip (tragion)
/// projects into the picture (FeedbackTests).
public enum FeatureRule {
    /// The region whose markers sit above a feature.
    public static func region(of feature: HeadFeature) -> HeadRegion {
        switch feature {
        case .face: .front
        case .leftEar: .left
        case .rightEar: .right
        }
    }

    /// An ear's marker must look at least this square (apparent area over its longer side
    /// squared, the cosine of the angle it is seen at): 0.6 is about 53° off face-on.
    static let earFacing = 0.6

    /// Whether `feature` is in the picture, given the frame's markers that sit on its region.
    public static func isInPicture(
        _ feature: HeadFeature, markers: [ObservedMarker], width: Int, height: Int, settings: FeedbackSettings
    ) -> Bool {
        guard markers.count >= settings.featureMinMarkers else { return false }
        var meanDown = SIMD2<Double>.zero
        for m in markers { meanDown += down(m) }
        var lowest = markers[0]
        var lowestHeight = -Double.infinity
        for m in markers {
            let c = centre(m)
            let h = c.x * meanDown.x + c.y * meanDown.y
            if h > lowestHeight {
                lowestHeight = h
                lowest = m
            }
        }
        let d = down(lowest)
        let across = (lowest.corners[1] + lowest.corners[2] - lowest.corners[0] - lowest.corners[3]) / 2
        guard lengthSquared(d) >= 0.25 * lengthSquared(across) else { return false }
        // An ear's marker must face the camera: an edge-on marker is a sliver whose sides may
        // both still look long, so its area tells, not its sides.
        if feature != .face, abs(d.x * across.y - d.y * across.x) < Self.earFacing * max(lengthSquared(d), lengthSquared(across)) { return false }
        let reach = feature == .face ? settings.faceReach : settings.earReach
        let p = centre(lowest) + d * (reach / settings.markerSide)
        return p.x >= 0 && p.y >= 0 && p.x <= Double(width - 1) && p.y <= Double(height - 1)
    }

    /// From the middle of the top edge to the middle of the bottom edge.
    private static func down(_ m: ObservedMarker) -> SIMD2<Double> {
        (m.corners[2] + m.corners[3] - m.corners[0] - m.corners[1]) / 2
    }

    private static func centre(_ m: ObservedMarker) -> SIMD2<Double> {
        (m.corners[0] + m.corners[1] + m.corners[2] + m.corners[3]) / 4
    }

    private static func lengthSquared(_ v: SIMD2<Double>) -> Double { v.x * v.x + v.y * v.y }
}

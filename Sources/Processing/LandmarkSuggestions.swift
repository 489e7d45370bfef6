import Cephalometry
import Foundation
import Geometry
import Reconstruction
import Recording
import ScanLibrary

/// The landmarks HeadScan found on a measured head, shown on the replay's frames for the
/// therapist to confirm: where each lies in a frame whose camera pose the reconstruction
/// knows (its keyframes), the frames that show it best, and a pick's snap onto it.
public struct LandmarkSuggestions: Sendable {
    /// Found landmarks, metres, in the reconstruction's frame.
    public let points: [Landmark: SIMD3<Double>]
    /// Per landmark, the keyframes that face it most squarely.
    public let bestFrames: [Landmark: [Int]]
    /// The keyframes as the reconstruction saw them, by frame index.
    private let views: [Int: ReconstructedView]

    /// A pick this close to a found landmark (pixels) is taken to mean it and lands on it.
    public static let snapRadius = 12.0

    public init(found: AutomaticLandmarks, views: [ReconstructedView]) {
        var points: [Landmark: SIMD3<Double>] = [:], best: [Landmark: [Int]] = [:]
        for landmark in Landmark.allCases {
            let d = found[landmark]
            points[landmark] = d.point
            best[landmark] = d.bestFrames
        }
        self.points = points
        bestFrames = best
        self.views = Dictionary(views.map { ($0.frameIndex, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The suggestions of a measured session; nil when it was measured without finding the
    /// landmarks or has no reconstruction record.
    public static func load(library: ScanLibrary, session: ScanSession) -> LandmarkSuggestions? {
        guard let measurement = try? library.measurement(in: session), let found = measurement.automaticLandmarks,
            let record = try? library.document(ReconstructionRecord.self, in: session),
            let header = try? ScanReader(url: session.scanURL).header
        else { return nil }
        return LandmarkSuggestions(
            found: found, views: record.keyframeViews(camera: record.statistics.camera(recorded: header.colorIntrinsics)))
    }

    /// Where `landmark` appears in frame `index`, pixels; nil unless the frame's pose is known
    /// and the landmark lies in front of the camera and inside the picture.
    public func pixel(of landmark: Landmark, inFrame index: Int) -> SIMD2<Double>? {
        guard let point = points[landmark], let view = views[index], let p = view.project(point), view.contains(rawPixel: p) else { return nil }
        return p
    }

    /// A pick at `pixel` of frame `index`: on the found landmark when it lies within the snap
    /// radius, else where it was placed.
    public func snapped(_ pixel: SIMD2<Double>, for landmark: Landmark, inFrame index: Int) -> SIMD2<Double> {
        guard let found = self.pixel(of: landmark, inFrame: index), Geometry.distance(found, pixel) <= Self.snapRadius else { return pixel }
        return found
    }
}

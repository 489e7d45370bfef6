import Cephalometry
import Foundation
import Geometry
import Markers
import Reconstruction
import Recording
import ScanLibrary

/// Landmarks found on a reconstruction without picks: the cap's markers tell roughly how the
/// head lies, the mesh's shape tells where the landmarks are, and the keyframes tell where
/// each is seen best.
public enum AutomaticLandmarking {
    /// The head's rough orientation from the mapped markers: their places on a sphere (from
    /// the layout's placements, or their region's middle) fitted to where the map has them.
    public static func orientation(map: MarkerMap, layout: CapLayout) -> HeadOrientation? {
        guard let (headFromMesh, sphere) = map.headFrame(layout: layout) else { return nil }
        let lowest = map.corners.values.flatMap { $0 }.map { headFromMesh.apply($0).z }.min() ?? 0
        return HeadOrientation(headFromMesh: headFromMesh, capRim: lowest - map.unseenRingsDrop(layout: layout, radius: sphere.radius))
    }

    /// The landmarks of `mesh`, each with the keyframes that face it most squarely from a
    /// usable distance; or why they could not be found.
    static func find(
        mesh: TriangleMesh, map: MarkerMap, layout: CapLayout, views: [ReconstructedView]
    ) -> Result<AutomaticLandmarks, CephalometryError> {
        guard let orientation = orientation(map: map, layout: layout) else {
            return .failure(.unusableMesh("too few markers were mapped to tell how the head lies; pick the landmarks"))
        }
        return find(mesh: mesh, orientation: orientation, views: views)
    }

    /// The same, on a mesh whose head frame is known another way (a printed cap's print).
    static func find(
        mesh: TriangleMesh, orientation: HeadOrientation, views: [ReconstructedView]
    ) -> Result<AutomaticLandmarks, CephalometryError> {
        do {
            var found = try LandmarkDetector.detect(mesh, orientation: orientation)
            for landmark in Landmark.allCases {
                found[landmark].bestFrames = bestFrames(for: found[landmark], views: views)
            }
            return .success(found)
        } catch {
            return .failure(error)
        }
    }

    /// Frames shown to confirm a landmark: at most this many.
    static let framesPerLandmark = 3
    /// A view counts from this near to this far, metres (TrueDepth's sharp, dense range).
    static let usableDistance = 0.15...0.7

    /// Keyframes in which `landmark` lies in the picture, at a usable distance, in order of
    /// how squarely they face it.
    static func bestFrames(for landmark: DetectedLandmark, views: [ReconstructedView]) -> [Int] {
        let scored: [(Int, Double)] = views.compactMap { view in
            let toCamera = view.position - landmark.point
            let distance = length(toCamera)
            guard usableDistance.contains(distance), let pixel = view.project(landmark.point),
                pixel.x > 20, pixel.y > 20, pixel.x < Double(view.width) - 20, pixel.y < Double(view.height) - 20
            else { return nil }
            let facing = dot(toCamera / distance, landmark.normal)
            return facing > 0.5 ? (view.frameIndex, facing) : nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(framesPerLandmark).map(\.0)
    }
}

import AppModel
import Feedback
import Foundation
import Geometry

/// Made-up point clouds for previews and tests: an infant's head seen from the front.
public enum PreviewCloud {
    /// A head-sized ellipsoid 35 cm in front of a 640x480 camera, its near half sampled on a
    /// grid of about `points` points, shaded by how it faces the camera; markers on it in the
    /// three states (green ones seen again, red ones new) and some seen before and out of view.
    public static func head(points: Int = 2000, green: Int = 6, red: Int = 3, blue: Int = 8) -> PointCloudPreview {
        let camera = CameraIntrinsics(fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)
        let centre = SIMD3<Double>(0, 0, 0.35)
        let radii = SIMD3<Double>(0.06, 0.07, 0.075)
        let side = max(2, Int(Double(points).squareRoot()))
        var cloud: [SIMD3<Float>] = []
        var colours: [SIMD3<UInt8>] = []
        for row in 0..<side {
            for column in 0..<side {
                // Grid over the ellipsoid's silhouette; the near surface point of each cell.
                let u = Double(column) / Double(side - 1) * 2 - 1
                let v = Double(row) / Double(side - 1) * 2 - 1
                let r2 = u * u + v * v
                guard r2 < 1 else { continue }
                let facing = (1 - r2).squareRoot()
                let p = centre + SIMD3(u * radii.x, v * radii.y, -facing * radii.z)
                cloud.append(SIMD3(Float(p.x), Float(p.y), Float(p.z)))
                let shade = 90 + 150 * facing
                colours.append(SIMD3(UInt8(shade), UInt8(shade * 0.8), UInt8(shade * 0.7)))
            }
        }
        var markers: [CloudMarker] = []
        let shown = green + red
        for i in 0..<shown {
            // On a ring around the forehead, in front.
            let angle = Double(i) / Double(max(shown, 1)) * 2 * .pi
            let u = 0.6 * cos(angle), v = 0.6 * sin(angle) - 0.2
            let facing = max(0, 1 - u * u - v * v).squareRoot()
            let p = centre + SIMD3(u * radii.x, v * radii.y, -facing * radii.z)
            markers.append(CloudMarker(id: i, state: i < green ? .green : .red, position: SIMD3(Float(p.x), Float(p.y), Float(p.z))))
        }
        for i in 0..<blue { markers.append(CloudMarker(id: shown + i, state: .blue, position: nil)) }
        let spacing = 2 * radii.x / Double(side - 1) * camera.fx / centre.z
        return PointCloudPreview(points: cloud, colours: colours, markers: markers, camera: camera, spacing: spacing)
    }
}

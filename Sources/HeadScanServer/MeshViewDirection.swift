import Foundation
import Geometry

/// Where the 3D view first looks at the head from: from above (about 45° from the vertex, so
/// that the outline CVAI is measured on shows), in front and to the child's right, with the
/// top of the head up. The head's axes come from the landmarks in `measurement.json` (in the
/// mesh's frame): x toward the right tragion, y toward the nasion, z up. Without landmarks
/// the view keeps its default.
struct MeshViewDirection: Equatable {
    /// Unit vector from the head's centre toward the camera.
    var toCamera: SIMD3<Double>
    /// Unit vector that is up on the screen.
    var up: SIMD3<Double>

    /// The direction for a measurement document, nil when it has no usable landmarks.
    init?(measurement data: Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let landmarks = object["landmarks"] as? [String: Any]
        else { return nil }
        func point(_ name: String) -> SIMD3<Double>? {
            guard let values = landmarks[name] as? [Any], values.count == 3 else { return nil }
            let numbers = values.compactMap { ($0 as? NSNumber)?.doubleValue }
            guard numbers.count == 3, numbers.allSatisfy(\.isFinite) else { return nil }
            return SIMD3(numbers[0], numbers[1], numbers[2])
        }
        guard let nasion = point("nasion"), let left = point("leftTragion"), let right = point("rightTragion") else { return nil }
        self.init(nasion: nasion, leftTragion: left, rightTragion: right)
    }

    init?(nasion: SIMD3<Double>, leftTragion: SIMD3<Double>, rightTragion: SIMD3<Double>) {
        let across = rightTragion - leftTragion
        guard length(across) > 1e-6 else { return nil }
        let x = normalized(across)
        let ahead = nasion - (leftTragion + rightTragion) / 2
        let y0 = ahead - x * dot(ahead, x)
        guard length(y0) > 1e-6 else { return nil }
        let y = normalized(y0)
        let z = cross(x, y)
        toCamera = normalized(x * 0.5 + y * 0.6 + z * 0.75)
        up = z
    }

    /// `x,y,z` for a data attribute.
    static func attribute(_ v: SIMD3<Double>) -> String {
        [v.x, v.y, v.z].map { String(format: "%.5f", $0) }.joined(separator: ",")
    }
}

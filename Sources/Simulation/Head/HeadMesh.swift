import Foundation
import Geometry

/// Triangle meshes of a `HeadModel`: the skull surface, the ears and the nose, kept as
/// separate closed components (as a clinician's ruler would treat them).
public enum HeadMesh {
    /// Outline segments around the head (1°, so the mesh follows the outline within microns).
    public static let segments = 360
    /// Elevation steps from chin to crown (1.5°); even, so one ring lies on the widest outline.
    public static let elevationSteps = 120

    /// The whole head: skull, ears and nose.
    public static func make(_ head: HeadModel) -> TriangleMesh {
        var mesh = skull(head)
        mesh.append(ear(head, side: -1))
        mesh.append(ear(head, side: 1))
        mesh.append(nose(head))
        return mesh
    }

    /// The skull and face surface as rings of constant elevation, closed at chin and crown;
    /// `segments` around and `elevationSteps` from chin to crown (coarser for quick tests,
    /// finer for timing).
    public static func skull(_ head: HeadModel, segments: Int = segments, elevationSteps: Int = elevationSteps) -> TriangleMesh {
        var mesh = TriangleMesh()
        let rings = elevationSteps - 1
        for k in 1...rings {
            let psi = -Double.pi / 2 + Double(k) * Double.pi / Double(elevationSteps)
            for i in 0..<segments {
                mesh.vertices.append(head.surfacePoint(phi: Double(i) * 2 * Double.pi / Double(segments), psi: psi))
            }
        }
        let chin = Int32(mesh.vertices.count)
        mesh.vertices.append(head.surfacePoint(phi: 0, psi: -Double.pi / 2))
        let crown = Int32(mesh.vertices.count)
        mesh.vertices.append(head.surfacePoint(phi: 0, psi: Double.pi / 2))
        func v(_ ring: Int, _ i: Int) -> Int32 { Int32(ring * segments + (i % segments)) }
        for ring in 0..<(rings - 1) {
            for i in 0..<segments {
                mesh.faces.append(SIMD3(v(ring, i), v(ring, i + 1), v(ring + 1, i + 1)))
                mesh.faces.append(SIMD3(v(ring, i), v(ring + 1, i + 1), v(ring + 1, i)))
            }
        }
        for i in 0..<segments {
            mesh.faces.append(SIMD3(chin, v(0, i + 1), v(0, i)))
            mesh.faces.append(SIMD3(crown, v(rings - 1, i), v(rings - 1, i + 1)))
        }
        return mesh
    }

    /// An ear: a flat ellipsoid behind the tragion, half sunk into the head.
    public static func ear(_ head: HeadModel, side: Double) -> TriangleMesh {
        let tragion = side < 0 ? head.landmarks.leftTragion : head.landmarks.rightTragion
        let centre = SIMD3(tragion.x + side * 0.002, -0.013, -0.004)
        let tilt = Rotation3(axis: SIMD3(1, 0, 0), angle: -0.25)
        return ellipsoid(halfSize: SIMD3(0.006, 0.011, 0.017), rotation: tilt, centre: centre)
    }

    /// The nose: an ellipsoid on the face below the nasion; its front is the nose tip.
    static func nose(_ head: HeadModel) -> TriangleMesh {
        let centre = Landmarks.noseCentre(outline: head.outline, widestHeight: head.widestHeight, faceDepth: head.faceDepth)
        return ellipsoid(halfSize: Landmarks.noseHalfSize, rotation: .identity, centre: centre)
    }

    /// A closed ellipsoid with outward-wound faces; its ±y poles are vertices.
    static func ellipsoid(
        halfSize: SIMD3<Double>, rotation: Rotation3, centre: SIMD3<Double>, around: Int = 32, rings: Int = 16
    ) -> TriangleMesh {
        var mesh = TriangleMesh()
        // Poles on ±y so the nose tip (front pole) is a vertex of the mesh.
        for k in 1..<rings {
            let theta = Double(k) / Double(rings) * Double.pi
            for i in 0..<around {
                let a = Double(i) / Double(around) * 2 * Double.pi
                let unit = SIMD3(sin(theta) * sin(a), -cos(theta), sin(theta) * cos(a))
                mesh.vertices.append(centre + rotation.apply(unit * halfSize))
            }
        }
        let back = Int32(mesh.vertices.count)
        mesh.vertices.append(centre + rotation.apply(SIMD3(0, -halfSize.y, 0)))
        let front = Int32(mesh.vertices.count)
        mesh.vertices.append(centre + rotation.apply(SIMD3(0, halfSize.y, 0)))
        func v(_ ring: Int, _ i: Int) -> Int32 { Int32(ring * around + (i % around)) }
        for ring in 0..<(rings - 2) {
            for i in 0..<around {
                mesh.faces.append(SIMD3(v(ring, i), v(ring + 1, i + 1), v(ring + 1, i)))
                mesh.faces.append(SIMD3(v(ring, i), v(ring, i + 1), v(ring + 1, i + 1)))
            }
        }
        for i in 0..<around {
            mesh.faces.append(SIMD3(back, v(0, i + 1), v(0, i)))
            mesh.faces.append(SIMD3(front, v(rings - 2, i), v(rings - 2, i + 1)))
        }
        return mesh
    }
}

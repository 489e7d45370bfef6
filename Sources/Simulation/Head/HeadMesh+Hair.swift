import Geometry

extension HeadMesh {
    /// Height over which the lift fades in above the cap's lower edge, metres: the fabric
    /// leaves the skin there.
    static let hairFade = 0.008

    /// `mesh` (`make(head)`, the skull's vertices first) as the depth camera sees it under a
    /// cap lifted by `hair`: each skull vertex above the cap's lower edge moved out along the
    /// skull's normal by the hair's stand-off there, fading in over `hairFade` above the edge.
    /// Ears and nose, below the cap, stay.
    static func lifted(_ mesh: TriangleMesh, of head: HeadModel, by hair: HairField) -> TriangleMesh {
        lifted(mesh, of: head, by: hair, from: { _ in Cap.lowerEdge })
    }

    /// `mesh` as the depth camera sees a bare head whose own hair stands off the scalp above
    /// its hairline (`BareHair.hairline`), fading in over `hairFade` above it.
    static func lifted(_ mesh: TriangleMesh, of head: HeadModel, byBareHair hair: HairField) -> TriangleMesh {
        lifted(mesh, of: head, by: hair, from: BareHair.hairline(at:))
    }

    /// Each skull vertex lifted along the skull's normal by `hair` above the height `edge`
    /// gives for its direction.
    private static func lifted(
        _ mesh: TriangleMesh, of head: HeadModel, by hair: HairField, from edge: (SIMD3<Double>) -> Double
    ) -> TriangleMesh {
        var lifted = mesh
        let rings = elevationSteps - 1
        for ring in 0..<rings {
            let psi = -Double.pi / 2 + Double(ring + 1) * Double.pi / Double(elevationSteps)
            for i in 0..<segments {
                let index = ring * segments + i
                let point = mesh.vertices[index]
                let fade = min(1, max(0, (point.z - edge(point)) / hairFade))
                guard fade > 0 else { continue }
                let normal = head.surfaceNormal(phi: Double(i) * 2 * Double.pi / Double(segments), psi: psi)
                lifted.vertices[index] = point + normal * (hair.standOff(toward: point) * fade)
            }
        }
        // The crown, after the rings and the chin.
        let crown = rings * segments + 1
        lifted.vertices[crown] += SIMD3(0, 0, hair.standOff(toward: mesh.vertices[crown]))
        return lifted
    }
}

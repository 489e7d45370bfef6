import Foundation
import Geometry

/// Triangle meshes of a `HeadModel`: the skull surface, the ears and the nose, kept as
/// separate closed components (as a clinician's ruler would treat them); the ears and the nose
/// are reliefs that rise out of the skull.
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
        if head.parameters.ears.hasSunkConcha { sinkConchas(&mesh, head) }
        return mesh
    }

    /// Sinks the skin under each ear's concha: the ear's relief patch lies a little above the
    /// sunk skin there, so that the patch's fine grid, not the skull's coarser rings, is the
    /// bowl a camera sees.
    static func sinkConchas(_ mesh: inout TriangleMesh, _ head: HeadModel) {
        let shape = head.parameters.ears
        let (backs, ups) = earExtent(shape)
        for side in [-1.0, 1.0] {
            let tragion = side < 0 ? head.landmarks.leftTragion : head.landmarks.rightTragion
            for k in mesh.vertices.indices {
                let p = mesh.vertices[k]
                let (back, up) = (tragion.y - p.y, p.z - tragion.z)
                guard p.x * side > 0, backs.contains(back), ups.contains(up) else { continue }
                // The deepest relief within a skull triangle's reach, so that a triangle across
                // the bowl's wall lies under the wall, not through it.
                let relief = skullReach.map { earHeight(shape, back: back + $0.x, up: up + $0.y, z: p.z + $0.y) }.min() ?? 0
                guard relief < 0 else { continue }
                let below = 2 * reliefSink * smoothstep(-relief / 0.001)
                mesh.vertices[k].x += side * (relief - below)
            }
        }
    }

    /// The vertex itself and points 1.6 mm around it: the skull's rings lie 1–1.5 mm apart.
    static let skullReach: [SIMD2<Double>] =
        [SIMD2(0, 0)] + (0..<12).map { k in SIMD2(cos(Double(k) * Double.pi / 6), sin(Double(k) * Double.pi / 6)) * 0.0016 }

    /// The ear's relief `back` and `up` from the tragion at height `z`, pressed flat under the
    /// cap's rim.
    static func earHeight(_ shape: EarShape, back: Double, up: Double, z: Double) -> Double {
        let capFlat = Cap.lowerEdge - 0.002
        let pressed = 1 - smoothstep((z - (capFlat - 0.005)) / 0.005)
        return shape.height(back: back, up: up) * pressed
    }

    /// How deep a relief's patch lies under the skin where the relief is flat, metres: the
    /// ear and nose rise out of the head where their height passes this.
    static let reliefSink = 0.0006
    /// Grid step of the ear and nose patches, metres.
    static let reliefStep = 0.0005

    /// An ear on the left (`side` −1) or right (1): `EarShape`'s relief around the tragion,
    /// pressed flat under the cap's rim.
    public static func ear(_ head: HeadModel, side: Double) -> TriangleMesh {
        let shape = head.parameters.ears
        let tragion = side < 0 ? head.landmarks.leftTragion : head.landmarks.rightTragion
        let (backs, ups) = earExtent(shape)
        // A sunk concha lies deeper than the closing fan's triangles would: its patch is closed
        // by a shell instead.
        return reliefPatch(xs: backs, ys: ups, outward: SIMD3(side, 0, 0), shell: shape.hasSunkConcha) { back, up in
            let z = tragion.z + up
            let height = earHeight(shape, back: back, up: up, z: z)
            return head.sidePoint(y: tragion.y - back, z: z, side: side) + SIMD3(side * (height - reliefSink), 0, 0)
        }
    }

    /// The box (back, up; metres from the tragion) that holds an ear, below the cap's rim.
    static func earExtent(_ shape: EarShape) -> (ClosedRange<Double>, ClosedRange<Double>) {
        let theta = shape.tiltDegrees * Double.pi / 180
        var low = SIMD2(Double.infinity, Double.infinity), high = -low
        for (b, v) in [(-1.0, -19.0), (25.0, -19.0), (25.0, 23.0), (-1.0, 23.0)] {
            let p = SIMD2(b * cos(theta) + v * sin(theta), -b * sin(theta) + v * cos(theta)) * shape.scale / 1000
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        return ((low.x - 0.001)...(high.x + 0.001), (low.y - 0.001)...min(high.y + 0.001, Cap.lowerEdge))
    }

    /// The nose: `FaceRelief`'s nose on the face below the nasion.
    static func nose(_ head: HeadModel) -> TriangleMesh {
        reliefPatch(xs: FaceRelief.noseXRange, ys: FaceRelief.noseZRange, outward: SIMD3(0, 1, 0)) { x, z in
            head.frontPoint(x: x, z: z) + SIMD3(0, FaceRelief.nose(x: x, z: z) - reliefSink, 0)
        }
    }

    /// A closed relief: a grid over `xs` × `ys` placed by `point` (whose border must lie under
    /// the skin), closed behind by a fan to a point deeper inside; faces wound toward `outward`.
    static func reliefPatch(
        xs: ClosedRange<Double>, ys: ClosedRange<Double>, outward: SIMD3<Double>, shell: Bool = false,
        point: (Double, Double) -> SIMD3<Double>
    ) -> TriangleMesh {
        let columns = Int(((xs.upperBound - xs.lowerBound) / reliefStep).rounded(.up)) + 1
        let rows = Int(((ys.upperBound - ys.lowerBound) / reliefStep).rounded(.up)) + 1
        var mesh = TriangleMesh()
        for j in 0..<rows {
            let y = ys.lowerBound + (ys.upperBound - ys.lowerBound) * Double(j) / Double(rows - 1)
            for i in 0..<columns {
                mesh.vertices.append(point(xs.lowerBound + (xs.upperBound - xs.lowerBound) * Double(i) / Double(columns - 1), y))
            }
        }
        func v(_ i: Int, _ j: Int) -> Int32 { Int32(j * columns + i) }
        func add(_ a: Int32, _ b: Int32, _ c: Int32, facing direction: SIMD3<Double>) {
            let n = cross(mesh.vertices[Int(b)] - mesh.vertices[Int(a)], mesh.vertices[Int(c)] - mesh.vertices[Int(a)])
            mesh.faces.append(dot(n, direction) >= 0 ? SIMD3(a, b, c) : SIMD3(a, c, b))
        }
        for j in 0..<(rows - 1) {
            for i in 0..<(columns - 1) {
                add(v(i, j), v(i + 1, j), v(i + 1, j + 1), facing: outward)
                add(v(i, j), v(i + 1, j + 1), v(i, j + 1), facing: outward)
            }
        }
        let border =
            (0..<(columns - 1)).map { v($0, 0) } + (0..<(rows - 1)).map { v(columns - 1, $0) }
            + (1..<columns).reversed().map { v($0, rows - 1) } + (1..<rows).reversed().map { v(0, $0) }
        let middle = mesh.vertices[Int(v(columns / 2, rows / 2))]
        guard shell else {
            // A fan to a point 6 mm under the middle: enough where the relief never sinks.
            let centre = Int32(mesh.vertices.count)
            mesh.vertices.append(middle - outward * 0.006)
            for k in border.indices {
                add(border[k], border[(k + 1) % border.count], centre, facing: -outward)
            }
            return mesh
        }
        // The grid again 6 mm under itself, joined to it along the border.
        let front = mesh.vertices.count
        mesh.vertices += mesh.vertices.map { $0 - outward * 0.006 }
        func under(_ k: Int32) -> Int32 { k + Int32(front) }
        for j in 0..<(rows - 1) {
            for i in 0..<(columns - 1) {
                add(under(v(i, j)), under(v(i + 1, j)), under(v(i + 1, j + 1)), facing: -outward)
                add(under(v(i, j)), under(v(i + 1, j + 1)), under(v(i, j + 1)), facing: -outward)
            }
        }
        for k in border.indices {
            let a = border[k], b = border[(k + 1) % border.count]
            let away = mesh.vertices[Int(a)] - middle
            add(a, b, under(b), facing: away)
            add(a, under(b), under(a), facing: away)
        }
        return mesh
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

import Geometry

/// Measures a head mesh the way the clinical definition reads: in the transverse slice of
/// greatest outline length above the reference plane, diagonals through the ear-line centre.
///
/// The mesh must be in the head frame (reference plane z = 0, ear-line centre at the origin).
public enum MeshMeasurement {
    /// The measures and the height of the slice they were taken in (metres).
    public static func measure(_ mesh: TriangleMesh, searchTop: Double? = nil) -> (TrueHeadMeasures, height: Double)? {
        guard let bounds = mesh.bounds else { return nil }
        let top = searchTop ?? bounds.max.z
        // Coarse scan every 2 mm, then golden-section search around the best (the outline
        // length is smooth and single-peaked near its maximum).
        var best: (z: Double, length: Double)?
        for z in stride(from: 0.001, through: top, by: 0.002) {
            let length = outline(mesh, at: z)?.perimeter ?? 0
            if length > (best?.length ?? 0) { best = (z, length) }
        }
        guard let coarse = best else { return nil }
        var low = max(0, coarse.z - 0.002), high = min(top, coarse.z + 0.002)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            let la = outline(mesh, at: a)?.perimeter ?? 0, lb = outline(mesh, at: b)?.perimeter ?? 0
            if la > lb { high = b } else { low = a }
        }
        let z = (low + high) / 2
        guard let polygon = outline(mesh, at: z) else { return nil }
        return (TrueHeadMeasures(outline: polygon), z)
    }

    /// The closed slice loop at height `z` that surrounds the ear-line centre's vertical.
    public static func outline(_ mesh: TriangleMesh, at z: Double) -> Polygon2? {
        mesh.slice(by: Plane(point: SIMD3(0, 0, z), normal: SIMD3(0, 0, 1)))
            .filter(\.isClosed)
            .map { Polygon2($0.points.map { SIMD2($0.x, $0.y) }) }
            .filter { $0.contains(.zero) }
            .max { abs($0.signedArea) < abs($1.signedArea) }
    }
}

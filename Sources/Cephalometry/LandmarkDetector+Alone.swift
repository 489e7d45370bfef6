import Geometry

extension LandmarkDetector {
    /// Each landmark searched alone, once, in the wide windows of `orientation`'s frame: for
    /// benchmarks on heads where the whole search refuses (one ear it cannot read stops it),
    /// to tell how the others fared. Found points are in the mesh's frame; nasion and nose tip
    /// are searched together, so they are found or refused together. The whole search
    /// (`detect`) goes on to refine every landmark in the frame the four define; these do not.
    public static func eachAlone(_ mesh: TriangleMesh, orientation: HeadOrientation) -> [Landmark: Result<SIMD3<Double>, CephalometryError>] {
        guard !mesh.faces.isEmpty else {
            let empty = Result<SIMD3<Double>, CephalometryError>.failure(.unusableMesh("the mesh has no triangles"))
            return [.nasion: empty, .noseTip: empty, .leftTragion: empty, .rightTragion: empty]
        }
        let frame = orientation.headFromMesh
        let local = mesh.transformed(by: frame)
        let windows = Windows.coarse(capRim: orientation.capRim)
        func inMesh(_ found: DetectedLandmark) -> SIMD3<Double> { frame.inverse.apply(found.point) }
        var results: [Landmark: Result<SIMD3<Double>, CephalometryError>] = [:]
        do {
            let (tip, nasion) = try face(local, x: windows.faceX, z: windows.faceZ)
            results[.noseTip] = .success(inMesh(tip))
            results[.nasion] = .success(inMesh(nasion))
        } catch {
            results[.noseTip] = .failure(error)
            results[.nasion] = .failure(error)
        }
        for (side, landmark) in [(-1.0, Landmark.leftTragion), (1.0, .rightTragion)] {
            guard let y = windows.earY[side], let z = windows.earZ[side], let expected = windows.earCentre[side] else { continue }
            do {
                results[landmark] = .success(inMesh(try tragion(local, side: side, y: y, z: z, expected: expected)))
            } catch {
                results[landmark] = .failure(error)
            }
        }
        return results
    }
}

import ArgumentParser
import Cephalometry
import Foundation
import Geometry
import Simulation

/// A head surface given as a mesh with its landmarks, scanned instead of a drawn head.
struct HeadMeshOptions: ParsableArguments {
    @Option(help: "Scan this head surface (PLY, metres) instead of a drawn head; needs --head-landmarks.", completion: .file(extensions: ["ply"]))
    var headMesh: String?

    @Option(help: "The landmarks of --head-mesh in its frame (JSON, metres, as for headscan measure).", completion: .file(extensions: ["json"]))
    var headLandmarks: String?

    @Option(help: "Scale --head-mesh to this circumference in millimetres (e.g. 420 for a six-month-old); default: as given.")
    var headCircumferenceMm: Double?

    func validate() throws {
        guard (headMesh == nil) == (headLandmarks == nil) else { throw ValidationError("--head-mesh and --head-landmarks go together") }
        if headMesh == nil, headCircumferenceMm != nil { throw ValidationError("--head-circumference-mm scales a --head-mesh; give one") }
    }

    /// The head of --head-mesh and --head-landmarks, when given.
    func load() throws -> MeshHead? {
        guard let headMesh, let headLandmarks else { return nil }
        let mesh: TriangleMesh
        do {
            mesh = try PLY.decode(try Self.read(headMesh, what: "head mesh", limit: 512 << 20))
        } catch let error as PLY.Error {
            throw ToolError("cannot read the head mesh \(headMesh): \(error); give a PLY triangle mesh in metres")
        }
        let landmarks: HeadLandmarks
        do {
            landmarks = try HeadLandmarks.decode(json: Data(try Self.read(headLandmarks, what: "head landmarks", limit: 1 << 20)))
        } catch let error as CephalometryError {
            throw ToolError("cannot read the head landmarks \(headLandmarks): \(error)")
        }
        return try MeshHead(mesh: mesh, landmarks: landmarks, circumferenceMM: headCircumferenceMm)
    }

    private static func read(_ path: String, what: String, limit: Int) throws -> [UInt8] {
        let url = fileURL(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= limit else { throw ToolError("the \(what) \(path) has \(size) bytes; at most \(limit) are read") }
        do { return [UInt8](try Data(contentsOf: url)) } catch { throw ToolError("cannot read the \(what) \(path): \(error.localizedDescription)") }
    }
}

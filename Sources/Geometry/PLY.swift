import Foundation

/// Reads and writes triangle meshes as PLY, the format Open3D, MeshLab and CloudCompare share.
public enum PLY {
    /// Errors reading PLY files.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notPLY
        case unsupported(String)
        case truncated
        case badIndex(face: Int)

        public var description: String {
            switch self {
            case .notPLY: "not a PLY file (it must start with 'ply')"
            case .unsupported(let what): "unsupported PLY feature: \(what)"
            case .truncated: "the PLY file ends before all vertices and faces are read"
            case .badIndex(let face): "face \(face) refers to a vertex that does not exist"
            }
        }
    }

    /// Binary little-endian PLY with float32 vertices, uchar red, green and blue when the mesh
    /// has colours, and int32 triangle indices.
    public static func encode(_ mesh: TriangleMesh, comment: String? = nil) -> [UInt8] {
        let colors = mesh.hasColors ? mesh.colors : nil
        var header = "ply\nformat binary_little_endian 1.0\n"
        if let comment { header += "comment \(comment.replacingOccurrences(of: "\n", with: " "))\n" }
        header += "element vertex \(mesh.vertices.count)\nproperty float x\nproperty float y\nproperty float z\n"
        if colors != nil { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        header += "element face \(mesh.faces.count)\nproperty list uchar int vertex_indices\nend_header\n"
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + mesh.vertices.count * 12 + mesh.faces.count * 13)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for (i, v) in mesh.vertices.enumerated() {
            append(Float(v.x).bitPattern)
            append(Float(v.y).bitPattern)
            append(Float(v.z).bitPattern)
            if let c = colors?[i] { bytes += [c.x, c.y, c.z] }
        }
        for f in mesh.faces {
            bytes.append(3)
            append(f.x)
            append(f.y)
            append(f.z)
        }
        return bytes
    }

    /// Reads ASCII or binary little-endian PLY with x, y, z vertex properties and polygon faces
    /// (polygons are fanned into triangles); red, green and blue vertex properties become the
    /// mesh's colours (floats in 0...1 are scaled to 0...255); other properties are skipped.
    public static func decode(_ bytes: [UInt8]) throws(PLY.Error) -> TriangleMesh {
        let header = try PLYHeader(bytes)
        var body = PLYBody(bytes: bytes, offset: header.bodyOffset, ascii: header.ascii)
        var mesh = TriangleMesh()
        for element in header.elements {
            // Every entry takes at least one byte, so a count beyond the file's size is damage
            // (and an element without properties would loop on nothing).
            guard element.count == 0 || !element.properties.isEmpty else { throw .unsupported("element \(element.name) without properties") }
            guard element.count <= bytes.count else { throw .truncated }
            let colored = element.name == "vertex" && Set(["red", "green", "blue"]).isSubset(of: element.properties.map(\.name))
            for _ in 0..<element.count {
                switch element.name {
                case "vertex":
                    let (position, color) = try body.readVertex(element)
                    mesh.vertices.append(position)
                    if colored { mesh.colors.append(color) }
                case "face": try body.readFace(element, into: &mesh)
                default: try body.skip(element)
                }
            }
        }
        for (index, f) in mesh.faces.enumerated() where !TriangleMesh(vertices: mesh.vertices, faces: [f]).isValid {
            throw .badIndex(face: index)
        }
        return mesh
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension PLY.Error: LocalizedError {
    public var errorDescription: String? { description }
}

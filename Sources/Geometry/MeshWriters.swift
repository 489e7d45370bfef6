import Foundation

extension PLY {
    /// ASCII PLY: larger and slower than `encode`, but readable and diffable; `colors`, when
    /// given, holds one RGB triple per vertex (default: the mesh's own, if it has them).
    public static func encodeASCII(_ mesh: TriangleMesh, colors: [SIMD3<UInt8>]? = nil, comment: String? = nil) -> [UInt8] {
        let colors = colors ?? (mesh.hasColors ? mesh.colors : nil)
        precondition(colors == nil || colors!.count == mesh.vertices.count, "one colour per vertex")
        var text = "ply\nformat ascii 1.0\n"
        if let comment { text += "comment \(comment.replacingOccurrences(of: "\n", with: " "))\n" }
        text += "element vertex \(mesh.vertices.count)\nproperty float x\nproperty float y\nproperty float z\n"
        if colors != nil { text += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        text += "element face \(mesh.faces.count)\nproperty list uchar int vertex_indices\nend_header\n"
        for (i, v) in mesh.vertices.enumerated() {
            text += "\(Float(v.x)) \(Float(v.y)) \(Float(v.z))"
            if let c = colors?[i] { text += " \(c.x) \(c.y) \(c.z)" }
            text += "\n"
        }
        for f in mesh.faces { text += "3 \(f.x) \(f.y) \(f.z)\n" }
        return Array(text.utf8)
    }
}

/// Writes Wavefront OBJ, which nearly every 3D tool opens.
public enum OBJ {
    /// The mesh as OBJ text (1-based indices, metres).
    public static func encode(_ mesh: TriangleMesh) -> [UInt8] {
        var text = "# HeadScan mesh, metres\n"
        text.reserveCapacity(mesh.vertices.count * 36 + mesh.faces.count * 24)
        for v in mesh.vertices { text += "v \(Float(v.x)) \(Float(v.y)) \(Float(v.z))\n" }
        for f in mesh.faces { text += "f \(f.x + 1) \(f.y + 1) \(f.z + 1)\n" }
        return Array(text.utf8)
    }
}

/// Writes binary STL, the format of 3D printers (and helmet makers).
public enum STL {
    /// The mesh as binary STL: 80-byte header, triangle count, then per triangle the normal
    /// and three corners as float32 and a zero attribute word.
    public static func encode(_ mesh: TriangleMesh) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 80)
        let title = Array("HeadScan mesh, metres".utf8)
        bytes.replaceSubrange(0..<title.count, with: title)
        bytes.reserveCapacity(84 + mesh.faces.count * 50)
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func append(_ v: SIMD3<Double>) {
            append(Float(v.x).bitPattern)
            append(Float(v.y).bitPattern)
            append(Float(v.z).bitPattern)
        }
        append(UInt32(mesh.faces.count))
        for i in mesh.faces.indices {
            let (a, b, c) = mesh.corners(of: i)
            let n = cross(b - a, c - a)
            let len = length(n)
            append(len > 0 ? n / len : .zero)
            append(a)
            append(b)
            append(c)
            bytes.append(0)
            bytes.append(0)
        }
        return bytes
    }
}

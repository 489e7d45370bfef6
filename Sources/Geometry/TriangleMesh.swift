/// An indexed triangle mesh in metres; faces wind counter-clockwise seen from outside.
public struct TriangleMesh: Sendable, Equatable {
    /// Vertex positions.
    public var vertices: [SIMD3<Double>]
    /// Triangles as three vertex indices each.
    public var faces: [SIMD3<Int32>]
    /// One 8-bit RGB colour per vertex, or empty for an uncoloured mesh.
    public var colors: [SIMD3<UInt8>]

    /// A mesh from its parts; every index must point into `vertices`, and `colors` is empty
    /// or holds one colour per vertex.
    public init(vertices: [SIMD3<Double>] = [], faces: [SIMD3<Int32>] = [], colors: [SIMD3<UInt8>] = []) {
        precondition(colors.isEmpty || colors.count == vertices.count, "one colour per vertex")
        self.vertices = vertices
        self.faces = faces
        self.colors = colors
    }

    /// Whether every vertex has a colour.
    public var hasColors: Bool { !colors.isEmpty && colors.count == vertices.count }

    /// Appends another mesh, keeping both as separate components. Colours survive only when
    /// both meshes have them.
    public mutating func append(_ other: TriangleMesh) {
        let offset = Int32(vertices.count)
        colors = hasColors && other.hasColors ? colors + other.colors : []
        vertices += other.vertices
        faces += other.faces.map { $0 &+ SIMD3(repeating: offset) }
    }

    /// The mesh with every vertex mapped by `transform`.
    public func transformed(by transform: RigidTransform) -> TriangleMesh {
        TriangleMesh(vertices: vertices.map(transform.apply), faces: faces, colors: colors)
    }

    /// The three corners of face `index`.
    @inlinable
    public func corners(of index: Int) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let f = faces[index]
        return (vertices[Int(f.x)], vertices[Int(f.y)], vertices[Int(f.z)])
    }

    /// Total surface area.
    public var area: Double {
        faces.indices.reduce(0) { sum, i in
            let (a, b, c) = corners(of: i)
            return sum + length(cross(b - a, c - a)) / 2
        }
    }

    /// Enclosed volume (exact for closed, consistently wound meshes).
    public var volume: Double {
        faces.indices.reduce(0) { sum, i in
            let (a, b, c) = corners(of: i)
            return sum + dot(a, cross(b, c)) / 6
        }
    }

    /// Smallest and largest coordinates; nil for an empty mesh.
    public var bounds: (min: SIMD3<Double>, max: SIMD3<Double>)? {
        guard var low = vertices.first else { return nil }
        var high = low
        for v in vertices {
            low = pointwiseMin(low, v)
            high = pointwiseMax(high, v)
        }
        return (low, high)
    }

    /// Whether every index points into the vertices.
    public var isValid: Bool {
        let count = Int32(vertices.count)
        return faces.allSatisfy { f in f.x >= 0 && f.y >= 0 && f.z >= 0 && f.x < count && f.y < count && f.z < count }
    }
}

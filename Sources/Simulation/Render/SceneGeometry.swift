import Geometry
import Markers

/// What a triangle is made of, which decides its colour.
enum Material: Equatable {
    /// The skull surface: cap fabric above the cap's edge; skin, hair, eyes and brows below.
    case head
    /// Ears and nose.
    case skin
    /// The infant's clothed body.
    case body
    /// The parent holding the infant.
    case parent
    /// The parent's bare hand.
    case hand
    /// The printed side of sticker `index` (into `Cap.stickers`).
    case paper(Int)
    /// The back of a sticker's paper, seen where a sticker stands off the head at its rim.
    case paperBack
}

/// Everything the camera can see, as triangles: the head (moving with the infant) and the
/// bodies (fixed in the room), with a material per triangle.
struct SceneGeometry {
    /// Vertices in the head frame: skull, ears, nose and sticker paper.
    private(set) var headVertices: [SIMD3<Double>]
    /// Where the stickers' paper corners start among `headVertices` (four per sticker).
    private var paperStart = 0
    /// Marker cells across a sticker's paper, its white border included.
    private var paperCells = 6
    /// Vertices in the world frame: the infant's body and the parent.
    let worldVertices: [SIMD3<Double>]
    /// All triangles; indices count head vertices first, then world vertices.
    let faces: [SIMD3<Int32>]
    /// Material per triangle.
    let materials: [Material]

    init(headMesh: TriangleMesh, skullFaceCount: Int, cap: Cap, hand: Bool = false) {
        var head = headMesh
        var materials = [Material](repeating: .head, count: skullFaceCount)
        materials += [Material](repeating: .skin, count: headMesh.faces.count - skullFaceCount)
        let cells = (try? cap.layout.dictionary().markerSize).map { $0 + 2 } ?? 6
        paperStart = headMesh.vertices.count
        paperCells = cells
        for (index, sticker) in cap.stickers.enumerated() {
            let c = sticker.paperCorners(cells: cells)
            let base = Int32(head.vertices.count)
            head.vertices += c
            head.faces.append(SIMD3(base, base + 3, base + 2))
            head.faces.append(SIMD3(base, base + 2, base + 1))
            head.faces.append(SIMD3(base, base + 2, base + 3))
            head.faces.append(SIMD3(base, base + 1, base + 2))
            materials += [.paper(index), .paper(index), .paperBack, .paperBack]
        }
        var world = HeadMesh.ellipsoid(
            halfSize: SIMD3(0.085, 0.07, 0.13), rotation: .identity, centre: SIMD3(0, -0.01, -0.17))
        materials += [Material](repeating: .body, count: world.faces.count)
        let parent = HeadMesh.ellipsoid(
            halfSize: SIMD3(0.16, 0.11, 0.28), rotation: Rotation3(axis: SIMD3(0, 1, 0), angle: 0.3),
            centre: SIMD3(0.24, -0.06, -0.42), around: 40, rings: 20)
        materials += [Material](repeating: .parent, count: parent.faces.count)
        world.append(parent)
        if hand {
            let cupping = Self.hand(behind: headMesh)
            materials += [Material](repeating: .hand, count: cupping.faces.count)
            world.append(cupping)
        }
        let offset = SIMD3<Int32>(repeating: Int32(head.vertices.count))
        headVertices = head.vertices
        worldVertices = world.vertices
        faces = head.faces + world.faces.map { $0 &+ offset }
        self.materials = materials
    }

    /// The parent's right hand cupping the infant's nape: the palm behind the neck, four
    /// fingers up the back of the head to just below its widest outline, a thumb along the
    /// right side of the neck, all touching the head as it sits at the scan's start. It belongs
    /// to the parent, not the head: it stays where the parent holds it while the head turns.
    static func hand(behind head: TriangleMesh) -> TriangleMesh {
        // How far back the head reaches at a height, near the hand's side of the midline.
        func back(z: Double, x: Double) -> Double {
            head.vertices.filter { abs($0.z - z) < 0.004 && abs($0.x - x) < 0.008 }.map(\.y).min() ?? -0.09
        }
        let upright = Rotation3.identity
        var hand = HeadMesh.ellipsoid(
            halfSize: SIMD3(0.04, 0.012, 0.04), rotation: upright,
            centre: SIMD3(0.02, min(back(z: -0.032, x: 0.02), back(z: -0.04, x: 0.02), back(z: -0.05, x: 0.02)) - 0.0125, -0.07),
            around: 16, rings: 8)
        // Each finger straight up the back, touching where the head reaches furthest back
        // along it.
        for (k, x) in [-0.004, 0.012, 0.028, 0.044].enumerated() {
            let length = [0.026, 0.03, 0.029, 0.023][k]
            let z = -0.04 + length
            let reach = stride(from: z - length, through: z + length, by: length / 4).map { back(z: $0, x: x) }.min() ?? back(z: z, x: x)
            hand.append(
                HeadMesh.ellipsoid(
                    halfSize: SIMD3(0.0075, 0.0075, length), rotation: upright, centre: SIMD3(x, reach - 0.0078, z), around: 10, rings: 6))
        }
        // The thumb lies along the neck's right side, as far out as the head reaches there.
        let side = head.vertices.filter { abs($0.z + 0.06) < 0.025 && abs($0.y + 0.045) < 0.006 }.map(\.x).max() ?? 0.06
        hand.append(
            HeadMesh.ellipsoid(
                halfSize: SIMD3(0.008, 0.008, 0.028), rotation: upright, centre: SIMD3(side + 0.0085, -0.045, -0.065), around: 10,
                rings: 6))
        return hand
    }

    /// A flat printed board: a white sheet through `sheet` (corners top-left, top-right,
    /// bottom-right, bottom-left, seen from the front) carrying `stickers`, printed on it.
    /// Nothing else is in the scene; the "head" frame is the board's.
    init(sheet: [SIMD3<Double>], stickers: [MarkerSticker], cells: Int) {
        var vertices = sheet
        var faces: [SIMD3<Int32>] = [SIMD3(0, 3, 2), SIMD3(0, 2, 1), SIMD3(0, 2, 3), SIMD3(0, 1, 2)]
        var materials: [Material] = [.paperBack, .paperBack, .paperBack, .paperBack]
        for (index, sticker) in stickers.enumerated() {
            let base = Int32(vertices.count)
            vertices += sticker.paperCorners(cells: cells)
            faces += [SIMD3(base, base + 3, base + 2), SIMD3(base, base + 2, base + 1)]
            materials += [.paper(index), .paper(index)]
        }
        headVertices = vertices
        worldVertices = []
        self.faces = faces
        self.materials = materials
    }

    /// Moves head vertices (indices into the head mesh the scene was made with) to new places
    /// in the head frame: a face that moves.
    mutating func moveHead(_ moves: [(index: Int, to: SIMD3<Double>)]) {
        for move in moves where move.index < paperStart { headVertices[move.index] = move.to }
    }

    /// Moves the stickers' paper to where `stickers` (the cap's, in the same order) now are.
    mutating func place(_ stickers: [MarkerSticker]) {
        for (index, sticker) in stickers.enumerated() {
            let base = paperStart + 4 * index
            guard base + 4 <= headVertices.count else { return }
            for (k, corner) in sticker.paperCorners(cells: paperCells).enumerated() { headVertices[base + k] = corner }
        }
    }

    /// All vertices in the camera frame for one pose of head and camera.
    func cameraVertices(cameraFromHead: RigidTransform, cameraFromWorld: RigidTransform, into buffer: inout [SIMD3<Double>]) {
        buffer.removeAll(keepingCapacity: true)
        for v in headVertices { buffer.append(cameraFromHead.apply(v)) }
        for v in worldVertices { buffer.append(cameraFromWorld.apply(v)) }
    }
}

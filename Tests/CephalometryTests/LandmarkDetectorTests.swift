import Foundation
import Geometry
import Simulation
import Testing

@testable import Cephalometry

/// The landmark search on the simulator's true head surfaces, whose landmarks are known exactly.
struct LandmarkDetectorTests {
    /// A pose far from the head frame, so nothing works only because the axes line up.
    static let meshFromHead = RigidTransform(
        rotation: Rotation3(axis: normalized(SIMD3(0.3, -1, 0.5)), angle: 2.1), translation: SIMD3(0.02, -0.3, 0.4))

    /// The cap's rough orientation: the head frame turned by a few degrees and moved up to the
    /// middle of the head, as a marker cap gives it.
    static func orientation(error degrees: Double, forward: Double = -0.004) -> HeadOrientation {
        let tilt = Rotation3(axis: normalized(SIMD3(1, 0.4, -0.6)), angle: degrees * Double.pi / 180)
        let roughFromHead = RigidTransform(rotation: tilt, translation: SIMD3(0.003, forward, -0.03))
        return HeadOrientation(headFromMesh: roughFromHead * meshFromHead.inverse, capRim: Cap.lowerEdge - 0.03)
    }

    static func errors(_ parameters: HeadParameters, orientationError: Double = 4, forward: Double = -0.004) throws -> [String: Double] {
        let head = try HeadModel(parameters)
        let mesh = HeadMesh.make(head).transformed(by: meshFromHead)
        let rough = orientation(error: orientationError, forward: forward)
        let found = try LandmarkDetector.detect(mesh, orientation: rough).transformed(by: meshFromHead.inverse)
        let truth = head.landmarks
        return [
            "nasion": length(found.nasion.point - truth.nasion), "noseTip": length(found.noseTip.point - truth.noseTip),
            "leftTragion": length(found.leftTragion.point - truth.leftTragion),
            "rightTragion": length(found.rightTragion.point - truth.rightTragion),
        ]
    }

    /// Tragions and nose tip within 0.7 mm; the nasion within 1.5 mm, because the true skull is
    /// tessellated in rings 2.5 mm apart there and its hollow's deepest point falls on a ring.
    @Test(arguments: [
        HeadParameters(),
        HeadParameters(lengthMM: 150, cranialIndex: 76, cvai: 15, ears: EarShape(scale: 0.85, tiltDegrees: 25, protrusionDegrees: 10)),
        HeadParameters(lengthMM: 122, cranialIndex: 100, cvai: 12, ears: EarShape(scale: 1.2, tiltDegrees: 0, protrusionDegrees: 35)),
    ])
    func findsEveryLandmarkOnTheTrueSurface(_ parameters: HeadParameters) throws {
        let e = try Self.errors(parameters)
        for (name, error) in e { #expect(error < (name == "nasion" ? 0.0015 : 0.0007), "\(name) off by \(error * 1000) mm") }
    }

    /// Searched alone, each landmark of a head whose left ear was never scanned (its skin within
    /// 30 mm of the tragion cut away) is found or refused on its own: the whole search refuses
    /// the head, the face and the right ear are found where they are, the left ear refused.
    @Test func eachLandmarkAloneWhereTheWholeSearchRefuses() throws {
        let head = try HeadModel(HeadParameters())
        let whole = HeadMesh.make(head)
        let ear = head.landmarks.leftTragion
        let kept = whole.faces.filter { face in
            let centre = (whole.vertices[Int(face.x)] + whole.vertices[Int(face.y)] + whole.vertices[Int(face.z)]) / 3
            return length(centre - ear) > 0.03
        }
        let mesh = TriangleMesh(vertices: whole.vertices, faces: kept).transformed(by: Self.meshFromHead)
        let rough = Self.orientation(error: 4)
        #expect(throws: CephalometryError.self) { try LandmarkDetector.detect(mesh, orientation: rough) }
        let alone = LandmarkDetector.eachAlone(mesh, orientation: rough)
        func error(_ landmark: Landmark) throws -> Double {
            length(Self.meshFromHead.inverse.apply(try alone[landmark]?.get() ?? .zero) - head.landmarks[landmark])
        }
        #expect(try error(.nasion) < 0.002 && error(.noseTip) < 0.001)
        #expect(try error(.rightTragion) < 0.001)
        guard case .failure(let refusal) = alone[.leftTragion] else {
            Issue.record("a left tragion was read where the left ear was never scanned")
            return
        }
        #expect("\(refusal)".contains("left"))
    }

    /// A real ear's depth: a concha sunk 4.5 mm behind a tragus 2.4 mm out (1.8 mm above the
    /// skin). The tragus drops out of the ear's outline, and the pocket's middle would lie on
    /// it, 3.8 mm below the notch: the search refuses instead, naming the ear.
    @Test func aLowTragusLeftOutOfTheOutlineIsRefused() throws {
        let ears = EarShape(conchaDepthMM: 4.5, tragusHeightMM: 2.4)
        #expect {
            _ = try Self.errors(HeadParameters(ears: ears))
        } throws: { error in
            "\(error)".contains("the left ear's tragus stands too little out of the cheek")
        }
    }

    /// A tragus 1.8 mm out (1.2 mm above the skin) leaves nothing above the outline's
    /// threshold: the pocket is then the whole concha behind it (71-81 mm², a notch 11-22), and
    /// the search read the notch on the tragus, 3.7-4.8 mm low, without a word. Now it refuses,
    /// naming the ear, and asks for the pick.
    @Test(arguments: [EarShape(conchaDepthMM: 3, tragusHeightMM: 1.8), EarShape(conchaDepthMM: 6, tragusHeightMM: 1.8)])
    func aTragusBarelyOutOfTheCheekIsRefused(_ ears: EarShape) throws {
        #expect {
            _ = try Self.errors(HeadParameters(ears: ears))
        } throws: { error in
            "\(error)".contains("ear's tragus stands too little out of the cheek")
        }
    }

    /// The cap tells where the ears are only roughly. With its frame 25 mm off along the head
    /// (the ears seen that much further back) the first search still shows the whole of a
    /// large ear that leans back; when it reached only 38 mm behind, it saw half the ear.
    @Test(arguments: [-0.025, 0.012])
    func findsTheEarsWithTheCapFrameOffAlongTheHead(forward: Double) throws {
        let ears = EarShape(scale: 1.15, tiltDegrees: 28, protrusionDegrees: 30)
        let e = try Self.errors(HeadParameters(lengthMM: 125, cranialIndex: 92, cvai: 10, ears: ears), forward: forward)
        for (name, error) in e { #expect(error < (name == "nasion" ? 0.0015 : 0.0007), "\(name) off by \(error * 1000) mm") }
    }

    /// A scan that leaves the eye sockets open: through them the front view sees the back of
    /// the head, 100 mm behind the face. Those cells are not skin; fitted with the rest, they
    /// bent the face's skin toward them, the whole face stood out of it, and a cheek was taken
    /// for the nose.
    @Test("eye sockets the scan left open, showing the back of the head, do not hide the nose")
    func eyeSocketsOpenToTheBackOfTheHead() throws {
        let head = try HeadModel(HeadParameters(lengthMM: 140, cranialIndex: 84, cvai: 6))
        var mesh = HeadMesh.make(head)
        let nasion = head.landmarks.nasion
        mesh.faces.removeAll { face in
            let c = (mesh.vertices[Int(face.x)] + mesh.vertices[Int(face.y)] + mesh.vertices[Int(face.z)]) / 3
            return c.y > 0 && (0.008...0.028).contains(abs(c.x)) && ((nasion.z - 0.016)...(nasion.z + 0.002)).contains(c.z)
        }
        let found = try LandmarkDetector.detect(mesh.transformed(by: Self.meshFromHead), orientation: Self.orientation(error: 4))
            .transformed(by: Self.meshFromHead.inverse)
        let truth = head.landmarks
        #expect(length(found.noseTip.point - truth.noseTip) < 0.001, "nose tip off by \(length(found.noseTip.point - truth.noseTip) * 1000) mm")
        #expect(length(found.nasion.point - truth.nasion) < 0.0015, "nasion off by \(length(found.nasion.point - truth.nasion) * 1000) mm")
    }
}

/// Which raised part of a side view is the ear.
struct EarPartTests {
    /// A 40 mm square of skin seen from the side (heights in z) with an ear-like dome 7 mm
    /// high in the middle and, along one edge, the head curving away from the fitted skin out
    /// of view, 13 mm at the edge.
    static func sideView() -> HeightMap {
        let n = 81, step = 0.0005
        func height(_ x: Double, _ y: Double) -> Double {
            let ear = max(0, 1 - ((x - 0.02) * (x - 0.02) + (y - 0.022) * (y - 0.022)) / (0.006 * 0.006))
            return 0.007 * ear.squareRoot() + max(0, 0.005 - y) * 2.6
        }
        var mesh = TriangleMesh()
        for j in 0..<n {
            for i in 0..<n { mesh.vertices.append(SIMD3(Double(i) * step, Double(j) * step, height(Double(i) * step, Double(j) * step))) }
        }
        for j in 0..<(n - 1) {
            for i in 0..<(n - 1) {
                let a = Int32(j * n + i), b = a + 1, c = a + Int32(n), d = c + 1
                mesh.faces += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        return HeightMap(mesh, origin: .zero, cell: step, columns: n, rows: n, across: { SIMD2($0.x, $0.y) }, along: { $0.z })
    }

    @Test("a raised part running along the view's edge is the head curving away, not the ear, though it rises higher")
    func earNotTheEdge() throws {
        let map = Self.sideView()
        let skin = try #require(SkinSurface(map))
        // Expected nearer the edge than the ear: by height and distance alone the edge would win.
        let part = try #require(LandmarkDetector.prominentPart(map, skin: skin, above: 0.003, near: SIMD2(0.02, 0.012)))
        let middle = part.reduce(SIMD2<Double>.zero) { $0 + map.position($1.i, $1.j) } / Double(part.count)
        #expect(abs(middle.x - 0.02) < 0.001 && abs(middle.y - 0.022) < 0.001)
        let mask = CellMask(map) { i, j, _ in (map.rise(i, j, above: skin) ?? 0) > 0.003 }
        let edge = try #require(mask.components().first { $0.contains { $0.j == 0 } })
        #expect(mask.edgeShare(edge) > 1.0 / 3 && mask.edgeShare(part) == 0)
    }
}

/// The midline profile between nose and forehead, cleaned of cracks in the fused face.
struct ProfileCrackTests {
    @Test("a row seen through a crack is set to its neighbours' median; a smooth hollow is left as it is")
    func crackRemoved() {
        func depth(_ row: Int) -> Double {
            let d = Double(row - 12)
            return 0.068 + 0.00002 * d * d
        }
        let hollow: [(row: Int, height: Double)] = (0..<30).map { ($0, depth($0)) }
        #expect(withoutCracks(hollow).map(\.height) == hollow.map(\.height))
        var cracked = hollow
        cracked[20].height = 0.011
        let cleaned = withoutCracks(cracked)
        #expect(abs(cleaned[20].height - hollow[20].height) < 0.0005)
        // The deepest row is the hollow's, not the crack's.
        #expect(cleaned.indices.min { cleaned[$0].height < cleaned[$1].height } == 12)
    }
}

/// Landmarks whose head frame turns far from the cap's are refused: one was read on something
/// that is not the head's own ear or face.
@Suite("Landmarks against the cap's frame")
struct LandmarksAgainstTheCapTests {
    static func found(_ head: HeadLandmarks) -> AutomaticLandmarks {
        AutomaticLandmarks { landmark in
            DetectedLandmark(point: head[landmark], normal: SIMD3(0, 0, 1), confidence: 1, evidence: "test")
        }
    }

    static let head = HeadLandmarks(
        nasion: SIMD3(0, 0.075, 0), noseTip: SIMD3(0, 0.085, -0.018), leftTragion: SIMD3(-0.07, 0, 0), rightTragion: SIMD3(0.07, 0, 0))

    /// The cap's frame a few degrees off the landmarks', and an ear set 6 mm lower and 8 mm
    /// further forward on one side, are the head's own.
    @Test func aHeadsOwnAsymmetryPasses() throws {
        let tilted = HeadOrientation(
            headFromMesh: RigidTransform(rotation: Rotation3(axis: normalized(SIMD3(1, 0.4, -0.6)), angle: 6 * Double.pi / 180)),
            capRim: 0.01)
        try LandmarkDetector.checkAgainst(tilted, Self.found(Self.head))
        var shifted = Self.head
        shifted.rightTragion += SIMD3(0, 0.008, -0.006)
        try LandmarkDetector.checkAgainst(HeadOrientation(headFromMesh: .identity, capRim: 0.01), Self.found(shifted))
    }

    /// A parent's thumb beside the neck taken for the right ear, 80 mm from it.
    @Test func anEarReadOnAThumbIsRefusedAndNamed() {
        var thumb = Self.head
        thumb.rightTragion = SIMD3(0.075, -0.045, -0.065)
        #expect {
            try LandmarkDetector.checkAgainst(HeadOrientation(headFromMesh: .identity, capRim: 0.01), Self.found(thumb))
        } throws: { error in
            "\(error)".contains("right tragion") && "\(error)".contains("pick the landmarks")
        }
    }

    /// A nose found beside the face.
    @Test func aNoseBesideTheFaceIsRefusedAndNamed() {
        var beside = Self.head
        beside.nasion = SIMD3(0.035, 0.065, 0.005)
        beside.noseTip = SIMD3(0.04, 0.07, -0.015)
        #expect {
            try LandmarkDetector.checkAgainst(HeadOrientation(headFromMesh: .identity, capRim: 0.01), Self.found(beside))
        } throws: { error in
            "\(error)".contains("nose tip") || "\(error)".contains("nasion")
        }
    }
}

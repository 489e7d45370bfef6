import Foundation
import Geometry
import Imaging
import Markers
import Recording
import Testing

@testable import Simulation

/// A small camera (quarter resolution) keeps debug-build tests quick.
let smallCamera = Simulator.trueDepthIntrinsics.scaled(toWidth: 320, height: 240)

func simulator(
    _ scenario: Scenario = .ideal, seed: UInt64 = 5, seconds: Double = 1, sensor: SensorModel = .ideal,
    camera: CameraIntrinsics = smallCamera
) throws -> Simulator {
    try Simulator(.init(scenario: scenario, seed: seed, seconds: seconds, sensor: sensor, intrinsics: camera))
}

struct SimulatorTruthTests {
    /// One full-resolution ideal frame, rendered once for the tests that look at pixels.
    static let fullFrame: SimulatedFrame? = try? simulator(camera: Simulator.trueDepthIntrinsics).nextFrame()

    /// Samples the image where the truth says each cell of a marker lies, and checks that the
    /// printed pattern is there: black border, code bits, white margin.
    @Test func truthCornersMatchThePicture() throws {
        let frame = try #require(Self.fullFrame)
        let dictionary = try CapLayout.standard.dictionary()
        let gray = frame.frame.color.grayscale()
        let checked = frame.truth.markers.filter { $0.sidePixels > 24 && $0.viewAngleDegrees < 40 }
        #expect(checked.count >= 4)
        for marker in checked {
            let corners = marker.corners.map { SIMD2($0[0], $0[1]) }
            let h = try Homography.unitSquare(to: corners)
            let code = try dictionary.code(id: marker.id)
            let n = dictionary.markerSize
            for row in -1...(n + 2) {
                for column in -1...(n + 2) {
                    // Cell centres of the (n + 2) cells, plus the white margin ring outside.
                    let p = h.apply(SIMD2((Double(column) + 0.5) / Double(n + 2), (Double(row) + 0.5) / Double(n + 2)))
                    let value = gray[Int(p.x.rounded()), Int(p.y.rounded())]
                    let margin = row == -1 || column == -1 || row == n + 2 || column == n + 2
                    let border = row == 0 || column == 0 || row == n + 1 || column == n + 1
                    let white = margin || (!border && dictionary.bit(code, row: row - 1, column: column - 1))
                    #expect(white ? value > 110 : value < 70, "marker \(marker.id) cell \(row),\(column): \(value)")
                }
            }
        }
    }

    @Test func detectorFindsTheTruthCornersToAFractionOfAPixel() throws {
        let frame = try #require(Self.fullFrame)
        let found = MarkerDetector(dictionary: try CapLayout.standard.dictionary()).detect(in: frame.frame.color.grayscale())
        let truth = Dictionary(uniqueKeysWithValues: frame.truth.markers.map { ($0.id, $0) })
        let good = frame.truth.markers.filter { $0.sidePixels >= 20 && $0.viewAngleDegrees <= 45 }
        #expect(found.filter { truth[$0.id] != nil }.count >= good.count * 9 / 10)
        var squared: [Double] = []
        for marker in found {
            let t = try #require(truth[marker.id], "a detected marker must be in view by the truth")
            guard t.viewAngleDegrees <= 60 else { continue }
            for (c, e) in zip(marker.corners, t.corners) { squared.append(pow(Geometry.distance(c, SIMD2(e[0], e[1])), 2)) }
        }
        let rmse = (squared.reduce(0, +) / Double(max(1, squared.count))).squareRoot()
        #expect(squared.count >= 16)
        #expect(rmse < 0.25)
    }

    /// With a noiseless sensor, depth is the distance along the optical axis to the nearest
    /// surface (head, ears, nose or sticker paper), up to Float16 rounding.
    @Test func depthIsTheRaySurfaceDistance() throws {
        let sim = try simulator()
        let frame = try #require(sim.nextFrame())
        let meshFromCamera = matrix(frame.truth.meshFromCamera)
        let scene = sceneMesh(sim)
        let k = frame.frame.depthIntrinsics
        let cameraFromMesh = meshFromCamera.inverse
        let projected = scene.vertices.map { k.project(cameraFromMesh.apply($0)) }
        var checked = 0
        for y in stride(from: 10, to: 230, by: 11) {
            for x in stride(from: 10, to: 310, by: 13) {
                let z = frame.frame.depth[x, y]
                let ray = SIMD3((Double(x) - k.cx) / k.fx, (Double(y) - k.cy) / k.fy, 1)
                let direction = meshFromCamera.rotation.apply(ray)
                // Only rays onto the vault: the bodies below, which the test does not model,
                // cannot stand in front of it from the operator's height.
                let pixel = SIMD2(Double(x), Double(y))
                guard let hit = nearestHit(scene, projected: projected, pixel: pixel, origin: meshFromCamera.translation, direction: direction),
                    (meshFromCamera.translation + direction * hit).z > 0.02
                else { continue }
                #expect(!z.isNaN)
                // Float16 steps are 2^-12 m between 0.25 and 0.5 m: half of that at most.
                #expect(abs(Double(z) - hit) <= 0x1p-13 + 1e-7, "pixel \(x),\(y)")
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    @Test func sameSeedGivesByteIdenticalScans() throws {
        func record(_ seed: UInt64) throws -> Data {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString).hscan")
            defer { try? FileManager.default.removeItem(at: url) }
            let sim = try simulator(.restless, seed: seed, seconds: 0.1, sensor: SensorModel(), camera: smallCamera)
            let header = ScanHeader(
                device: "simulator", appVersion: "test", colorIntrinsics: smallCamera, depthIntrinsics: smallCamera,
                capLayoutName: "standard", createdAt: Date(timeIntervalSince1970: 0))
            let writer = try ScanWriter(url: url, header: header)
            while let f = sim.nextFrame() { try writer.append(f.frame) }
            try writer.close()
            return try Data(contentsOf: url)
        }
        let a = try record(9), b = try record(9), c = try record(10)
        #expect(a == b)
        #expect(a != c)
    }

    @Test func lostMarkersScenarioDropsTenAndNeverShowsThem() throws {
        let sim = try simulator(.lostMarkers, seconds: 0.2)
        #expect(sim.cap.dropped.count == 10)
        #expect(sim.cap.stickers.count == 47)
        while let frame = sim.nextFrame() {
            #expect(frame.truth.markers.allSatisfy { !sim.cap.dropped.contains($0.id) })
        }
    }

    @Test func unreadableSpellsCoverTheirShareAndHideEveryMarker() throws {
        let spells = Simulator.spells(share: 0.2, frameCount: 1800, seed: 1)
        #expect(spells.count == 360)
        #expect(spells == Simulator.spells(share: 0.2, frameCount: 1800, seed: 1))
        // Half-second spells: every unreadable frame's spell is unreadable throughout.
        #expect(spells.allSatisfy { spells.contains($0 / 15 * 15) && spells.contains($0 / 15 * 15 + 14) })
        #expect(Simulator.spells(share: 0, frameCount: 1800, seed: 1).isEmpty)
        // With every frame unreadable the stickers are blank: no truth markers, no ink where
        // the same scan without the option shows a marker's black border, and the same depth.
        let blank = try Simulator(.init(seconds: 0.04, unreadableFrames: 1, sensor: .ideal, intrinsics: smallCamera))
        let plain = try Simulator(.init(seconds: 0.04, sensor: .ideal, intrinsics: smallCamera))
        let a = try #require(blank.nextFrame()), b = try #require(plain.nextFrame())
        #expect(a.truth.markers.isEmpty)
        let grayA = a.frame.color.grayscale(), grayB = b.frame.color.grayscale()
        let seen = b.truth.markers.filter { $0.sidePixels > 10 && $0.viewAngleDegrees < 40 }
        #expect(seen.count >= 3)
        for marker in seen {
            let h = try Homography.unitSquare(to: marker.corners.map { SIMD2($0[0], $0[1]) })
            // The middle of the black border's left edge (cell 0 of 6, row 3).
            let p = h.apply(SIMD2(0.5 / 6, 0.5))
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            #expect(grayB[x, y] < 70 && grayA[x, y] > 110, "marker \(marker.id): \(grayB[x, y]) vs \(grayA[x, y])")
        }
        #expect(a.frame.depth.pixels.elementsEqual(b.frame.depth.pixels) { $0 == $1 || $0.isNaN && $1.isNaN })
    }

    @Test func unknownScenarioNamesTheChoices() throws {
        #expect(throws: SimulationError.unknownScenario("dance")) { try Scenario.named("dance") }
        #expect(SimulationError.unknownScenario("dance").description.contains("too-close"))
        #expect(try Scenario.named("off-center") == .offCenter)
    }
}

struct ClosedLoopTests {
    /// Distance from the camera to the head's origin over a run with one steering command.
    private func distances(_ steering: Steering) throws -> [Double] {
        let sim = try simulator(.tooClose, seconds: 1)
        var result: [Double] = []
        while let truth = sim.advance(steering: steering) {
            result.append(length(matrix(truth.meshFromCamera).translation))
        }
        return result
    }

    @Test func movingBackIncreasesTheDistance() throws {
        let free = try distances(.none), back = try distances(.moveBack), closer = try distances(.moveCloser)
        #expect(back.last! > free.last! + 0.15)
        #expect(closer.last! < free.last! - 0.1)
    }

    /// The camera's azimuth about the head (radians, unwrapped) over 40 frames of `steering`.
    private func azimuths(_ steering: Steering) throws -> [Double] {
        let sim = try simulator(seconds: 20)
        var result: [Double] = []
        for _ in 0..<40 {
            guard let truth = sim.advance(steering: steering) else { break }
            let p = matrix(truth.meshFromCamera).translation
            let a = atan2(p.y, p.x)
            result.append(result.last.map { $0 + remainder(a - $0, 2 * .pi) } ?? a)
        }
        return result
    }

    @Test func walkingBackTurnsTheCameraBackRoundTheHead() throws {
        let planned = try azimuths(.none), back = try azimuths(.goBack), looking = try azimuths(.findHead)
        let degree = Double.pi / 180
        // The plan goes round 400° in 20 s; walking back goes 15° a second the other way.
        #expect(planned.last! - planned.first! > 20 * degree)
        #expect(back.last! - back.first! < -15 * degree)
        #expect(back.last! - back.first! > -25 * degree)
        // Looking for the head, the walk round stops.
        #expect(abs(looking.last! - looking.first!) < 5 * degree)
    }

    @Test func goingToTheBackTurnsTheCameraBehindTheHead() throws {
        let sim = try simulator(seconds: 2)
        var last: FrameTruth?
        while let truth = sim.advance(steering: .goTo(.back)) { last = truth }
        let position = matrix(try #require(last).meshFromCamera).translation
        #expect(position.y < -0.2)
    }
}

/// The 4x4 row-major matrix as a rigid transform.
func matrix(_ m: [Double]) -> RigidTransform {
    RigidTransform(
        rotation: Rotation3(columns: (SIMD3(m[0], m[4], m[8]), SIMD3(m[1], m[5], m[9]), SIMD3(m[2], m[6], m[10]))),
        translation: SIMD3(m[3], m[7], m[11]))
}

/// The head mesh with the stickers' paper, as the camera sees it.
func sceneMesh(_ sim: Simulator) -> TriangleMesh {
    var mesh = sim.mesh
    for s in sim.cap.stickers {
        let c = s.paperCorners(cells: 6)
        let base = Int32(mesh.vertices.count)
        mesh.vertices += c
        mesh.faces += [SIMD3(base, base + 3, base + 2), SIMD3(base, base + 2, base + 1)]
    }
    return mesh
}

/// Distance along `direction` from `origin` to the nearest face of `mesh` whose projection
/// (by `project`) covers `pixel`; only those faces are tested, which keeps the search quick.
func nearestHit(
    _ mesh: TriangleMesh, projected: [SIMD2<Double>?], pixel: SIMD2<Double>, origin: SIMD3<Double>, direction: SIMD3<Double>
) -> Double? {
    var best: Double?
    for i in mesh.faces.indices {
        let f = mesh.faces[i]
        guard let a2 = projected[Int(f.x)], let b2 = projected[Int(f.y)], let c2 = projected[Int(f.z)],
            min(a2.x, b2.x, c2.x) <= pixel.x + 1, max(a2.x, b2.x, c2.x) >= pixel.x - 1,
            min(a2.y, b2.y, c2.y) <= pixel.y + 1, max(a2.y, b2.y, c2.y) >= pixel.y - 1
        else { continue }
        let (a, b, c) = mesh.corners(of: i)
        let e1 = b - a, e2 = c - a
        let p = cross(direction, e2)
        let det = dot(e1, p)
        guard abs(det) > 1e-15 else { continue }
        let s = origin - a
        let u = dot(s, p) / det
        guard u >= 0, u <= 1 else { continue }
        let q = cross(s, e1)
        let v = dot(direction, q) / det
        guard v >= 0, u + v <= 1 else { continue }
        let t = dot(e2, q) / det
        if t > 0, t < (best ?? .infinity) { best = t }
    }
    return best
}

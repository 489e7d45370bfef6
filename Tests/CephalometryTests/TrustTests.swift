import Foundation
import Geometry
import Testing

@testable import Cephalometry

@Suite("Warnings and errors")
struct TrustTests {
    let head = AnalyticHead(halfWidth: 0.058, halfLength: 0.071)

    /// The mesh without the faces whose centroid satisfies `cut`.
    func removing(_ mesh: TriangleMesh, where cut: (SIMD3<Double>) -> Bool) -> TriangleMesh {
        var out = mesh
        out.faces = mesh.faces.filter { f in
            let c = (mesh.vertices[Int(f.x)] + mesh.vertices[Int(f.y)] + mesh.vertices[Int(f.z)]) / 3
            return !cut(c)
        }
        return out
    }

    @Test("implausible landmarks are flagged, plausible ones are not")
    func implausibleLandmarks() throws {
        let mesh = head.mesh(rings: 40)
        var close = head.landmarks
        close.leftTragion.x = -0.04
        close.rightTragion.x = 0.04
        var behind = head.landmarks
        behind.nasion.y = 0.01
        var noseBack = head.landmarks
        noseBack.noseTip.y = 0.07
        for landmarks in [close, behind, noseBack] {
            let m = try Cephalometer.measure(mesh, landmarks: landmarks).measurement
            #expect(m.warnings.contains { $0.kind == .implausibleLandmarks }, "\(landmarks)")
        }
        // Swapped ears turn the frame upside down: the nose tip ends up above the plane.
        var swapped = head.landmarks
        swap(&swapped.leftTragion, &swapped.rightTragion)
        let flipped = try HeadFrame(swapped)
        #expect(swapped.plausibilityWarnings(in: flipped).contains { $0.message.contains("swapped") })
        #expect(head.landmarks.plausibilityWarnings(in: try HeadFrame(head.landmarks)).isEmpty)
    }

    @Test("a hole across the widest slice is bridged, flagged, and barely moves the values")
    func openContour() throws {
        // A 6 mm wide hole over the side of the head, around the widest slice.
        let mesh = removing(head.mesh()) { c in c.x > 0.05 && abs(c.y) < 0.003 && abs(c.z - head.equator) < 0.01 }
        let m = try Cephalometer.measure(mesh, landmarks: head.landmarks).measurement
        #expect(m.warnings.contains { $0.kind == .openContour }, "\(m.warnings)")
        #expect(!m.warnings.contains { $0.kind == .sliceLeavesSurface })
        #expect(abs(m.cvai - head.expected.cvai) < 0.05)
        #expect(abs(m.circumferenceMM - head.expected.circumferenceMM) < 0.5)
    }

    @Test("a diagonal ending on a hole is flagged as leaving the scanned surface")
    func diagonalOnHole() throws {
        // A hole at the back-right, where diagonal A ends.
        let end = SIMD2(cos(300 * Double.pi / 180), sin(300 * Double.pi / 180))
        let mesh = removing(head.mesh()) { c in
            let xy = SIMD2(c.x, c.y)
            return (xy * end).sum() > 0.05 && abs(xy.x * end.y - xy.y * end.x) < 0.006 && abs(c.z - head.equator) < 0.01
        }
        let m = try Cephalometer.measure(mesh, landmarks: head.landmarks).measurement
        #expect(m.warnings.contains { $0.kind == .sliceLeavesSurface && $0.message.contains("diagonal A") }, "\(m.warnings)")
    }

    @Test("a scan cut off below the widest slice is flagged")
    func cutOffTop() throws {
        let mesh = removing(head.mesh()) { $0.z > head.equator - 0.01 }
        let m = try Cephalometer.measure(mesh, landmarks: head.landmarks).measurement
        #expect(m.warnings.contains { $0.kind == .sliceLeavesSurface }, "\(m.warnings)")
    }

    @Test("a band never scanned all round next to the widest slice is flagged: the longest outline may lie in it")
    func bandWithoutOutline() throws {
        // The whole left side missing from 22 to 38 mm up, across the widest slice (30 mm):
        // wider than any bridge, so no closed outline there.
        let mesh = removing(head.mesh()) { c in c.x < -0.02 && abs(c.z - head.equator) < 0.008 }
        let m = try Cephalometer.measure(mesh, landmarks: head.landmarks).measurement
        let warning = try #require(m.warnings.first { $0.kind == .sliceLeavesSurface }, "\(m.warnings)")
        #expect(warning.message.contains("no closed outline from"))
        // A hole as wide far up the crown, where the outline is much shorter, hides nothing.
        let crown = removing(head.mesh()) { c in c.x < -0.02 && abs(c.z - 0.08) < 0.005 }
        let top = try Cephalometer.measure(crown, landmarks: head.landmarks).measurement
        #expect(!top.warnings.contains { $0.kind == .sliceLeavesSurface }, "\(top.warnings)")
        #expect(abs(top.cvai - head.expected.cvai) < 0.05)
    }

    @Test("the hiding band is the run of unclosed heights beside a nearly longest outline")
    func hidingBandRule() {
        let searched: [(height: Double, length: Double?)] = [
            (0.020, nil), (0.021, nil), (0.022, 0.40), (0.023, 0.41), (0.050, 0.30), (0.051, nil), (0.052, nil), (0.053, 0.28),
        ]
        #expect(Cephalometer.hidingBand(searched, longest: 0.41) == 0.020...0.021)
        // One height alone is an outline touching a hole's rim, not a band.
        #expect(Cephalometer.hidingBand([(0.020, 0.41), (0.021, nil), (0.022, 0.41)], longest: 0.41) == nil)
        // Beside outlines far shorter than the longest: nothing hidden.
        #expect(Cephalometer.hidingBand(Array(searched.dropFirst(2)), longest: 0.41) == nil)
    }

    @Test("unusable input gives errors that say what to fix")
    func badInput() {
        let mesh = head.mesh(rings: 20)
        #expect(throws: CephalometryError.self) { try Cephalometer.measure(TriangleMesh(), landmarks: head.landmarks) }
        var broken = mesh
        broken.faces.append(SIMD3(0, 1, Int32(mesh.vertices.count)))
        #expect(throws: CephalometryError.self) { try Cephalometer.measure(broken, landmarks: head.landmarks) }
        var same = head.landmarks
        same.rightTragion = same.leftTragion
        #expect(throws: CephalometryError.unusableLandmarks("the left and right tragion coincide; place one on each ear")) {
            try Cephalometer.measure(mesh, landmarks: same)
        }
        var inLine = head.landmarks
        inLine.nasion = SIMD3(0.01, 0, 0)
        #expect(throws: CephalometryError.self) { try Cephalometer.measure(mesh, landmarks: inLine) }
        // A head in millimetres is refused at once, not sliced for minutes into nonsense.
        var millimetres = mesh
        millimetres.vertices = mesh.vertices.map { $0 * 1000 }
        do {
            _ = try Cephalometer.measure(millimetres, landmarks: head.landmarks.map { $1 * 1000 })
            Issue.record("expected an error")
        } catch {
            guard case .unusableMesh = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("millimetres"))
        }
        // Landmarks of another mesh: nothing surrounds their ear-line centre.
        let elsewhere = head.landmarks.transformed(by: RigidTransform(translation: SIMD3(1, 0, 0)))
        do {
            _ = try Cephalometer.measure(mesh, landmarks: elsewhere)
            Issue.record("expected an error")
        } catch {
            guard case .noContour = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("landmarks"))
        }
    }

    @Test("landmark JSON round-trips and names a missing or malformed field")
    func landmarkJSON() throws {
        let data = try JSONEncoder().encode(head.landmarks)
        #expect(try HeadLandmarks.decode(json: data) == head.landmarks)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"nasion\":["))
        let missing = Data(#"{"nasion":[0,0.08,0],"noseTip":[0,0.1,-0.02],"leftTragion":[-0.06,0,0]}"#.utf8)
        #expect(
            throws: CephalometryError.unreadableLandmarks(
                "'rightTragion' is missing; give nasion, noseTip, leftTragion and rightTragion as [x, y, z] in metres")
        ) {
            try HeadLandmarks.decode(json: missing)
        }
        let short = Data(#"{"nasion":[0,0.08],"noseTip":[0,0.1,-0.02],"leftTragion":[-0.06,0,0],"rightTragion":[0.06,0,0]}"#.utf8)
        #expect(throws: CephalometryError.self) { try HeadLandmarks.decode(json: short) }
    }
}

import Foundation
import HeadGestures
import Testing

struct CircumcentreTests {
    /// Three points on a known circle at the given angles.
    func onCircle(_ centre: SIMD2<Double>, _ radius: Double, _ angles: [Double]) -> [SIMD2<Double>] {
        angles.map { centre + radius * SIMD2(cos($0), sin($0)) }
    }

    @Test(arguments: [
        (SIMD2(320.0, 240.0), 45.0, [0.3, 2.1, 4.4]),
        (SIMD2(-50.0, 900.0), 3.0, [1.0, 1.5, 5.0]),
        (SIMD2(1e4, -2e4), 1e3, [0.0, 2.0, 4.0]),
    ])
    func recoversTheCentreOfAKnownCircle(centre: SIMD2<Double>, radius: Double, angles: [Double]) throws {
        let p = onCircle(centre, radius, angles)
        let found = try #require(circumcentre(p[0], p[1], p[2]))
        #expect(abs(found.x - centre.x) < 1e-9 * max(1, radius) && abs(found.y - centre.y) < 1e-9 * max(1, radius))
    }

    @Test func nearlyCollinearPointsStillGiveTheExactCentre() throws {
        // Three points 10 px apart on a circle of radius 100 000 px: the chord sags by 1e-3 px.
        let centre = SIMD2(300.0, 100_240.0), radius = 100_000.0
        let step = 10 / radius
        let p = onCircle(centre, radius, [-.pi / 2 - step, -.pi / 2, -.pi / 2 + step])
        let found = try #require(circumcentre(p[0], p[1], p[2]))
        #expect(abs(found.x - centre.x) / radius < 1e-5)
        #expect(abs(found.y - centre.y) / radius < 1e-5)
    }

    @Test func collinearPointsHaveNoCentre() {
        #expect(circumcentre(SIMD2(0, 0), SIMD2(1, 1), SIMD2(5, 5)) == nil)
        #expect(circumcentre(SIMD2(3, 3), SIMD2(3, 3), SIMD2(9, 1)) == nil)
    }

    @Test func agreesWithTheSeedsConstructionOnceItsTypoIsFixed() throws {
        // The seed's perpendicular-bisector formula, with `leftEyeSlope.x` read as the right
        // eye's x (the x of the point the two chords share).
        func seed(_ l: SIMD2<Double>, _ r: SIMD2<Double>, _ m: SIMD2<Double>) -> SIMD2<Double> {
            let ma = (r.y - l.y) / (r.x - l.x), mb = (m.y - r.y) / (m.x - r.x)
            let x = (ma * mb * (l.y - m.y) + mb * (l.x + r.x) - ma * (r.x + m.x)) / (2 * (mb - ma))
            return SIMD2(x, -(x - (l.x + r.x) / 2) / ma + (l.y + r.y) / 2)
        }
        let l = SIMD2(352.0, 203.0), r = SIMD2(287.0, 209.0), m = SIMD2(322.0, 281.0)
        let ours = try #require(circumcentre(l, r, m))
        let theirs = seed(l, r, m)
        #expect(abs(ours.x - theirs.x) < 1e-9 && abs(ours.y - theirs.y) < 1e-9)
        // Equidistant from all three.
        let d = [l, r, m].map { ((ours - $0) * (ours - $0)).sum().squareRoot() }
        #expect(abs(d[0] - d[1]) < 1e-9 && abs(d[1] - d[2]) < 1e-9)
    }

    @Test func aFaceGivesAPointerBetweenEyesAndMouth() throws {
        let face = FaceMaker().landmarks(pointer: SIMD2(320, 240))
        let pointer = try HeadPointer.measure(face).get()
        #expect(abs(pointer.position.x - 320) < 1e-9 && abs(pointer.position.y - 240) < 1e-9)
        #expect(abs(pointer.eyeDistance - 64) < 1e-12)
        #expect(pointer.position.y > face.leftEye.y && pointer.position.y < face.mouth.y)
    }

    @Test func degenerateFacesAreRejectedNotTurnedIntoHugePointers() {
        // The mouth 0.5 px off the eyes' line: a circle thousands of pixels wide.
        let flat = FaceLandmarks(leftEye: SIMD2(352, 200), rightEye: SIMD2(288, 200), mouth: SIMD2(320, 200.5))
        #expect(HeadPointer.measure(flat) == .failure(.collinear))
        let straight = FaceLandmarks(leftEye: SIMD2(352, 200), rightEye: SIMD2(288, 200), mouth: SIMD2(420, 200))
        #expect(HeadPointer.measure(straight) == .failure(.collinear))
        let oneEye = FaceLandmarks(leftEye: SIMD2(320, 200), rightEye: SIMD2(320.5, 200), mouth: SIMD2(320, 270))
        #expect(HeadPointer.measure(oneEye) == .failure(.eyesTooClose))
        let broken = FaceLandmarks(leftEye: SIMD2(.nan, 200), rightEye: SIMD2(288, 200), mouth: SIMD2(320, 270))
        #expect(HeadPointer.measure(broken) == .failure(.notFinite))
    }

    @Test func aStronglyTurnedFaceIsStillAccepted() throws {
        // Eyes foreshortened to a third (a head turned about 70°): a narrow but sound triangle.
        let face = FaceLandmarks(leftEye: SIMD2(331, 200), rightEye: SIMD2(310, 200), mouth: SIMD2(322, 270))
        let pointer = try HeadPointer.measure(face).get()
        #expect(pointer.position.y > 200 && pointer.position.y < 270)
    }
}

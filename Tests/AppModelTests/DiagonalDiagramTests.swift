import AppModel
import Foundation
import Testing

struct DiagonalDiagramTests {
    /// Seen from above with the nose up, the patient's left is the viewer's left: A starts
    /// front left (up, left) and ends back right; B the other way, as the calliper measures.
    @Test(arguments: [(300.0, 180.0), (200, 400), (90, 60)])
    func diagonalAGoesFromFrontLeftToBackRight(width: Double, height: Double) {
        let d = DiagonalDiagramLayout(width: width, height: height)
        let centre = d.outlineOrigin + d.outlineSize / 2
        #expect(d.diagonalA.front.x < centre.x && d.diagonalA.front.y < centre.y)
        #expect(d.diagonalA.back.x > centre.x && d.diagonalA.back.y > centre.y)
        #expect(d.diagonalB.front.x > centre.x && d.diagonalB.front.y < centre.y)
        #expect(d.diagonalB.back.x < centre.x && d.diagonalB.back.y > centre.y)
        #expect(d.nose.allSatisfy { $0.y <= d.outlineOrigin.y + 2 })
        #expect(d.leftLabel.x < d.outlineOrigin.x && d.rightLabel.x > d.outlineOrigin.x + d.outlineSize.x)
        #expect(d.labelA.x < centre.x && d.labelB.x > centre.x)
    }

    @Test func eachDiagonalRuns30DegreesFromTheMidlineAndEndsOnTheOutline() {
        let d = DiagonalDiagramLayout(width: 320, height: 180)
        let centre = d.outlineOrigin + d.outlineSize / 2, radii = d.outlineSize / 2
        for (front, back) in [d.diagonalA, d.diagonalB] {
            for end in [front, back] {
                let v = (end - centre) / radii
                #expect(abs((v * v).sum() - 1) < 1e-9)
                let offset = end - centre
                #expect(abs(atan2(abs(offset.x), abs(offset.y)) * 180 / .pi - 30) < 1e-9)
            }
            #expect(abs((front + back).x / 2 - centre.x) < 1e-9 && abs((front + back).y / 2 - centre.y) < 1e-9)
        }
    }
}

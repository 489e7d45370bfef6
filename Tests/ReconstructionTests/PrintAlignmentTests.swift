import Foundation
import Geometry
import Markers
import Testing

@testable import Reconstruction

/// The head frame read from a printed cap's colours, against analytic vaults with their print.
@Suite("Reading the head frame from the cap's print")
struct PrintAlignmentTests {
    /// Points of an egg-shaped vault above the cap's rim (head frame), about 1.5 mm apart,
    /// with the print's colour (0–255), as a mesh of vertices alone.
    static func vault(print: CapPrint = .standard, spacing: Double = 0.0015, below: Double = 0.012) -> TriangleMesh {
        var vertices: [SIMD3<Double>] = [], colours: [SIMD3<UInt8>] = []
        let centre = SIMD3(0.0, -0.01, 0.03), radii = SIMD3(0.062, 0.075, 0.07)
        let rings = Int(Double.pi / 2 * 0.07 / spacing)
        for r in 0...rings {
            let elevation = -0.45 + (Double.pi / 2 + 0.45) * Double(r) / Double(rings)
            let around = max(1, Int(2 * Double.pi * 0.07 * cos(elevation) / spacing))
            for a in 0..<around {
                let azimuth = 2 * Double.pi * Double(a) / Double(around)
                let p = centre + radii * SIMD3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation))
                guard p.z > below else { continue }
                vertices.append(p)
                let c = print.colour(at: p) * 255
                colours.append(SIMD3(UInt8(c.x.rounded()), UInt8(c.y.rounded()), UInt8(c.z.rounded())))
            }
        }
        return TriangleMesh(vertices: vertices, colors: colours)
    }

    /// A lighter search than a scan's (fewer points and turns), which these clean vaults
    /// need no more than: the tests run unoptimised.
    static let search = PrintAligner.Search(maximumPoints: 500, tableDegrees: 3, turnsTried: 40_000, turnsRefined: 12)

    static func align(_ mesh: TriangleMesh, print: CapPrint = .standard) throws(PrintAlignmentError) -> PrintAlignment {
        try PrintAligner.align(mesh, print: print, search: search)
    }

    /// A vault seen from a camera in any place: the head frame comes back within 0.5° and
    /// 1 mm (at the tragions' level, 60 mm below the print's middle) for turns drawn over all
    /// of them, clearly ahead of any other placement, and the rim where the print ends.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theHeadFrameIsReadFromThePrint(seed: UInt64) throws {
        var random = Xoshiro256(seed: seed, stream: 3)
        let worldFromHead = RigidTransform(
            rotation: PrintAligner.randomRotation(&random),
            translation: SIMD3(random.unitDouble() - 0.5, random.unitDouble() - 0.5, random.unitDouble() + 0.2) * 0.3)
        let world = Self.vault().transformed(by: worldFromHead)
        let found = try Self.align(world)
        let error = found.headFromMesh * worldFromHead
        #expect(error.rotation.angle * 180 / Double.pi < 0.5, "turned \(error.rotation.angle * 180 / Double.pi)°")
        #expect(length(error.translation) < 0.001, "shifted \(length(error.translation) * 1000) mm")
        #expect(found.agreement > 0.97 && found.agreement - found.runnerUp > 0.15, "\(found.agreement) against \(found.runnerUp)")
        #expect(abs(found.capRim - 0.012) < 0.003, "rim at \(found.capRim)")
    }

    /// Only a part of the vault seen (the back and one side): still read.
    @Test func aPartOfThePrintIsEnough() throws {
        let full = Self.vault()
        let kept = full.vertices.indices.filter { full.vertices[$0].y < 0 && full.vertices[$0].x > -0.02 }
        let part = TriangleMesh(vertices: kept.map { full.vertices[$0] }, colors: kept.map { full.colors[$0] })
        let turn = RigidTransform(rotation: Rotation3(axis: normalized(SIMD3(1, 2, -1)), angle: 2.2), translation: SIMD3(0.01, 0.02, 0.35))
        let found = try Self.align(part.transformed(by: turn))
        let error = found.headFromMesh * turn
        #expect(error.rotation.angle * 180 / Double.pi < 0.5 && length(error.translation) < 0.001)
    }

    /// A cap printed with another pattern, a plain cap and a print too small to read are
    /// each refused with what to do, never placed.
    @Test func anotherPrintIsRefused() {
        var random = Xoshiro256(seed: 99, stream: 1)
        let other = CapPrint(
            waves: CapPrint.standard.waves.map { wave in
                CapPrint.Wave(wavevector: PrintAligner.randomRotation(&random).apply(wave.wavevector), phase: random.unitDouble() * 6)
            }, first: CapPrint.standard.first, second: CapPrint.standard.second)
        let error = #expect(throws: PrintAlignmentError.self) { try Self.align(Self.vault(print: other)) }
        guard case .printNotMatched? = error else {
            Issue.record("another print: \(String(describing: error))")
            return
        }
        #expect(error.map { "\($0)".contains("does not match its layout") } == true)
        let plain = Self.vault()
        let grey = TriangleMesh(vertices: plain.vertices, colors: plain.colors.map { _ in SIMD3(150, 160, 190) })
        #expect(throws: PrintAlignmentError.tooLittlePrint(points: 0)) { try Self.align(grey) }
        let crown = Self.vault(spacing: 0.004, below: 0.09)
        #expect(throws: PrintAlignmentError.self) { try Self.align(crown) }
        #expect(throws: PrintAlignmentError.tooLittlePrint(points: 0)) { try Self.align(TriangleMesh()) }
    }
}

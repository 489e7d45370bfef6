import Foundation
import Geometry
import Markers

/// How a head fused without markers lies in the head frame, read from the cap's print: the
/// mesh's colours on the print, matched to the print's layout (`CapPrint`), as the stickers'
/// places are matched to a sticker layout.
public struct PrintAlignment: Sendable, Equatable {
    /// Mesh coordinates to the print's head frame (x toward the infant's right, y forward, z up).
    public var headFromMesh: RigidTransform
    /// The share of the mesh's points on the print whose colour the print, so placed, has
    /// there (about a half for a print placed at random).
    public var agreement: Double
    /// The same for the best of the other placements tried that is turned at least 20° from
    /// this one (0.5 when none was): how clearly the print told this placement from the others.
    public var runnerUp: Double
    /// Points of the mesh on the print that were matched.
    public var points: Int
    /// Where the print ends below (the cap's lower edge) in the head frame, metres: the 2nd
    /// percentile of the matched points' height.
    public var capRim: Double
}

public enum PrintAlignmentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Too little of the mesh shows the print's colours.
    case tooLittlePrint(points: Int)
    /// The best placement of the print agrees with the mesh's colours too little, or hardly
    /// better than another placement far from it.
    case printNotMatched(agreement: Double, runnerUp: Double)

    public var description: String {
        switch self {
        case .tooLittlePrint(let points):
            "only \(points) points of the head show the cap's print (at least \(PrintAligner.minimumPoints) are needed to tell how the head lies); scan the whole cap, in even light"
        case .printNotMatched(let agreement, let runnerUp):
            "the cap's print seen on the head does not match its layout (\(Int((agreement * 100).rounded())) % of it agrees at best, \(Int((runnerUp * 100).rounded())) % elsewhere): the head may have moved too fast for the views to be placed alike (scan again while it is still), or the cap is not the one the settings name; or scan with the marker cap"
        }
    }
}

/// Finds `PrintAlignment`s.
///
/// The print is a sum of plane waves, and a mesh's colours on it correlate with each wave. The
/// size of that correlation, `|Σ s e^{iκ u·p}|` over the points `p` labelled `s = ±1` by their
/// colour, is the same wherever the points are moved, and depends only on the direction `u` the
/// wave runs in the mesh's frame: so the turn is found first, on its own, by looking up each
/// wave's correlation in a table of directions for 300 000 turns spread over all of them; the
/// best are refined on the correlations themselves; each wave's phase there then gives the
/// shift; the few best placements are finished on the print's colours and the best is kept.
public enum PrintAligner {
    /// Fewer points on the print than this do not tell how the head lies.
    public static let minimumPoints = 400
    /// The best placement must agree on this share of the points on the print, and by this
    /// much more than the best one turned 20° or more from it. A print placed right agrees on
    /// 0.9 or more of a simulated scan's points (colour blurred at the print's edges takes
    /// the rest); at random on about half.
    public static let minimumAgreement = 0.8
    public static let minimumLead = 0.15

    /// How thoroughly the placements are searched.
    struct Search: Sendable {
        /// Points used: at most this many, evenly through the mesh's points on the print.
        var maximumPoints = 1200
        /// Directions of the correlation table: rows of polar angle over the upper half of the
        /// sphere (the correlation's size is the same for `u` and `−u`), each this many degrees.
        var tableDegrees = 2.5
        var turnsTried = 300_000
        var turnsRefined = 24
        var placementsFinished = 4
    }

    /// The print's placement on `mesh` (vertex colours 0–255; those of the print's two colours
    /// are used).
    ///
    /// A print's blotches come back, nearly, under some shifts of 4–5 cm (on the standard print
    /// one 44 mm down agrees with 95 % of a scan's colours), as any repeating pattern's do: so
    /// the shift is searched only within 20 mm of where the cap is worn, its lower edge at the
    /// print's `rimHeight` and the vault's middle (the sphere through the points on the print)
    /// over `vaultCentre`.
    public static func align(_ mesh: TriangleMesh, print: CapPrint = .standard) throws(PrintAlignmentError) -> PrintAlignment {
        try align(mesh, print: print, search: Search())
    }

    static func align(_ mesh: TriangleMesh, print: CapPrint, search: Search) throws(PrintAlignmentError) -> PrintAlignment {
        let labelled = labelledPoints(mesh)
        guard labelled.count >= minimumPoints else { throw .tooLittlePrint(points: labelled.count) }
        let step = max(1, labelled.count / search.maximumPoints)
        let used = stride(from: 0, to: labelled.count, by: step).map { labelled[$0] }
        let centre = used.map(\.point).reduce(SIMD3<Double>.zero, +) / Double(used.count)
        let points = used.map { $0.point - centre }, signs = used.map(\.sign)
        let vault = MarkerMap.sphere(through: points)?.centre ?? .zero
        let waves = print.waves.map { (direction: normalized($0.wavevector), number: length($0.wavevector), phase: $0.phase) }
        let tables = waves.map { CorrelationTable(points: points, signs: signs, wavenumber: $0.number, degrees: search.tableDegrees) }
        // Turns mesh → head: the wave running along k in the head frame runs along Rᵀk in the mesh's.
        var random = Xoshiro256(seed: 0x5052_494E_54, stream: 11)
        var scored: [(turn: Rotation3, score: Double)] = []
        scored.reserveCapacity(search.turnsTried)
        for _ in 0..<search.turnsTried {
            let turn = randomRotation(&random)
            let inverse = turn.inverse
            var score = 0.0
            for (wave, table) in zip(waves, tables) { score += table.value(along: inverse.apply(wave.direction)) }
            scored.append((turn, score))
        }
        scored.sort { $0.score > $1.score }
        var starts: [Rotation3] = []
        for candidate in scored where starts.count < search.turnsRefined {
            if starts.allSatisfy({ ($0 * candidate.turn.inverse).angle > 8 * Double.pi / 180 }) { starts.append(candidate.turn) }
        }
        let correlation = Correlation(points: points, signs: signs, waves: waves)
        let refined = starts.map { correlation.refine($0) }.sorted { $0.score > $1.score }
        var placed: [(transform: RigidTransform, agreement: Double)] = []
        for start in refined {
            // Where the points' middle lies when the cap is worn as its print says.
            let turned = points.map { start.turn.apply($0).z }.sorted()
            let vaultTurned = start.turn.apply(vault)
            let worn = SIMD3(print.vaultCentre.x - vaultTurned.x, print.vaultCentre.y - vaultTurned.y, print.rimHeight - turned[turned.count / 50])
            let shift = correlation.shift(for: start.turn, near: worn)
            let transform = RigidTransform(rotation: start.turn, translation: shift - start.turn.apply(centre))
            placed.append((transform, agreement(transform, points: used, print: print)))
        }
        placed.sort { $0.agreement > $1.agreement }
        let finished = placed.prefix(search.placementsFinished).map { start in
            let moved = finish(start.transform, points: used, print: print)
            return (transform: moved, agreement: agreement(moved, points: used, print: print))
        }.sorted { $0.agreement > $1.agreement }
        guard let best = finished.first else { throw .tooLittlePrint(points: labelled.count) }
        // The best of the placements found elsewhere (a print placed at random agrees on about half).
        let runnerUp =
            (finished.dropFirst() + placed.dropFirst(search.placementsFinished))
            .filter { ($0.transform.rotation * best.transform.rotation.inverse).angle >= 20 * Double.pi / 180 }
            .map(\.agreement).max() ?? 0.5
        guard best.agreement >= minimumAgreement, best.agreement - runnerUp >= minimumLead else {
            throw .printNotMatched(agreement: best.agreement, runnerUp: runnerUp)
        }
        let heights = labelled.map { best.transform.apply($0.point).z }.sorted()
        return PrintAlignment(
            headFromMesh: best.transform, agreement: best.agreement, runnerUp: runnerUp, points: used.count,
            capRim: heights[heights.count / 50])
    }

    /// The mesh's vertices on the print, +1 on its first colour, −1 on its second.
    public static func labelledPoints(_ mesh: TriangleMesh) -> [(point: SIMD3<Double>, sign: Double)] {
        guard mesh.colors.count == mesh.vertices.count else { return [] }
        return zip(mesh.vertices, mesh.colors).compactMap { vertex, colour in
            let chroma = TSDFVolume.chroma(SIMD3<Float>(colour))
            return MarkerlessReconstructor.printColour(chroma).map { (vertex, $0 == 0 ? 1 : -1) }
        }
    }

    /// The share of `points` whose colour the print placed by `transform` has.
    public static func agreement(_ transform: RigidTransform, points: [(point: SIMD3<Double>, sign: Double)], print: CapPrint) -> Double {
        let agreeing = points.filter { print.field(at: transform.apply($0.point)) * $0.sign > 0 }.count
        return Double(agreeing) / Double(max(1, points.count))
    }

    /// The placement moved, in steps from 1° and 1 mm down to 0.02° and 0.02 mm, while the
    /// print's blended colour agrees better with the points' (the agreement itself is flat
    /// between its steps).
    static func finish(_ start: RigidTransform, points: [(point: SIMD3<Double>, sign: Double)], print: CapPrint) -> RigidTransform {
        func score(_ t: RigidTransform) -> Double {
            points.reduce(0) { $0 + $1.sign * max(-1, min(1, print.field(at: t.apply($1.point)) / 0.4)) }
        }
        return StepSearch.climb(from: start, directions: 6, size: 1, smallest: 0.02, score: score) { t, axis, step in
            var delta = SIMD3<Double>.zero
            delta[axis % 3] = step * (axis < 3 ? Double.pi / 180 : 0.001)
            return axis < 3
                ? RigidTransform(rotation: Rotation3(axis: normalized(delta), angle: length(delta)), translation: .zero) * t
                : RigidTransform(rotation: .identity, translation: delta) * t
        }.value
    }

    /// A turn drawn evenly over all turns (Shoemake's way).
    static func randomRotation(_ random: inout Xoshiro256) -> Rotation3 {
        let u1 = random.unitDouble(), u2 = random.unitDouble() * 2 * Double.pi, u3 = random.unitDouble() * 2 * Double.pi
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        let (x, y, z, w) = (a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3))
        return Rotation3(
            columns: (
                SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
                SIMD3(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
                SIMD3(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))
            ))
    }
}

/// Each wave's correlation with the points' colours, directly.
private struct Correlation {
    var points: [SIMD3<Double>]
    var signs: [Double]
    var waves: [(direction: SIMD3<Double>, number: Double, phase: Double)]

    /// `Σ s e^{iκ u·p}`.
    func sum(along u: SIMD3<Double>, wavenumber: Double) -> (re: Double, im: Double) {
        var re = 0.0, im = 0.0
        for (p, s) in zip(points, signs) {
            let phase = wavenumber * dot(u, p)
            re += s * FastTrig.sin(phase + Double.pi / 2)
            im += s * FastTrig.sin(phase)
        }
        return (re, im)
    }

    func score(_ turn: Rotation3) -> Double {
        let inverse = turn.inverse
        return waves.reduce(0) { total, wave in
            let (re, im) = sum(along: inverse.apply(wave.direction), wavenumber: wave.number)
            return total + (re * re + im * im).squareRoot()
        }
    }

    /// The turn moved in steps from 2° down to 0.05° while its correlations grow.
    func refine(_ start: Rotation3) -> (turn: Rotation3, score: Double) {
        let (turn, best) = StepSearch.climb(from: start, directions: 3, size: 2, smallest: 0.05, score: score) { r, axis, step in
            var v = SIMD3<Double>.zero
            v[axis] = step * Double.pi / 180
            return Rotation3(axis: normalized(v), angle: length(v)) * r
        }
        return (turn, best)
    }

    /// Where the head frame has the points' middle under `turn`: each wave's correlation is
    /// largest where the wave's phase at the points agrees with their colours, which fixes the
    /// shift along each wave modulo its wavelength; the shift within 20 mm of `expected` that
    /// agrees best with all six (in 1.5 mm steps, then finer).
    func shift(for turn: Rotation3, near expected: SIMD3<Double>) -> SIMD3<Double> {
        let inverse = turn.inverse
        // Σ s sin(κu·p + α) = |G| sin(ψ + α): best where k·T + φ + ψ = π/2.
        let terms = waves.map { wave -> (k: SIMD3<Double>, weight: Double, offset: Double) in
            let (re, im) = sum(along: inverse.apply(wave.direction), wavenumber: wave.number)
            return (wave.direction * wave.number, (re * re + im * im).squareRoot(), wave.phase + atan2(im, re) - Double.pi / 2)
        }
        func score(_ t: SIMD3<Double>) -> Double { terms.reduce(0) { $0 + $1.weight * cos(dot($1.k, t) + $1.offset) } }
        var best = expected, bestScore = -Double.infinity
        let reach = 13, step = 0.0015
        for i in -reach...reach {
            for j in -reach...reach {
                for l in -reach...reach {
                    let t = expected + SIMD3(Double(i), Double(j), Double(l)) * step
                    let s = score(t)
                    if s > bestScore {
                        best = t
                        bestScore = s
                    }
                }
            }
        }
        return StepSearch.climb(from: best, directions: 3, size: step / 2, smallest: 0.00002, score: score) { t, axis, by in
            var moved = t
            moved[axis] += by
            return moved
        }.value
    }
}

/// `|Σ s e^{iκ u·p}|` over the upper half of the sphere of directions, for looking up.
private struct CorrelationTable {
    let rows: Int, columns: Int
    let values: [Double]

    init(points: [SIMD3<Double>], signs: [Double], wavenumber: Double, degrees: Double) {
        rows = Int((90 / degrees).rounded()) + 1
        columns = Int((360 / degrees).rounded())
        var values = [Double](repeating: 0, count: rows * columns)
        let correlation = Correlation(points: points, signs: signs, waves: [])
        for r in 0..<rows {
            let polar = Double(r) / Double(rows - 1) * Double.pi / 2
            for c in 0..<columns {
                let azimuth = Double(c) / Double(columns) * 2 * Double.pi
                let u = SIMD3(sin(polar) * cos(azimuth), sin(polar) * sin(azimuth), cos(polar))
                let (re, im) = correlation.sum(along: u, wavenumber: wavenumber)
                values[r * columns + c] = (re * re + im * im).squareRoot()
                if r == 0 { break }
            }
        }
        // The pole's row is one direction.
        for c in 1..<columns { values[c] = values[0] }
        self.values = values
    }

    /// The value along `u` (any length but zero), bilinear between the table's directions.
    func value(along u: SIMD3<Double>) -> Double {
        let v = u.z < 0 ? -u : u
        let polar = atan2((v.x * v.x + v.y * v.y).squareRoot(), v.z)
        var azimuth = atan2(v.y, v.x)
        if azimuth < 0 { azimuth += 2 * Double.pi }
        let r = min(Double(rows - 1), polar / (Double.pi / 2) * Double(rows - 1))
        let c = azimuth / (2 * Double.pi) * Double(columns)
        let r0 = min(rows - 2, Int(r)), c0 = Int(c) % columns
        let fr = r - Double(r0), fc = c - c.rounded(.down)
        let c1 = (c0 + 1) % columns
        let top = values[r0 * columns + c0] * (1 - fc) + values[r0 * columns + c1] * fc
        let bottom = values[(r0 + 1) * columns + c0] * (1 - fc) + values[(r0 + 1) * columns + c1] * fc
        return top * (1 - fr) + bottom * fr
    }
}

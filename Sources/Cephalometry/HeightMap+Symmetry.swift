import Foundation

extension HeightMap {
    /// The column about which the map's heights in `rows` are most nearly mirror images,
    /// searched within `reach` cells of `column` and compared out to `halfWidth` cells on each
    /// side; fractional, nil when too little of the band is filled to compare.
    ///
    /// A face's relief is symmetric about its midline, and every cell of a wide band carries
    /// its mirror centre, where a single ridge's peak moves with any flank the fusion wore
    /// down or the grid cut.
    func mirrorCentre(rows: ClosedRange<Int>, near column: Double, reach: Double, halfWidth: Int) -> Double? {
        let steps = Int((reach * 10).rounded())
        var costs: [(centre: Double, cost: Double)] = []
        for s in -steps...steps {
            let centre = column + Double(s) / 10
            if let cost = asymmetry(rows: rows, about: centre, halfWidth: halfWidth) { costs.append((centre, cost)) }
        }
        guard costs.count >= 3, let best = costs.indices.min(by: { costs[$0].cost < costs[$1].cost }) else { return nil }
        // Between steps by a parabola, where both neighbouring steps could be compared.
        guard best > 0, best < costs.count - 1, costs[best + 1].centre - costs[best - 1].centre < 0.25 else { return costs[best].centre }
        let shift = parabolaVertexOffset(costs[best - 1].cost, costs[best].cost, costs[best + 1].cost, peak: false)
        return costs[best].centre + shift / 10
    }

    /// How far the heights mirrored about `centre` (a fractional column) differ, as a mean
    /// square, after each row's difference loses its part that grows in step with the
    /// distance from the centre; nil when fewer than half the pairs are filled.
    ///
    /// That part is what a turned view or a lopsided forehead adds (a slope, or a curve
    /// centred elsewhere), not the face's own relief. A fitted skin would take those up too,
    /// but it also bends into a wide hollow, unevenly when the forehead is lopsided.
    func asymmetry(rows: ClosedRange<Int>, about centre: Double, halfWidth: Int) -> Double? {
        var sum = 0.0, count = 0, pairs = 0
        for j in rows {
            var differences: [(d: Double, difference: Double)] = []
            for d in 1...max(1, halfWidth) {
                pairs += 1
                guard let left = height(column: centre - Double(d), row: j), let right = height(column: centre + Double(d), row: j) else { continue }
                differences.append((Double(d), right - left))
            }
            guard differences.count >= 2 else { continue }
            let slope = differences.reduce(0) { $0 + $1.d * $1.difference } / differences.reduce(0) { $0 + $1.d * $1.d }
            for (d, difference) in differences {
                let r = difference - slope * d
                sum += r * r
            }
            count += differences.count
        }
        return count * 2 >= pairs && count > 0 ? sum / Double(count) : nil
    }

    /// The height at a fractional column of row `j`, interpolated between its two cells.
    func height(column: Double, row j: Int) -> Double? {
        let i = Int(column.rounded(.down)), f = column - Double(i)
        guard let a = self[i, j], let b = self[i + 1, j] else { return nil }
        return a + f * (b - a)
    }
}

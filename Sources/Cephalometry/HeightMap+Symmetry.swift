import Foundation

extension HeightMap {
    /// The column about which the map's rise above `skin` in `rows` is most nearly a mirror
    /// image, searched within `reach` cells of `column` and compared out to `halfWidth` cells
    /// on each side; fractional, nil when too little of the band is filled to compare.
    ///
    /// A face's relief is symmetric about its midline, and every cell of the band carries its
    /// mirror centre, where a single ridge's peak moves with any flank the fusion wore down.
    /// The rise, not the height, is compared: a turned view or a lopsided forehead tilts the
    /// heights, and the fitted skin takes that up.
    func mirrorCentre(rows: ClosedRange<Int>, above skin: SkinSurface, near column: Double, reach: Double, halfWidth: Int) -> Double? {
        let steps = Int((reach * 10).rounded())
        var costs: [(centre: Double, cost: Double)] = []
        for s in -steps...steps {
            let centre = column + Double(s) / 10
            if let cost = asymmetry(rows: rows, above: skin, about: centre, halfWidth: halfWidth) { costs.append((centre, cost)) }
        }
        guard costs.count >= 3, let best = costs.indices.min(by: { costs[$0].cost < costs[$1].cost }) else { return nil }
        guard best > 0, best < costs.count - 1 else { return costs[best].centre }
        let shift = parabolaVertexOffset(costs[best - 1].cost, costs[best].cost, costs[best + 1].cost, peak: false)
        return costs[best].centre + shift / 10
    }

    /// Mean squared difference between the rises mirrored about `centre` (a fractional
    /// column), nil when fewer than half the pairs are filled.
    func asymmetry(rows: ClosedRange<Int>, above skin: SkinSurface, about centre: Double, halfWidth: Int) -> Double? {
        var sum = 0.0, count = 0, pairs = 0
        for j in rows {
            for d in 1...max(1, halfWidth) {
                pairs += 1
                guard let left = rise(column: centre - Double(d), row: j, above: skin),
                    let right = rise(column: centre + Double(d), row: j, above: skin)
                else { continue }
                sum += (left - right) * (left - right)
                count += 1
            }
        }
        return count * 2 >= pairs && count > 0 ? sum / Double(count) : nil
    }

    /// The rise at a fractional column of row `j`, interpolated between its two cells.
    func rise(column: Double, row j: Int, above skin: SkinSurface) -> Double? {
        let i = Int(column.rounded(.down)), f = column - Double(i)
        guard let a = rise(i, j, above: skin), let b = rise(i + 1, j, above: skin) else { return nil }
        return a + f * (b - a)
    }
}

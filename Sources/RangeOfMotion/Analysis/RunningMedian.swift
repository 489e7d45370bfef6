import Geometry

/// Medians over sliding windows: robust to a single wild value, unlike a mean.
enum RunningMedian {
    /// Each value replaced by the median of the `window` values centred on it; near the
    /// ends the window shrinks symmetrically, so the first and last values stay as they are.
    /// A plateau of at least window/2 + 1 equal values keeps its level, which is why the
    /// extremes of a held pose survive the smoothing.
    static func centred(_ values: [Double], window: Int) -> [Double] {
        guard window > 1 else { return values }
        return values.indices.map { i in
            let half = min(window / 2, i, values.count - 1 - i)
            return Statistics.median(values[(i - half)...(i + half)])
        }
    }

    /// Each value's neighbours' median: the values within `window / 2` places on either side,
    /// itself left out, so a wrong value cannot vouch for itself. A lone value keeps its own.
    static func ofNeighbours(_ values: [Double], window: Int) -> [Double] {
        values.indices.map { i in
            let range = max(0, i - window / 2)...min(values.count - 1, i + window / 2)
            let others = range.filter { $0 != i }.map { values[$0] }
            return others.isEmpty ? values[i] : Statistics.median(others)
        }
    }

    /// Each value's reference: the median of a full `window` of values around it, the window
    /// shifted inward near the ends so that every value is compared with as many neighbours.
    static func reference(_ values: [Double], window: Int) -> [Double] {
        let size = min(window, values.count)
        return values.indices.map { i in
            let start = min(max(0, i - size / 2), values.count - size)
            return Statistics.median(values[start..<(start + size)])
        }
    }

}

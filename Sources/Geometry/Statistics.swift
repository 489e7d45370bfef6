/// Order statistics, one rule each, so that a figure means the same wherever it is computed.
///
/// - `median`: the middle value, or the mean of the two middle values for an even count.
/// - `upperMedian`: the element at `count / 2` of the sorted values, a value that occurs in
///   the data (the upper of the two middle ones for an even count); cheaper, and what a robust
///   scale inside an iteration needs.
/// - `quantile`: linear interpolation between order statistics (type 7, as NumPy's default).
/// - `nearestRankQuantile`: the order statistic nearest to `q × (count − 1)`, a value that
///   occurs in the data (latencies reported as measured).
/// - `robustSigma`: 1.4826 × the median absolute deviation from the median, the standard
///   deviation it implies for normal data.
public enum Statistics {
    /// The median; NaN when `values` is empty.
    @inlinable public static func median(_ values: some Collection<Double>) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        guard n > 0 else { return .nan }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// The median as `median` gives it, found by selection (`orderStatistic`) instead of a
    /// sort: linear time on average, for a median taken thousands of times over the same few
    /// hundred values (the knee's plane search). The values must not be NaN.
    public static func selectedMedian(_ values: [Double]) -> Double {
        var a = values
        let n = a.count
        guard n > 0 else { return .nan }
        let upper = orderStatistic(&a, rank: n / 2)
        guard n % 2 == 0 else { return upper }
        // Selection leaves every value before the rank no larger than it.
        return ((a[0..<(n / 2)].max() ?? upper) + upper) / 2
    }

    /// The element at `count / 2` of the sorted values; nil when empty.
    @inlinable public static func upperMedian<T: Comparable>(_ values: some Collection<T>) -> T? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// The element at `rank` of `values` as if sorted ascending, found without sorting them
    /// (quickselect; a sort when the partitions keep coming out lopsided): `values` is left
    /// reordered. The values must not be NaN; `rank` must be one of their indices.
    public static func orderStatistic(_ values: inout [Double], rank: Int) -> Double {
        precondition(values.indices.contains(rank), "rank \(rank) of \(values.count) values")
        var low = 0, high = values.count - 1
        var partitionsLeft = 2 * (Int.bitWidth - values.count.leadingZeroBitCount) + 8
        return values.withUnsafeMutableBufferPointer { v in
            while low < high {
                guard partitionsLeft > 0 else {
                    v[low...high].sort()
                    return v[rank]
                }
                partitionsLeft -= 1
                // Median of three as the pivot; then Hoare's partition around it.
                let middle = low + (high - low) / 2
                if v[middle] < v[low] { v.swapAt(middle, low) }
                if v[high] < v[low] { v.swapAt(high, low) }
                if v[high] < v[middle] { v.swapAt(high, middle) }
                let pivot = v[middle]
                var i = low, j = high
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while pivot < v[j] { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if rank <= j {
                    high = j
                } else if rank >= i {
                    low = i
                } else {
                    return v[rank]
                }
            }
            return v[rank]
        }
    }

    /// The `q` quantile (0...1) by linear interpolation between order statistics; 0 when empty.
    @inlinable public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The order statistic nearest to the `q` quantile (0...1); nil when empty.
    @inlinable public static func nearestRankQuantile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = (Double(sorted.count - 1) * min(max(q, 0), 1)).rounded()
        return sorted[Int(rank)]
    }

    /// 1.4826 × the median absolute deviation from the median, with `median`'s even-count rule.
    @inlinable public static func robustSigma(_ values: [Double]) -> Double {
        let centre = median(values)
        return 1.4826 * median(values.map { abs($0 - centre) })
    }

    /// 1.4826 × the median absolute deviation, both medians taken as `upperMedian`; 0 when empty.
    @inlinable public static func robustSigmaUpper(_ values: [Double]) -> Double {
        guard let centre = upperMedian(values) else { return 0 }
        return 1.4826 * (upperMedian(values.map { abs($0 - centre) }) ?? 0)
    }
}

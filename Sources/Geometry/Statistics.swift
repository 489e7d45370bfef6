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

    /// The element at `count / 2` of the sorted values; nil when empty.
    @inlinable public static func upperMedian<T: Comparable>(_ values: some Collection<T>) -> T? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
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

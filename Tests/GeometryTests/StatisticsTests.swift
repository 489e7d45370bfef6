import Geometry
import Testing

@Suite("Order statistics")
struct StatisticsTests {
    @Test func theMedianIsTheMiddleOrTheMeanOfTheTwoMiddleValues() {
        #expect(Statistics.median([3.0]) == 3)
        #expect(Statistics.median([5.0, 1, 3]) == 3)
        #expect(Statistics.median([4.0, 1, 3, 2]) == 2.5)
        #expect(Statistics.median([1.0, 1, 100, 100]) == 50.5)
    }

    @Test func theMedianOfNothingIsNotANumber() {
        #expect(Statistics.median([Double]()).isNaN)
    }

    /// Selection gives the sort's median to the bit, on odd and even counts, runs of equal
    /// values and sorted or reversed input (where a careless pivot degrades or loops).
    @Test func theSelectedMedianIsTheSortedOne() {
        var random = SplitMix64(seed: 41)
        for trial in 0..<400 {
            let count = 1 + trial % 97
            var values = (0..<count).map { _ in trial % 3 == 0 ? Double(Int(random.uniform(0...5))) : random.gaussian(sigma: 10) }
            if trial % 7 == 0 { values.sort() }
            if trial % 11 == 0 { values.sort(by: >) }
            #expect(Statistics.selectedMedian(values) == Statistics.median(values), "trial \(trial): \(values)")
        }
        #expect(Statistics.selectedMedian([]).isNaN)
    }

    @Test func theUpperMedianIsAValueOfTheData() {
        #expect(Statistics.upperMedian([4.0, 1, 3, 2]) == 3)
        #expect(Statistics.upperMedian([Float(2), 9, 4]) == 4)
        #expect(Statistics.upperMedian([Int]()) == nil)
    }

    @Test func quantilesInterpolateBetweenOrderStatistics() {
        let values = [10.0, 0, 30, 20]
        #expect(Statistics.quantile(values, 0) == 0)
        #expect(Statistics.quantile(values, 1) == 30)
        #expect(Statistics.quantile(values, 0.5) == 15)
        #expect(abs(Statistics.quantile(values, 0.9) - 27) < 1e-12)
        #expect(Statistics.quantile([], 0.5) == 0)
    }

    @Test func theNearestRankQuantileIsAMeasuredValue() {
        let values = (1...20).map(Double.init)
        #expect(Statistics.nearestRankQuantile(values, 0.5) == 11)
        #expect(Statistics.nearestRankQuantile(values, 0.95) == 19)
        #expect(Statistics.nearestRankQuantile(values, 1) == 20)
        #expect(Statistics.nearestRankQuantile([], 0.5) == nil)
    }

    /// For normal data 1.4826 × MAD estimates the standard deviation; a far outlier leaves it.
    @Test func theRobustSigmaOfNormalDataIsItsStandardDeviation() {
        var random = SplitMix64(seed: 4)
        var values = (0..<20_000).map { _ in 3 + 2 * Double(random.gaussian()) }
        #expect(abs(Statistics.robustSigma(values) - 2) < 0.06)
        values += [Double](repeating: 1e6, count: 100)
        #expect(abs(Statistics.robustSigma(values) - 2) < 0.08)
        #expect(abs(Statistics.robustSigmaUpper(values) - 2) < 0.08)
    }

    @Test func anOrderStatisticIsTheSortedValueAtItsRank() {
        var random = Xoshiro256(seed: 5)
        let shapes: [[Double]] = [
            [4], [2, 1], (0..<37).map { _ in random.unitDouble() }, (0..<64).map { _ in Double(Int(random.unitDouble() * 5)) },
            (0..<50).map(Double.init), (0..<50).map { Double(50 - $0) }, Array(repeating: 1.5, count: 33),
            (0..<61).map { Double(min($0, 60 - $0)) },  // organ pipe
        ]
        for values in shapes {
            let sorted = values.sorted()
            for rank in values.indices {
                var scratch = values
                #expect(Statistics.orderStatistic(&scratch, rank: rank) == sorted[rank], "rank \(rank) of \(values.count)")
                #expect(scratch.sorted() == sorted, "the values are only reordered")
            }
        }
    }
}

/// The mean of the middle half of the values: the lowest and highest quarter (rounded down)
/// are left out. Frames that passed every gate scatter about like measurement noise, for
/// which this wastes less of the data than the median does, while one frame in four on
/// either side can still be wild without moving it far.
enum InterquartileMean {
    static func of<C: Collection<Double>>(_ values: C) -> Double {
        let sorted = values.sorted()
        let cut = sorted.count / 4
        let middle = sorted[cut..<(sorted.count - cut)]
        return middle.reduce(0, +) / Double(middle.count)
    }
}

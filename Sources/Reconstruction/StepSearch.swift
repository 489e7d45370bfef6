/// A compass search: from a start, a step along each of a few directions is tried each way and
/// kept wherever it scores higher; when no step of the current size does, the size halves, until
/// it falls below the smallest. The print's placements are finished this way, where the score is
/// cheap but has no derivative worth taking.
enum StepSearch {
    /// The best value reached from `start` and its score. `move(value, direction, step)` is
    /// `value` moved by the signed `step` along direction `0..<directions`.
    static func climb<Value>(
        from start: Value, directions: Int, size: Double, smallest: Double, score: (Value) -> Double,
        move: (Value, Int, Double) -> Value
    ) -> (value: Value, score: Double) {
        var best = start, bestScore = score(start)
        var size = size
        while size >= smallest {
            var improved = false
            for direction in 0..<directions {
                for sign in [-1.0, 1] {
                    let moved = move(best, direction, sign * size)
                    let s = score(moved)
                    if s > bestScore {
                        best = moved
                        bestScore = s
                        improved = true
                    }
                }
            }
            if !improved { size /= 2 }
        }
        return (best, bestScore)
    }
}

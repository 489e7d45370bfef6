/// The Levenberg–Marquardt loop, whatever the problem: linearise at the current state, try
/// damped steps until one lowers the cost (the damping eased after a success, raised after a
/// failure), and stop after `iterations` or when an iteration gains next to nothing.
///
/// The problem brings its own state, cost, linearisation and damped step (how it builds and
/// solves its normal equations is its own affair); the loop decides only which step to keep
/// and how to damp the next. Same inputs, same steps: the result is the same to the bit.
public struct LevenbergMarquardt: Sendable {
    /// Linearisations at most.
    public var iterations: Int
    /// The damping the first step is tried with.
    public var initialDamping = 1e-3
    /// Damped steps tried from one linearisation before giving up.
    public var attemptsPerIteration = 6
    /// The damping is never eased below this.
    public var minimumDamping = 1e-7
    /// After a kept step, the damping is divided by this.
    public var easing = 5.0
    /// After a step that raised the cost (or was not admissible), the damping is multiplied by
    /// this; after a damped system that could not be solved, by `unsolvableGrowth`.
    public var growth = 8.0
    public var unsolvableGrowth = 10.0
    /// An iteration that lowers the cost by less than this fraction ends the loop.
    public var relativeImprovement = 1e-6

    /// The loop with `iterations` linearisations at most and the other settings as they are.
    public init(iterations: Int) {
        self.iterations = iterations
    }

    /// What a minimisation ended with.
    public struct Outcome<State> {
        /// The last state kept.
        public var state: State
        /// The cost of the start and of `state`.
        public var initialCost: Double
        public var cost: Double
    }

    /// Minimises `cost` from `start`. `linearise` builds what a step is made from (normal
    /// equations, say) at a state; `step` gives the state one damped step away from it, or nil
    /// when the damped system cannot be solved; `isAdmissible` refuses states outside the
    /// problem's bounds (a step to one counts as a failure).
    public func minimise<State, Linearisation>(
        from start: State, cost: (State) -> Double, linearise: (State) -> Linearisation,
        step: (_ system: Linearisation, _ from: State, _ damping: Double) -> State?,
        isAdmissible: (State) -> Bool = { _ in true }
    ) -> Outcome<State> {
        var lambda = initialDamping
        var state = start
        let initial = cost(state)
        var current = initial
        for _ in 0..<iterations {
            let system = linearise(state)
            var improved = false
            for _ in 0..<attemptsPerIteration {
                guard let next = step(system, state, lambda) else { lambda *= unsolvableGrowth; continue }
                let candidate = cost(next)
                if candidate < current, isAdmissible(next) {
                    state = next
                    lambda = max(minimumDamping, lambda / easing)
                    improved = current - candidate > relativeImprovement * current
                    current = candidate
                    break
                }
                lambda *= growth
            }
            guard improved else { break }
        }
        return Outcome(state: state, initialCost: initial, cost: current)
    }
}

/// Finds frames whose knee angle jumps away and back: further from both neighbouring frames
/// than the knee could turn in the time between, and on the same side of both. A fast but
/// steady bend moves away from one neighbour towards the other, and a turning point at the
/// end of a bend is no spike, since the knee slows down there.
struct AngleSpeedGate {
    /// Degrees per second.
    let maximumSpeed: Double

    /// Whether each frame is a spike; the first and last frame have one neighbour and are
    /// judged by it against twice the allowance (they cannot be told from a turn otherwise).
    func spikes(times: [Double], angles: [Double]) -> [Bool] {
        angles.indices.map { k in
            let before = k > 0 ? Optional(k - 1) : nil, after = k + 1 < angles.count ? Optional(k + 1) : nil
            func excess(_ n: Int) -> Double { (angles[k] - angles[n]) / max(abs(times[k] - times[n]) * maximumSpeed, 1e-9) }
            switch (before, after) {
            case let (b?, a?):
                let e1 = excess(b), e2 = excess(a)
                return e1.sign == e2.sign && min(abs(e1), abs(e2)) > 1
            case let (b?, nil): return abs(excess(b)) > 2
            case let (nil, a?): return abs(excess(a)) > 2
            case (nil, nil): return false
            }
        }
    }
}

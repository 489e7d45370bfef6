/// Finds frames whose knee angle jumps away and back: further from both neighbouring frames
/// than the knee could turn in the time between, and on the same side of both. A fast but
/// steady bend moves away from one neighbour towards the other, and a turning point at the
/// end of a bend is no spike, since the knee slows down there.
struct AngleSpeedGate {
    /// Degrees per second.
    let maximumSpeed: Double

    /// Whether each frame is a spike. The first and last frame have one neighbour: an end frame
    /// is a spike when it lies further from it than the knee could turn and as far from where
    /// the motion of the two frames beside it leads (a fast steady bend leads there; a turn
    /// slows down before it). With no second frame, it must lie twice the allowance away.
    /// Smoothing keeps an end frame's own angle, so a wrong one that passed here would become
    /// the video's extreme.
    func spikes(times: [Double], angles: [Double]) -> [Bool] {
        angles.indices.map { k in
            let before = k > 0 ? Optional(k - 1) : nil, after = k + 1 < angles.count ? Optional(k + 1) : nil
            switch (before, after) {
            case (let b?, let a?):
                let e1 = excess(k, b, times, angles), e2 = excess(k, a, times, angles)
                return e1.sign == e2.sign && min(abs(e1), abs(e2)) > 1
            case (let b?, nil): return endSpike(k, neighbour: b, beyond: b - 1, times, angles)
            case (nil, let a?): return endSpike(k, neighbour: a, beyond: a + 1, times, angles)
            case (nil, nil): return false
            }
        }
    }

    /// How many allowances frame `k` lies from frame `n`, signed.
    private func excess(_ k: Int, _ n: Int, _ times: [Double], _ angles: [Double]) -> Double {
        (angles[k] - angles[n]) / max(abs(times[k] - times[n]) * maximumSpeed, 1e-9)
    }

    private func endSpike(_ k: Int, neighbour n: Int, beyond m: Int, _ times: [Double], _ angles: [Double]) -> Bool {
        let away = excess(k, n, times, angles)
        guard angles.indices.contains(m) else { return abs(away) > 2 }
        return abs(away) > 1 && abs(away - excess(n, m, times, angles)) > 1
    }
}

import Foundation

/// CPU time spent by the calling thread, so that a benchmark on a busy machine can say how
/// fast the work itself is, apart from the time other processes took the core.
public enum ThreadCPUTime {
    /// Seconds of CPU time this thread has used so far.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// Runs `work` and returns the thread's CPU seconds it took.
    public static func measure(_ work: () throws -> Void) rethrows -> Double {
        let start = now()
        try work()
        return now() - start
    }
}

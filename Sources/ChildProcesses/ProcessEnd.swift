import CProcessControl
import Foundation

/// How a helper ended, as the kernel tells it.
public enum ProcessEnd: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
}

// Foundation learns that a child ended when a socket the child inherited closes, and only then
// updates `isRunning` and lets `waitUntilExit()` return. That socket is not closed on exec: a
// child started by another thread at the same moment, or a process the helper left behind,
// inherits it and keeps it open, and the ended helper then looks alive for as long as that
// other process lives (a whole parallel test run once stalled behind idle helpers that held
// each other's sockets). The kernel is asked instead, without reaping the child, so Foundation
// still reaps it whenever it hears.
extension Process {
    /// Whether the kernel has ended the child (it may not be reaped yet).
    public var hasEnded: Bool {
        var signalled: Int32 = 0
        var code: Int32 = 0
        return hs_child_ended(processIdentifier, 0, &signalled, &code) != 0
    }

    /// Blocks until the child has ended and says how; for a child that was stopped or is about
    /// to end, never for one left to run.
    public func waitForEnd() -> ProcessEnd {
        var signalled: Int32 = 0
        var code: Int32 = 0
        if hs_child_ended(processIdentifier, 1, &signalled, &code) == 1 {
            return signalled != 0 ? .signalled(code) : .exited(code)
        }
        // Reaped already, so Foundation has heard or is about to record it.
        while isRunning { Thread.sleep(forTimeInterval: 0.001) }
        return terminationReason == .uncaughtSignal ? .signalled(terminationStatus) : .exited(terminationStatus)
    }
}

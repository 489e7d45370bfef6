import Foundation

/// One place per benchmark trial, filled by whichever worker ran it, and the progress bar.
final class TrialSlots<Trial>: @unchecked Sendable {
    private(set) var slots: [Result<Trial, any Error>?]
    private var done = 0
    private var bar = ProgressBar("Scanning")
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func record(_ index: Int, _ result: Result<Trial, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = result
        done += 1
        bar.update(done, of: slots.count)
    }

    /// Every trial's result, in order; throws the first trial's error.
    func results() throws -> [Trial] {
        try slots.map { slot in
            guard let slot else { throw TrialNotRun() }
            return try slot.get()
        }
    }
}

/// A trial no worker ran.
struct TrialNotRun: Error, CustomStringConvertible {
    var description: String { "a trial did not run" }
}

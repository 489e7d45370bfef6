import Dispatch
import Foundation

/// Runs `body(i)` for every i in `0..<count` on up to `threads` threads, each thread taking a
/// fixed stride of the indices, so which thread does what never changes the results. `body`
/// must touch only what index i owns.
func parallelFor(_ count: Int, threads: Int, _ body: (Int) -> Void) {
    let workers = min(max(1, threads), count)
    guard workers > 1 else {
        for i in 0..<count { body(i) }
        return
    }
    withoutActuallyEscaping(body) { body in
        // Each index is written by exactly one worker; the caller waits for all of them.
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: count, by: workers) { body(i) }
        }
    }
}

/// A fixed-size buffer whose elements parallel workers fill, each its own index.
final class SlotBuffer<Element>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Element>

    init(count: Int, repeating value: Element) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: value)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    subscript(i: Int) -> Element {
        get { storage[i] }
        set { storage[i] = newValue }
    }

    var count: Int { storage.count }
}

/// Cores this process may run on: on Linux the CPU affinity (`taskset`, a container's CPU
/// set, read from /proc/self/status), which `ProcessInfo.activeProcessorCount` does not see;
/// elsewhere the active cores.
public func availableCores() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8), let count = allowedCores(status: status) {
        return min(count, ProcessInfo.processInfo.activeProcessorCount)
    }
    #endif
    return ProcessInfo.processInfo.activeProcessorCount
}

/// The cores in the `Cpus_allowed:` line of a /proc status (a hexadecimal mask in
/// comma-separated groups); nil when there is none or it allows none.
func allowedCores(status: String) -> Int? {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }),
        let mask = line.split(separator: ":").last
    else { return nil }
    let count = mask.filter(\.isHexDigit).reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
    return count > 0 ? count : nil
}

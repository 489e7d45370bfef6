import Dispatch

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

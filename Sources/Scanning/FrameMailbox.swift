import Foundation
import Recording

/// Hands the newest camera frame to the guide: a frame not yet taken is replaced by a newer
/// one and counted as skipped, so the guide always works on the present and the camera never
/// waits. A pause request and the end of input wait for the guide in order.
final class FrameMailbox: @unchecked Sendable {
    enum Item {
        case frame(RGBDFrame, index: Int, submitted: ContinuousClock.Instant)
        case pause
        case end
    }

    private let lock = NSLock()
    private var newest: Item?
    private var controls: [Item] = []
    private var waiting: CheckedContinuation<Item, Never>?
    private var skippedCount = 0

    /// Frames replaced before the guide took them.
    var skipped: Int {
        lock.lock()
        defer { lock.unlock() }
        return skippedCount
    }

    /// Puts a frame in, replacing one the guide has not taken yet.
    func put(_ frame: RGBDFrame, index: Int, submitted: ContinuousClock.Instant) {
        deliver(.frame(frame, index: index, submitted: submitted))
    }

    /// Asks the guide to pause once it has taken the frames before.
    func pause() { deliver(.pause) }

    /// No more frames will come.
    func end() { deliver(.end) }

    /// The next item, waiting for one if there is none.
    func next() async -> Item {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let item = take() {
                lock.unlock()
                continuation.resume(returning: item)
            } else {
                waiting = continuation
                lock.unlock()
            }
        }
    }

    private func deliver(_ item: Item) {
        lock.lock()
        if case .frame = item {
            if newest != nil { skippedCount += 1 }
            newest = item
        } else {
            // A control comes after the frame already waiting, which must not be lost to it.
            if let frame = newest { controls.append(frame); newest = nil }
            controls.append(item)
        }
        guard let continuation = waiting, let next = take() else { lock.unlock(); return }
        waiting = nil
        lock.unlock()
        continuation.resume(returning: next)
    }

    /// The oldest control or else the newest frame; the caller holds the lock.
    private func take() -> Item? {
        if !controls.isEmpty { return controls.removeFirst() }
        defer { newest = nil }
        return newest
    }
}

#if canImport(UIKit)
import AppModel
import UIKit

/// While a scan is measured the screen stays on (the idle timer would lock the phone in the
/// middle of a minute-long reconstruction) and, should the therapist switch apps, iOS is asked
/// for the background time to finish. Nested begins are counted.
@MainActor
public final class DeviceProcessingActivity: ProcessingActivity {
    private var depth = 0
    private var task = UIBackgroundTaskIdentifier.invalid

    public init() {}

    public func begin() {
        depth += 1
        guard depth == 1 else { return }
        UIApplication.shared.isIdleTimerDisabled = true
        task = UIApplication.shared.beginBackgroundTask(withName: "Measuring a scan") { [weak self] in
            // Time is up: the measurement goes on when the app is back; the task must end now.
            MainActor.assumeIsolated { self?.endBackgroundTask() }
        }
    }

    public func end() {
        guard depth > 0 else { return }
        depth -= 1
        guard depth == 0 else { return }
        UIApplication.shared.isIdleTimerDisabled = false
        endBackgroundTask()
    }

    private func endBackgroundTask() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
#endif

import AppSupport
import Observation
import ScanLibrary

/// One page of the first-launch introduction.
public struct OnboardingPage: Sendable, Equatable, Identifiable {
    public var id: Int
    public var title: String
    public var text: String
}

/// The introduction on first launch: what the app does, how to scan, and where the images go
/// (parents asked). Shown until finished once; the flag lives in the settings store.
@MainActor @Observable
public final class OnboardingModel {
    /// The key of the "seen" flag in the settings store.
    public static let seenKey = "onboardingSeen"

    /// The page on screen.
    public private(set) var index = 0
    /// Called when the introduction is finished.
    @ObservationIgnored public var onFinished: () -> Void = {}

    public let pages: [OnboardingPage]
    @ObservationIgnored private let store: any KeyValueStore

    public init(store: any KeyValueStore, strings: Strings) {
        self.store = store
        pages = [
            OnboardingPage(id: 0, title: strings(.onboardingWhatTitle), text: strings(.onboardingWhatText)),
            OnboardingPage(id: 1, title: strings(.onboardingHowTitle), text: strings(.onboardingHowText)),
            OnboardingPage(id: 2, title: strings(.onboardingDataTitle), text: strings(.onboardingDataText)),
        ]
        buttonTitles = (strings(.onboardingNext), strings(.onboardingStart))
    }

    private let buttonTitles: (next: String, start: String)

    /// Whether the introduction still has to be shown.
    public static func isNeeded(_ store: any KeyValueStore) -> Bool {
        guard case .bool(true) = (try? store.value(forKey: seenKey)) ?? nil else { return true }
        return false
    }

    /// The page on screen.
    public var page: OnboardingPage { pages[index] }

    /// "Next", or "Start" on the last page.
    public var buttonTitle: String { index == pages.count - 1 ? buttonTitles.start : buttonTitles.next }

    /// Next page, or finish on the last one.
    public func advance() {
        guard index == pages.count - 1 else {
            index += 1
            return
        }
        // If the flag cannot be stored the introduction shows again next time: harmless.
        try? store.setValue(.bool(true), forKey: Self.seenKey)
        onFinished()
    }
}

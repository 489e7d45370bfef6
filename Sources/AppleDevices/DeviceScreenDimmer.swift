#if canImport(UIKit)
import AppModel
import UIKit

/// Turns the screen's brightness down while recording and back to the user's level after.
/// The screen of the app's active window scene is used (`UIScreen.main` is deprecated).
@MainActor
public final class DeviceScreenDimmer: ScreenDimmer {
    /// Brightness while recording: dark, but the operator can still see the screen lit.
    public static let recordingBrightness: CGFloat = 0.05
    private var saved: CGFloat?

    public init() {}

    public func dim() {
        guard let screen = Self.screen else { return }
        if saved == nil { saved = screen.brightness }
        screen.brightness = Self.recordingBrightness
    }

    public func restore() {
        guard let saved, let screen = Self.screen else { return }
        screen.brightness = saved
        self.saved = nil
    }

    private static var screen: UIScreen? {
        UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.first { $0.activationState == .foregroundActive }?.screen
    }
}
#endif

#if os(iOS)
import AVFoundation

/// Camera access for HeadScan.
public enum CameraPermission: Sendable, Equatable {
    /// Not asked yet: asking shows the system's question with the usage text.
    case notDetermined
    case authorized
    /// Refused, or not allowed by restrictions: the app shows how to turn it on.
    case denied

    /// The status now.
    public static var current: CameraPermission {
        switch AVCaptureDevice.authorizationStatus(for: .video) {
        case .notDetermined: .notDetermined
        case .authorized: .authorized
        case .denied, .restricted: .denied
        @unknown default: .denied
        }
    }

    /// Asks when not asked yet; returns the status afterwards.
    public static func request() async -> CameraPermission {
        if current == .notDetermined {
            _ = await AVCaptureDevice.requestAccess(for: .video)
        }
        return current
    }
}
#endif

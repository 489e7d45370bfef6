import Feedback
import Foundation
import Markers
import Recording

extension ScanHeader {
    /// The header of a scan the app records: the camera models of its first frame, the cap
    /// it is recorded with (kept whole, so replays and processing use this very layout) and
    /// every setting in force.
    public init(device: String, firstFrame: RGBDFrame, layout: CapLayout, settings: FeedbackSettings) {
        self.init(
            device: device, appVersion: HeadScanVersion.current, colorIntrinsics: firstFrame.colorIntrinsics,
            depthIntrinsics: firstFrame.depthIntrinsics, layout: layout, settings: settings.headerEntries,
            createdAt: Date())
    }
}

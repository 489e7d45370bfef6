import Foundation

/// Why a reconstruction could not be made.
public enum ReconstructionError: Error, Equatable, CustomStringConvertible {
    /// The scan has no frames to work with.
    case emptyScan
    /// No frame showed enough cap markers (with depth) to start a marker map.
    case noUsableMarkers(framesSeen: Int)
    /// Too few frames registered to the marker map for a surface.
    case tooFewRegisteredFrames(registered: Int, needed: Int)
    /// The fused volume held no surface.
    case emptySurface
    /// The reconstruction was cancelled.
    case cancelled
    /// A frame's camera cannot be placed on the marker map.
    case cannotLocateFrame(index: Int, markers: Int)
    /// Without markers: the frame was not placed on the head, nor lies between two placed frames.
    case frameNotPlaced(index: Int, nearest: Int?)
    /// The frame was taken while the cap slid on the head.
    case frameWhileCapSlid(index: Int)
    /// Without markers: no frame showed a head-sized surface near the middle of the picture.
    case noHeadInView(framesSeen: Int)
    /// Without markers: too few frames could be placed on the surface fused so far.
    case trackingLost(placed: Int, examined: Int)
    /// A whole view (a recording of another scene): no frame showed enough depth nearer than
    /// the limit, or too few frames could be placed on the surface fused so far.
    case nothingInView(framesSeen: Int, maximumDepth: Double)
    case viewLost(placed: Int, examined: Int)
    /// Without markers: views no longer lie on the finished surface where they were placed.
    case placementWentAstray(agreement: Double, onPrint: Bool = false)

    public var description: String {
        switch self {
        case .emptyScan:
            "the scan holds no readable frames; record again"
        case .noUsableMarkers(let frames):
            "none of the \(frames) frames shows at least 3 cap markers with depth; check that the infant wears the marker cap and that the markers are in view and lit"
        case .tooFewRegisteredFrames(let registered, let needed):
            "only \(registered) frames could be placed on the marker map (at least \(needed) are needed); scan more slowly and keep several markers in view"
        case .emptySurface:
            "no head surface was found in the depth data; keep the head 25–60 cm from the camera"
        case .cancelled:
            "the reconstruction was cancelled; nothing was saved"
        case .frameWhileCapSlid(let index):
            "frame \(index) was taken while the cap slid on the head, so its stickers do not show where the head was; pick the landmark in another frame"
        case .noHeadInView(let frames):
            "none of the \(frames) frames shows a head-sized surface in the middle of the picture; start the scan with the head centred, 25–60 cm away"
        case .trackingLost(let placed, let examined):
            "only \(placed) of \(examined) frames could be placed on the head's surface without markers; move the phone more slowly around the head, or scan with the marker cap"
        case .nothingInView(let frames, let maximumDepth):
            String(
                format: "none of the %d frames shows enough depth nearer than %.2f m to start from; "
                    + "raise --whole-view, or check the recording's depth scale", frames, maximumDepth)
        case .viewLost(let placed, let examined):
            "only \(placed) of \(examined) frames could be placed on the surface fused so far; a depth map with many empty pixels "
                + "(in lines, as reprojected depth has) leaves no surface to place on: fill its gaps, or use a coarser --voxel-mm"
        case .placementWentAstray(let agreement, let onPrint):
            "the views were placed inconsistently without markers (a tenth of them have more than \(Int(((1 - agreement) * 100 - 1e-9).rounded(.up))) % \(onPrint ? "of the cap's print off its place on the finished surface" : "of their points off the finished surface")): the head moved too fast to follow; scan again while the head is still, or scan with the marker cap"
        case .frameNotPlaced(let index, let nearest):
            "frame \(index) was not placed on the head (without stickers a frame is placed by its depth, and this one's was not, nor "
                + "were frames close on both sides of it); pick the landmark "
                + (nearest.map { "on frame \($0) or another near it" } ?? "on another frame")
        case .cannotLocateFrame(let index, let markers):
            "frame \(index) shows \(markers) mapped cap markers, too few to know where the camera was (2 with depth are needed); pick the landmark in another frame"
        }
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension ReconstructionError: LocalizedError {
    public var errorDescription: String? { description }
}

#if os(iOS)
import AVFoundation
import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import RangeOfMotion
import Vision

/// Why a video gave no poses.
public enum VideoPoseError: Error, Equatable, LocalizedError {
    /// The file has no video track (a sound file, a photo, …).
    case noVideoTrack
    /// The video cannot be decoded.
    case unreadable(String)
    /// Not one frame could be read.
    case noFrames

    public var errorDescription: String? {
        switch self {
        case .noVideoTrack: "The file holds no video."
        case .unreadable(let why): "The video cannot be decoded: \(why)"
        case .noFrames: "Not one picture of the video could be read."
        }
    }
}

/// Poses of a recorded or picked video with Vision's body-pose request: the video is decoded
/// with `AVAssetReader`, the first frame of every 1 / `framesPerSecond` seconds is kept (3 per
/// second by default, `RangeOfMotionSettings.framesPerSecond`), and each kept frame's most
/// confident person becomes a `PoseFrame` with COCO's keypoint names.
///
/// Positions are pixels of the upright picture (the video track's rotation applied), x right
/// and y down, pixel centres at integers. A frame without a person is kept without keypoints,
/// so that the quality gates count it. Cancelling the task stops the reading.
public struct VisionPoseSource: PoseSource {
    /// Joints with a lower confidence are left out (Vision reports 0 for joints it did not find).
    public var minimumConfidence: Float

    /// A source keeping every joint Vision reports with a confidence above `minimumConfidence`.
    public init(minimumConfidence: Float = 0) {
        self.minimumConfidence = minimumConfidence
    }

    public func poses(
        of video: URL, framesPerSecond: Double, progress: @escaping @MainActor @Sendable (Int, Int) -> Void
    ) async throws -> PoseSequence {
        let asset = AVURLAsset(url: video)
        let track: AVAssetTrack
        let size: CGSize, transform: CGAffineTransform, duration: CMTime
        do {
            guard let first = try await asset.loadTracks(withMediaType: .video).first else { throw VideoPoseError.noVideoTrack }
            track = first
            (size, transform) = try await track.load(.naturalSize, .preferredTransform)
            duration = try await asset.load(.duration)
        } catch let error as VideoPoseError {
            throw error
        } catch {
            throw VideoPoseError.unreadable(error.localizedDescription)
        }

        let orientation = Self.orientation(of: transform)
        let stored = (width: Int(size.width.rounded()), height: Int(size.height.rounded()))
        let upright = orientation.isQuarterTurn ? (width: stored.height, height: stored.width) : stored
        let rate = framesPerSecond > 0 ? framesPerSecond : 3
        let seconds = CMTimeGetSeconds(duration)
        let expected = seconds.isFinite && seconds > 0 ? max(1, Int((seconds * rate).rounded(.up))) : 0

        let reader: AVAssetReader
        do { reader = try AVAssetReader(asset: asset) } catch { throw VideoPoseError.unreadable(error.localizedDescription) }
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.alwaysCopiesSampleData = false
        guard reader.canAdd(output) else { throw VideoPoseError.unreadable("the video track cannot be read") }
        reader.add(output)
        guard reader.startReading() else {
            throw VideoPoseError.unreadable(reader.error?.localizedDescription ?? "reading did not start")
        }
        defer { if reader.status == .reading { reader.cancelReading() } }

        await progress(0, expected)
        var frames: [PoseFrame] = []
        var firstTime: Double?
        var lastSlot = -1
        while let sample = output.copyNextSampleBuffer() {
            try Task.checkCancellation()
            let time = CMTimeGetSeconds(CMSampleBufferGetPresentationTimeStamp(sample))
            guard time.isFinite, let pixels = CMSampleBufferGetImageBuffer(sample) else { continue }
            let start = firstTime ?? time
            firstTime = start
            let slot = Int(((time - start) * rate + 1e-9).rounded(.down))
            guard slot > lastSlot else { continue }
            lastSlot = slot
            let keypoints = try detect(in: pixels, orientation: orientation, width: upright.width, height: upright.height)
            frames.append(PoseFrame(time: time - start, keypoints: keypoints))
            await progress(frames.count, max(expected, frames.count))
        }
        try Task.checkCancellation()
        if reader.status == .failed {
            throw VideoPoseError.unreadable(reader.error?.localizedDescription ?? "decoding failed")
        }
        guard !frames.isEmpty else { throw VideoPoseError.noFrames }
        await progress(frames.count, frames.count)
        return PoseSequence(width: Double(upright.width), height: Double(upright.height), frames: frames)
    }

    /// The keypoints of the most confident person in one frame; empty when there is none.
    private func detect(
        in pixels: CVPixelBuffer, orientation: CGImagePropertyOrientation, width: Int, height: Int
    ) throws -> [CocoKeypoint: Keypoint] {
        let request = VNDetectHumanBodyPoseRequest()
        let handler = VNImageRequestHandler(cvPixelBuffer: pixels, orientation: orientation, options: [:])
        try handler.perform([request])
        var best: [CocoKeypoint: Keypoint] = [:]
        var bestScore = 0.0
        for observation in request.results ?? [] {
            guard let points = try? observation.recognizedPoints(.all) else { continue }
            var keypoints: [CocoKeypoint: Keypoint] = [:]
            for (joint, keypoint) in Self.cocoJoints {
                guard let point = points[joint], point.confidence > minimumConfidence else { continue }
                keypoints[keypoint] = Keypoint(
                    Self.pixel(point.location, width: width, height: height), confidence: Double(point.confidence))
            }
            let score = keypoints.values.reduce(0) { $0 + $1.confidence }
            if score > bestScore {
                best = keypoints
                bestScore = score
            }
        }
        return best
    }

    /// Vision's joints by COCO's names; both name the person's own left and right.
    static let cocoJoints: [(VNHumanBodyPoseObservation.JointName, CocoKeypoint)] = [
        (.nose, .nose), (.leftEye, .leftEye), (.rightEye, .rightEye), (.leftEar, .leftEar), (.rightEar, .rightEar),
        (.leftShoulder, .leftShoulder), (.rightShoulder, .rightShoulder), (.leftElbow, .leftElbow),
        (.rightElbow, .rightElbow), (.leftWrist, .leftWrist), (.rightWrist, .rightWrist), (.leftHip, .leftHip),
        (.rightHip, .rightHip), (.leftKnee, .leftKnee), (.rightKnee, .rightKnee), (.leftAnkle, .leftAnkle),
        (.rightAnkle, .rightAnkle),
    ]

    /// A Vision point (0...1, origin at the bottom left of the upright picture) in pixels of
    /// a `width` × `height` picture, origin at the top left, pixel centres at integers.
    static func pixel(_ normalised: CGPoint, width: Int, height: Int) -> SIMD2<Double> {
        SIMD2(Double(normalised.x) * Double(width) - 0.5, (1 - Double(normalised.y)) * Double(height) - 0.5)
    }

    /// How the video track's stored frames must be turned to be upright, from its transform
    /// (iPhone videos filmed in portrait are stored landscape with a quarter turn).
    static func orientation(of t: CGAffineTransform) -> CGImagePropertyOrientation {
        let a = t.a.rounded(), b = t.b.rounded(), c = t.c.rounded(), d = t.d.rounded()
        switch (a, b, c, d) {
        case (0, 1, -1, 0): return .right
        case (0, -1, 1, 0): return .left
        case (-1, 0, 0, -1): return .down
        default: return .up
        }
    }
}

extension CGImagePropertyOrientation {
    /// Whether the picture is stored turned by 90° either way.
    var isQuarterTurn: Bool {
        switch self {
        case .right, .left, .rightMirrored, .leftMirrored: true
        default: false
        }
    }
}
#endif

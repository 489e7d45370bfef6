#if os(iOS)
import AVFoundation
import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import HeadGestures
import ImageIO
import UIKit
import Vision

/// Why the front camera cannot deliver faces.
public enum FaceCameraError: Error, Equatable, LocalizedError {
    /// The user refused camera access.
    case notAuthorized
    /// This device has no front camera.
    case noFrontCamera
    /// The session could not be configured.
    case configurationFailed(String)

    public var errorDescription: String? {
        switch self {
        case .notAuthorized: "Camera access is turned off for HeadScan. Turn it on in Settings › HeadScan › Camera."
        case .noFrontCamera: "This device has no front camera."
        case .configurationFailed(let why): "The camera could not be set up: \(why)"
        }
    }
}

/// The front camera as a source of `FaceFrame`s for head gestures: 640×480 pictures, late
/// frames dropped, Vision's face landmarks on every picture that arrives — the pupils (or the
/// eye regions' centres), the centre of the outer lips as the mouth point, the face's box —
/// or no face.
///
/// Points are pixels of the camera's unmirrored buffer as it is stored, with the buffer's
/// orientation from the device orientation (`DeviceOrientation.frontCameraImageOrientation`),
/// so the gesture engine judges directions upright. Read `frames` and hand each frame to the
/// gesture entry point (`GestureTracker.process`, or the demo screen's model):
///
///     for await frame in source.frames { tracker.process(frame) }
public final class VisionFaceSource: NSObject, @unchecked Sendable {
    /// Every analysed picture, in order; when the reader falls behind only the newest are kept.
    public let frames: AsyncStream<FaceFrame>

    /// Pictures the camera dropped because the previous one was still being analysed.
    public var droppedFrames: Int { lock.withLock { dropped } }

    private let continuation: AsyncStream<FaceFrame>.Continuation
    private let session = AVCaptureSession()
    private let output = AVCaptureVideoDataOutput()
    private let queue = DispatchQueue(label: "HeadScan.VisionFaceSource", qos: .userInitiated)
    private let lock = NSLock()
    private var orientation = DeviceOrientation.portrait
    private var firstTimestamp: Double?
    private var dropped = 0
    private var configured = false
    private var orientationObserver: (any NSObjectProtocol)?

    /// A source; `start()` asks for camera access, configures and runs the camera.
    override public init() {
        (frames, continuation) = AsyncStream.makeStream(of: FaceFrame.self, bufferingPolicy: .bufferingNewest(4))
        super.init()
    }

    deinit {
        if let orientationObserver { NotificationCenter.default.removeObserver(orientationObserver) }
        continuation.finish()
    }

    /// Starts the camera and follows the device's orientation.
    @MainActor
    public func start() async throws {
        guard await CameraPermission.request() == .authorized else { throw FaceCameraError.notAuthorized }
        if orientationObserver == nil {
            UIDevice.current.beginGeneratingDeviceOrientationNotifications()
            orientationObserver = NotificationCenter.default.addObserver(
                forName: UIDevice.orientationDidChangeNotification, object: nil, queue: .main
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.deviceOrientationChanged(UIDevice.current.orientation) }
            }
        }
        deviceOrientationChanged(UIDevice.current.orientation)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    try self.configureOnce()
                    self.lock.withLock { self.firstTimestamp = nil }
                    self.session.startRunning()
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    /// Stops the camera; `frames` stays open for a later `start()`.
    @MainActor
    public func stop() {
        if let orientationObserver {
            NotificationCenter.default.removeObserver(orientationObserver)
            UIDevice.current.endGeneratingDeviceOrientationNotifications()
        }
        orientationObserver = nil
        queue.async { self.session.stopRunning() }
    }

    /// Uses the phone's new orientation; face up, face down and unknown keep the last one.
    @MainActor
    private func deviceOrientationChanged(_ device: UIDeviceOrientation) {
        let mapped: DeviceOrientation?
        switch device {
        case .portrait: mapped = .portrait
        case .portraitUpsideDown: mapped = .portraitUpsideDown
        case .landscapeLeft: mapped = .landscapeLeft
        case .landscapeRight: mapped = .landscapeRight
        default: mapped = nil
        }
        if let mapped { lock.withLock { orientation = mapped } }
    }

    private func configureOnce() throws {
        guard !configured else { return }
        guard let device = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) else {
            throw FaceCameraError.noFrontCamera
        }
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        guard session.canSetSessionPreset(.vga640x480) else { throw FaceCameraError.configurationFailed("no 640×480 format") }
        session.sessionPreset = .vga640x480
        do {
            let input = try AVCaptureDeviceInput(device: device)
            guard session.canAddInput(input) else { throw FaceCameraError.configurationFailed("camera input") }
            session.addInput(input)
        } catch let error as FaceCameraError {
            throw error
        } catch {
            throw FaceCameraError.configurationFailed(error.localizedDescription)
        }
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.alwaysDiscardsLateVideoFrames = true
        output.setSampleBufferDelegate(self, queue: queue)
        guard session.canAddOutput(output) else { throw FaceCameraError.configurationFailed("video output") }
        session.addOutput(output)
        // The gesture engine expects the unmirrored buffer.
        if let connection = output.connection(with: .video), connection.isVideoMirroringSupported {
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = false
        }
        configured = true
    }

    /// The face in one picture, as the gesture engine reads it.
    private func analyse(_ pixels: CVPixelBuffer, time: Double) -> FaceFrame {
        let width = CVPixelBufferGetWidth(pixels), height = CVPixelBufferGetHeight(pixels)
        let imageOrientation = lock.withLock { orientation }.frontCameraImageOrientation
        let exif = CGImagePropertyOrientation(rawValue: UInt32(imageOrientation.exifValue)) ?? .up
        let request = VNDetectFaceLandmarksRequest()
        let handler = VNImageRequestHandler(cvPixelBuffer: pixels, orientation: exif, options: [:])
        do { try handler.perform([request]) } catch {
            return FaceFrame(time: time, width: width, height: height, face: nil, orientation: imageOrientation)
        }
        // The largest face is the person in front of the phone.
        let face = (request.results ?? []).max { a, b in
            a.boundingBox.width * a.boundingBox.height < b.boundingBox.width * b.boundingBox.height
        }
        let landmarks = face.flatMap {
            Self.landmarks(of: $0, orientation: imageOrientation, width: width, height: height)
        }
        return FaceFrame(time: time, width: width, height: height, face: landmarks, orientation: imageOrientation)
    }

    /// Eyes, mouth and box of one face in the stored buffer's pixels; nil without eyes or lips.
    static func landmarks(
        of face: VNFaceObservation, orientation: ImageOrientation, width: Int, height: Int
    ) -> FaceLandmarks? {
        guard let marks = face.landmarks else { return nil }
        // Vision works in the upright picture: normalised, origin at the bottom left.
        let upright = orientation.uprightSize(width: width, height: height)
        let size = CGSize(width: upright.width, height: upright.height)
        func stored(_ p: CGPoint) -> SIMD2<Double> {
            let top = SIMD2(Double(p.x) - 0.5, Double(size.height) - Double(p.y) - 0.5)
            return orientation.stored(top, width: width, height: height)
        }
        func centre(_ region: VNFaceLandmarkRegion2D?) -> SIMD2<Double>? {
            guard let region, region.pointCount > 0 else { return nil }
            let points = region.pointsInImage(imageSize: size)
            let sum = points.reduce(CGPoint.zero) { CGPoint(x: $0.x + $1.x, y: $0.y + $1.y) }
            return stored(CGPoint(x: sum.x / CGFloat(points.count), y: sum.y / CGFloat(points.count)))
        }
        guard let eyeA = centre(marks.leftPupil) ?? centre(marks.leftEye),
            let eyeB = centre(marks.rightPupil) ?? centre(marks.rightEye),
            let mouth = centre(marks.outerLips)
        else { return nil }
        // The person's left eye is the one further right in the upright, unmirrored picture.
        let aRight =
            orientation.upright(eyeA, width: width, height: height).x
            > orientation.upright(eyeB, width: width, height: height).x
        let box = face.boundingBox
        let corners = [
            stored(CGPoint(x: box.minX * size.width, y: box.minY * size.height)),
            stored(CGPoint(x: box.maxX * size.width, y: box.maxY * size.height)),
        ]
        let low = pointwiseMin(corners[0], corners[1]), high = pointwiseMax(corners[0], corners[1])
        return FaceLandmarks(
            leftEye: aRight ? eyeA : eyeB, rightEye: aRight ? eyeB : eyeA, mouth: mouth,
            bounds: FaceBounds(x: low.x, y: low.y, width: high.x - low.x, height: high.y - low.y))
    }

    private func relativeTime(_ seconds: Double) -> Double {
        lock.withLock {
            let first = firstTimestamp ?? seconds
            firstTimestamp = first
            return seconds - first
        }
    }
}

extension VisionFaceSource: AVCaptureVideoDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let seconds = CMTimeGetSeconds(CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
        guard seconds.isFinite else { return }
        continuation.yield(analyse(pixels, time: relativeTime(seconds)))
    }

    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { dropped += 1 }
    }
}
#endif

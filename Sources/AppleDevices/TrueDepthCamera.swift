#if os(iOS)
import Accelerate
import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Geometry
import Imaging
import Recording
import Scanning
import simd

/// Why the TrueDepth camera cannot deliver frames.
public enum CameraError: Error, Equatable, LocalizedError {
    /// The user refused camera access (Settings › HeadScan › Camera).
    case notAuthorized
    /// This iPhone has no TrueDepth camera (iPhone X or newer is needed).
    case noTrueDepthCamera
    /// The camera offers no 640×480 format with depth.
    case noDepthFormat
    /// The session could not be configured.
    case configurationFailed(String)
    /// No frame arrived in time after starting.
    case noFrames

    public var errorDescription: String? {
        switch self {
        case .notAuthorized: "Camera access is turned off for HeadScan. Turn it on in Settings › HeadScan › Camera."
        case .noTrueDepthCamera: "This iPhone has no TrueDepth camera (iPhone X or newer is needed)."
        case .noDepthFormat: "The TrueDepth camera offers no 640×480 depth format."
        case .configurationFailed(let why): "The camera could not be set up: \(why)"
        case .noFrames: "The camera delivered no pictures."
        }
    }
}

/// The front TrueDepth camera as a frame source: colour and unfiltered depth (640×480,
/// metres, NaN where there is no value) synchronised, with intrinsics from the calibration
/// data scaled to each picture's resolution.
///
/// Frames are never queued: the capture outputs discard late frames, and `nextFrame()` holds
/// only the newest one. A live scan sets `onFrame` instead and gets every synchronised frame
/// on the capture queue (it must return at once, as `LiveScan.submit` does).
public final class TrueDepthCamera: NSObject, FrameSource, @unchecked Sendable {
    /// Called on the capture queue for every frame; must not block.
    public var onFrame: (@Sendable (RGBDFrame) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// Frames dropped because conversion of the previous one had not finished, and frames
    /// the synchroniser reported dropped by the outputs.
    public var droppedFrames: Int { lock.withLock { dropped } }

    /// The lens distortion table and depth accuracy the camera reported with its first
    /// calibrated frame, for the scan's header; nil until then.
    public var lensDistortion: LensDistortionTable? { lock.withLock { lensTable } }
    public var depthAccuracy: DepthAccuracy? { lock.withLock { accuracy } }

    /// Called (on a system queue) whenever the camera's system pressure changes: heat, power
    /// or the depth projector's temperature. At `shutdown` the system stops the camera.
    public var onSystemPressure: (@Sendable (SystemPressureLevel) -> Void)? {
        get { lock.withLock { pressureHandler } }
        set { lock.withLock { pressureHandler = newValue } }
    }

    private let session = AVCaptureSession()
    private let videoOutput = AVCaptureVideoDataOutput()
    private let depthOutput = AVCaptureDepthDataOutput()
    private var synchronizer: AVCaptureDataOutputSynchronizer?
    private let queue = DispatchQueue(label: "HeadScan.TrueDepthCamera", qos: .userInitiated)
    private let lock = NSLock()
    private var handler: (@Sendable (RGBDFrame) -> Void)?
    private var newest: RGBDFrame?
    private var waiter: CheckedContinuation<RGBDFrame?, Never>?
    private var stopped = false
    private var dropped = 0
    private var firstTimestamp: Double?
    private var configured = false
    private var lensTable: LensDistortionTable?
    private var accuracy: DepthAccuracy?
    private var pressureHandler: (@Sendable (SystemPressureLevel) -> Void)?
    private var pressureObservation: NSKeyValueObservation?

    /// A camera; `start()` configures and runs it.
    override public init() { super.init() }

    /// Configures the session (once) and starts it. Blocks while the session starts; call
    /// it off the main thread.
    public func start() throws {
        if !configured {
            try configure()
            configured = true
        }
        lock.withLock { stopped = false }
        session.startRunning()
    }

    /// Stops the camera (the sensor cools); `nextFrame()` then returns nil.
    public func stop() {
        session.stopRunning()
        let pending = lock.withLock { () -> CheckedContinuation<RGBDFrame?, Never>? in
            stopped = true
            defer { waiter = nil }
            return waiter
        }
        pending?.resume(returning: nil)
    }

    /// Starts timestamps at zero again with the next frame; a frame still held from before
    /// (stamped on the old clock) is dropped.
    public func resetClock() {
        lock.withLock {
            firstTimestamp = nil
            newest = nil
        }
    }

    public func nextFrame() async throws -> RGBDFrame? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let frame = newest {
                newest = nil
                lock.unlock()
                continuation.resume(returning: frame)
            } else if stopped {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    private func configure() throws {
        guard let device = AVCaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front) else {
            throw CameraError.noTrueDepthCamera
        }
        pressureObservation = device.observe(\.systemPressureState, options: [.new]) { [weak self] device, _ in
            let level = Self.level(device.systemPressureState.level)
            self?.onSystemPressure?(level)
        }
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .vga640x480
        do {
            let input = try AVCaptureDeviceInput(device: device)
            guard session.canAddInput(input) else { throw CameraError.configurationFailed("camera input") }
            session.addInput(input)
        } catch let error as CameraError {
            throw error
        } catch {
            throw CameraError.configurationFailed(error.localizedDescription)
        }

        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        videoOutput.alwaysDiscardsLateVideoFrames = true
        guard session.canAddOutput(videoOutput) else { throw CameraError.configurationFailed("video output") }
        session.addOutput(videoOutput)

        depthOutput.isFilteringEnabled = false  // holes stay holes (NaN), no invented depth
        depthOutput.alwaysDiscardsLateDepthData = true
        guard session.canAddOutput(depthOutput) else { throw CameraError.configurationFailed("depth output") }
        session.addOutput(depthOutput)
        if let connection = videoOutput.connection(with: .video), connection.isCameraIntrinsicMatrixDeliverySupported {
            connection.isCameraIntrinsicMatrixDeliveryEnabled = true
        }

        // 640×480 float depth in the active format, largest first.
        let depthFormats = device.activeFormat.supportedDepthDataFormats.filter {
            CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_DepthFloat32
        }
        let best = depthFormats.max { a, b in
            CMVideoFormatDescriptionGetDimensions(a.formatDescription).width
                < CMVideoFormatDescriptionGetDimensions(b.formatDescription).width
        }
        guard let format = best else { throw CameraError.noDepthFormat }
        do {
            try device.lockForConfiguration()
            device.activeDepthDataFormat = format
            Self.steady(device, depthFormat: format)
            device.unlockForConfiguration()
        } catch {
            throw CameraError.configurationFailed(error.localizedDescription)
        }

        let sync = AVCaptureDataOutputSynchronizer(dataOutputs: [videoOutput, depthOutput])
        sync.setDelegate(self, queue: queue)
        synchronizer = sync
    }

    /// 30 frames a second for colour and depth alike (the guide and the file expect a steady
    /// rate), and auto exposure held to at most 1/60 s so that a walking operator's frames are
    /// not smeared. Each setting only where the active formats allow it: AVFoundation raises
    /// an exception for a value outside their ranges. Call with the device locked.
    private static func steady(_ device: AVCaptureDevice, depthFormat: AVCaptureDevice.Format) {
        let thirtieth = CMTime(value: 1, timescale: 30)
        func allows30(_ ranges: [AVFrameRateRange]) -> Bool { ranges.contains { $0.minFrameRate <= 30 && 30 <= $0.maxFrameRate } }
        if allows30(device.activeFormat.videoSupportedFrameRateRanges) {
            device.activeVideoMinFrameDuration = thirtieth
            device.activeVideoMaxFrameDuration = thirtieth
        }
        if allows30(depthFormat.videoSupportedFrameRateRanges) {
            device.activeDepthDataMinFrameDuration = thirtieth
        }
        if device.isExposureModeSupported(.continuousAutoExposure) {
            let format = device.activeFormat
            let wanted = CMTime(value: 1, timescale: 60)
            device.exposureMode = .continuousAutoExposure
            device.activeMaxExposureDuration = CMTimeMaximum(format.minExposureDuration, CMTimeMinimum(wanted, format.maxExposureDuration))
        }
    }

    private func deliver(_ frame: RGBDFrame) {
        lock.lock()
        let handler = handler
        var pending: CheckedContinuation<RGBDFrame?, Never>?
        if let w = waiter {
            pending = w
            waiter = nil
        } else {
            if newest != nil { dropped += 1 }  // the reader was late: keep only the newest
            newest = frame
        }
        lock.unlock()
        pending?.resume(returning: frame)
        handler?(frame)
    }

    private static func level(_ level: AVCaptureDevice.SystemPressureState.Level) -> SystemPressureLevel {
        switch level {
        case .fair: .fair
        case .serious: .serious
        case .critical: .critical
        case .shutdown: .shutdown
        default: .nominal
        }
    }

    /// Keeps the first calibration's lens table and the depth's accuracy.
    private func noteSensorDetails(_ depthData: AVDepthData) {
        let known = lock.withLock { self.accuracy != nil }
        guard !known else { return }
        let table = depthData.cameraCalibrationData.flatMap(FrameConversion.lensDistortion)
        let accuracy: DepthAccuracy = depthData.depthDataAccuracy == .absolute ? .absolute : .relative
        lock.withLock {
            self.lensTable = table
            self.accuracy = accuracy
        }
    }

    private func relativeTime(_ seconds: Double) -> Double {
        lock.withLock {
            let first = firstTimestamp ?? seconds
            firstTimestamp = first
            return seconds - first
        }
    }
}

extension TrueDepthCamera: AVCaptureDataOutputSynchronizerDelegate {
    public func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput collection: AVCaptureSynchronizedDataCollection
    ) {
        guard let video = collection.synchronizedData(for: videoOutput) as? AVCaptureSynchronizedSampleBufferData,
            let depth = collection.synchronizedData(for: depthOutput) as? AVCaptureSynchronizedDepthData
        else { return }
        if video.sampleBufferWasDropped || depth.depthDataWasDropped {
            lock.withLock { dropped += 1 }
            return
        }
        guard let pixels = CMSampleBufferGetImageBuffer(video.sampleBuffer) else { return }
        let time = CMTimeGetSeconds(CMSampleBufferGetPresentationTimeStamp(video.sampleBuffer))
        let depthData = depth.depthData.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        let color = FrameConversion.rgba(pixels)
        let depthImage = FrameConversion.depth(depthData.depthDataMap)
        let attachment = CMGetAttachment(video.sampleBuffer, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
        let fallback = (attachment as? Data).flatMap(FrameConversion.matrix(from:))
        let calibration = depthData.cameraCalibrationData
        noteSensorDetails(depthData)
        let colorK = FrameConversion.intrinsics(
            calibration: calibration, fallback: fallback, fallbackSize: (color.width, color.height),
            width: color.width, height: color.height)
        let depthK = FrameConversion.intrinsics(
            calibration: calibration, fallback: fallback, fallbackSize: (color.width, color.height),
            width: depthImage.width, height: depthImage.height)
        deliver(
            RGBDFrame(
                timestamp: relativeTime(time), color: color, depth: depthImage, colorIntrinsics: colorK, depthIntrinsics: depthK))
    }
}

/// Pixel buffers to the package's images, and camera matrices to intrinsics.
enum FrameConversion {
    /// A BGRA pixel buffer as an RGBA image: one vImage channel permutation (the capture
    /// queue cannot afford a Swift loop per pixel, least of all in a debug build).
    static func rgba(_ buffer: CVPixelBuffer) -> RGBAImage {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let rowBytes = CVPixelBufferGetBytesPerRow(buffer)
        guard let base = CVPixelBufferGetBaseAddress(buffer), width > 0, height > 0,
            MemoryLayout<RGBA8>.size == 4, MemoryLayout<RGBA8>.stride == 4
        else {
            return RGBAImage(width: width, height: height, repeating: RGBA8(gray: 0))
        }
        var failed = false
        let pixels = [RGBA8](unsafeUninitializedCapacity: width * height) { out, count in
            var source = vImage_Buffer(data: base, height: vImagePixelCount(height), width: vImagePixelCount(width), rowBytes: rowBytes)
            var destination = vImage_Buffer(
                data: UnsafeMutableRawPointer(out.baseAddress), height: vImagePixelCount(height), width: vImagePixelCount(width),
                rowBytes: width * 4)
            // Destination channel i takes source channel map[i]: B,G,R,A to R,G,B,A.
            let map: [UInt8] = [2, 1, 0, 3]
            failed = vImagePermuteChannels_ARGB8888(&source, &destination, map, vImage_Flags(kvImageNoFlags)) != kvImageNoError
            if failed { out.initialize(repeating: RGBA8(gray: 0)) }
            count = width * height
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A float32 depth map in metres; zero, negative and non-finite values become NaN. Rows
    /// are copied whole, then one pass over the contiguous values marks the holes.
    static func depth(_ buffer: CVPixelBuffer) -> DepthImage {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        let rowBytes = CVPixelBufferGetBytesPerRow(buffer)
        guard let base = CVPixelBufferGetBaseAddress(buffer), width > 0, height > 0, rowBytes >= width * 4 else {
            return DepthImage(width: width, height: height, repeating: .nan)
        }
        let values = [Float](unsafeUninitializedCapacity: width * height) { out, count in
            guard let start = out.baseAddress else { return }
            for y in 0..<height {
                (start + y * width).initialize(from: base.advanced(by: y * rowBytes).assumingMemoryBound(to: Float.self), count: width)
            }
            for i in 0..<(width * height) where !(out[i].isFinite && out[i] > 0) { out[i] = .nan }
            count = width * height
        }
        return DepthImage(width: width, height: height, pixels: values)
    }

    /// The calibration's lens distortion lookup tables (Float32 values) and centre.
    static func lensDistortion(_ calibration: AVCameraCalibrationData) -> LensDistortionTable? {
        guard let forward = calibration.lensDistortionLookupTable, let inverse = calibration.inverseLensDistortionLookupTable else { return nil }
        func floats(_ data: Data) -> [Float] {
            data.withUnsafeBytes { raw in (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
        }
        let size = calibration.intrinsicMatrixReferenceDimensions
        return LensDistortionTable(
            centerX: Double(calibration.lensDistortionCenter.x), centerY: Double(calibration.lensDistortionCenter.y),
            referenceWidth: Int(size.width), referenceHeight: Int(size.height),
            lookupTable: floats(forward), inverseLookupTable: floats(inverse))
    }

    /// The 3×3 matrix in a `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix` attachment.
    static func matrix(from data: Data) -> matrix_float3x3? {
        guard data.count >= MemoryLayout<matrix_float3x3>.size else { return nil }
        return data.withUnsafeBytes { $0.loadUnaligned(as: matrix_float3x3.self) }
    }

    /// Intrinsics for a picture of `width`×`height`: the calibration's matrix (given for its
    /// reference dimensions) or else `fallback` (for `fallbackSize`), scaled.
    static func intrinsics(
        calibration: AVCameraCalibrationData?, fallback: matrix_float3x3?, fallbackSize: (Int, Int), width: Int, height: Int
    ) -> CameraIntrinsics {
        let matrix: matrix_float3x3
        let reference: (Double, Double)
        if let calibration {
            matrix = calibration.intrinsicMatrix
            reference = (
                Double(calibration.intrinsicMatrixReferenceDimensions.width),
                Double(calibration.intrinsicMatrixReferenceDimensions.height)
            )
        } else if let fallback {
            matrix = fallback
            reference = (Double(fallbackSize.0), Double(fallbackSize.1))
        } else {
            // No calibration at all: a 60° horizontal field of view, centred.
            let f = Double(width) / (2 * tan(Double.pi / 6))
            return CameraIntrinsics(fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2, width: width, height: height)
        }
        let sx = Double(width) / reference.0, sy = Double(height) / reference.1
        // Column-major: columns.2 holds the principal point.
        return CameraIntrinsics(
            fx: Double(matrix.columns.0.x) * sx, fy: Double(matrix.columns.1.y) * sy,
            cx: Double(matrix.columns.2.x) * sx, cy: Double(matrix.columns.2.y) * sy,
            width: width, height: height)
    }
}
#endif

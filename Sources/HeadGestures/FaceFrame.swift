/// The three face points the head pointer is built from, in image pixels.
///
/// The pointer is symmetric in the two eyes, so which eye is called left only matters to the
/// caller; by convention `leftEye` is the person's own left eye (on the unmirrored image, the
/// one further right).
public struct FaceLandmarks: Sendable, Hashable {
    /// The person's left eye.
    public var leftEye: SIMD2<Double>
    /// The person's right eye.
    public var rightEye: SIMD2<Double>
    /// The centre of the mouth.
    public var mouth: SIMD2<Double>
    /// The face's bounding box, when the detector gives one; kept for display only.
    public var bounds: FaceBounds?

    /// Landmarks from the three points and, optionally, the face's box.
    public init(leftEye: SIMD2<Double>, rightEye: SIMD2<Double>, mouth: SIMD2<Double>, bounds: FaceBounds? = nil) {
        self.leftEye = leftEye
        self.rightEye = rightEye
        self.mouth = mouth
        self.bounds = bounds
    }
}

/// An axis-aligned box in image pixels.
public struct FaceBounds: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// A box from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// What the face detector saw in one camera frame.
public struct FaceFrame: Sendable, Hashable {
    /// Seconds on the camera's clock.
    public var time: Double
    /// Image width in pixels, as the buffer is stored.
    public var width: Int
    /// Image height in pixels, as the buffer is stored.
    public var height: Int
    /// The face, or nil when none was found.
    public var face: FaceLandmarks?
    /// How the stored buffer relates to the upright view; directions are judged upright.
    public var orientation: ImageOrientation

    /// A frame of `width` × `height` pixels at `time`, with or without a face.
    public init(time: Double, width: Int, height: Int, face: FaceLandmarks?, orientation: ImageOrientation = .up) {
        self.time = time
        self.width = width
        self.height = height
        self.face = face
        self.orientation = orientation
    }
}

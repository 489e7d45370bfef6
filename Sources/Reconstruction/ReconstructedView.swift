import Geometry

/// One frame as the reconstruction saw it: where its camera was, in the map's frame (the
/// mesh's), and the camera the reconstruction settled on. Rays start and points land in the
/// frame's raw pixels, as recorded, the lens's distortion in them (see `SettledCamera` for
/// the convention).
public struct ReconstructedView: Sendable, Equatable {
    /// The frame's index in the scan.
    public var frameIndex: Int
    /// The camera's pose in the map's frame.
    public var worldFromCamera: RigidTransform
    /// The camera the reconstruction settled on.
    public var camera: SettledCamera

    public init(frameIndex: Int, worldFromCamera: RigidTransform, camera: SettledCamera) {
        self.frameIndex = frameIndex
        self.worldFromCamera = worldFromCamera
        self.camera = camera
    }

    /// The camera's centre, in the map's frame.
    public var position: SIMD3<Double> { worldFromCamera.translation }

    /// The ray through raw pixel `pixel`: from the camera's centre, a unit direction, in the
    /// map's frame.
    public func ray(throughRawPixel pixel: SIMD2<Double>) -> (origin: SIMD3<Double>, direction: SIMD3<Double>) {
        let ray = camera.lens.unproject(pixel, depth: 1)
        return (worldFromCamera.translation, worldFromCamera.applyToVector(ray / length(ray)))
    }

    /// The raw pixel where `point` (map's frame) appears; nil behind the camera. The pixel may
    /// lie outside the picture: see `contains(rawPixel:)`.
    public func project(_ point: SIMD3<Double>) -> SIMD2<Double>? {
        camera.lens.project(worldFromCamera.inverse.apply(point))
    }

    /// The picture's size, pixels.
    public var width: Int { camera.recorded.width }
    public var height: Int { camera.recorded.height }

    /// Whether raw pixel `pixel` lies in the picture: x in 0 ..< width, y in 0 ..< height.
    public func contains(rawPixel pixel: SIMD2<Double>) -> Bool {
        pixel.x >= 0 && pixel.y >= 0 && pixel.x < Double(width) && pixel.y < Double(height)
    }
}

/// A dense, row-major image of `Pixel` values with value semantics.
///
/// Pixel centres sit at integer coordinates, x to the right and y down, as in OpenCV.
public struct Image<Pixel: Sendable>: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels, row after row; `pixels[y * width + x]`.
    public var pixels: [Pixel]

    /// Wraps existing pixels; `pixels.count` must equal `width * height`.
    public init(width: Int, height: Int, pixels: [Pixel]) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        precondition(pixels.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one value.
    public init(width: Int, height: Int, repeating value: Pixel) {
        self.init(width: width, height: height, pixels: Array(repeating: value, count: width * height))
    }

    /// Number of pixels.
    public var count: Int { pixels.count }

    /// Whether the image has no pixels.
    public var isEmpty: Bool { pixels.isEmpty }

    /// The pixel at column `x`, row `y`.
    @inlinable
    public subscript(x: Int, y: Int) -> Pixel {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Whether (x, y) lies inside the image.
    @inlinable
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// A new image with `transform` applied to every pixel.
    public func map<Other>(_ transform: (Pixel) throws -> Other) rethrows -> Image<Other> {
        Image<Other>(width: width, height: height, pixels: try pixels.map(transform))
    }
}

extension Image: Equatable where Pixel: Equatable {}

/// 8-bit single-channel image.
public typealias GrayImage = Image<UInt8>
/// 16-bit single-channel image (16-bit PNG, TUM depth).
public typealias Gray16Image = Image<UInt16>
/// 8-bit RGB image.
public typealias RGBImage = Image<RGB8>
/// 8-bit RGBA image.
public typealias RGBAImage = Image<RGBA8>
/// 8-bit BGRA image, the layout of camera pixel buffers on Apple devices.
public typealias BGRAImage = Image<BGRA8>
/// Depth map in metres; NaN marks pixels without a measurement.
public typealias DepthImage = Image<Float>

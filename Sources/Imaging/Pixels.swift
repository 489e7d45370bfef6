/// An 8-bit RGB pixel.
public struct RGB8: Sendable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8
    /// A pixel from its three channels.
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8) { self.r = r; self.g = g; self.b = b }
}

/// An 8-bit RGBA pixel, straight (not premultiplied) alpha.
public struct RGBA8: Sendable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    /// A pixel from its four channels; opaque by default.
    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// A gray, opaque pixel.
    @inlinable public init(gray: UInt8) { self.init(r: gray, g: gray, b: gray) }
}

/// An 8-bit BGRA pixel, the order of `kCVPixelFormatType_32BGRA` buffers.
public struct BGRA8: Sendable, Hashable {
    public var b: UInt8, g: UInt8, r: UInt8, a: UInt8
    /// A pixel from its four channels; opaque by default.
    @inlinable public init(b: UInt8, g: UInt8, r: UInt8, a: UInt8 = 255) {
        self.b = b; self.g = g; self.r = r; self.a = a
    }
}

extension RGBA8 {
    /// Luma (ITU-R BT.601), the weights OpenCV's `cvtColor(..., COLOR_RGB2GRAY)` uses.
    @inlinable public var luma: UInt8 {
        // Fixed point with 14 fractional bits, rounded, as OpenCV does.
        UInt8((Int(r) &* 4899 &+ Int(g) &* 9617 &+ Int(b) &* 1868 &+ 8192) >> 14)
    }
    /// The same colour in BGRA order.
    @inlinable public var bgra: BGRA8 { BGRA8(b: b, g: g, r: r, a: a) }
    /// The colour without alpha.
    @inlinable public var rgb: RGB8 { RGB8(r: r, g: g, b: b) }
}

extension BGRA8 {
    /// The same colour in RGBA order.
    @inlinable public var rgba: RGBA8 { RGBA8(r: r, g: g, b: b, a: a) }
}

extension RGB8 {
    /// The colour with opaque alpha.
    @inlinable public var rgba: RGBA8 { RGBA8(r: r, g: g, b: b) }
}

extension Image where Pixel == RGBA8 {
    /// Gray version (BT.601 luma).
    public func grayscale() -> GrayImage {
        // A plain loop over buffers: `map(\.luma)` took twice as long, and every frame of a
        // scan is converted once for the guide and again for the reconstruction.
        let gray = [UInt8](unsafeUninitializedCapacity: pixels.count) { output, initialized in
            pixels.withUnsafeBufferPointer { input in
                for i in input.indices { output[i] = input[i].luma }
            }
            initialized = pixels.count
        }
        return GrayImage(width: width, height: height, pixels: gray)
    }
    /// The same image in BGRA order.
    public func bgra() -> BGRAImage { map(\.bgra) }
}

extension Image where Pixel == BGRA8 {
    /// The same image in RGBA order.
    public func rgba() -> RGBAImage { map(\.rgba) }
}

extension Image where Pixel == UInt8 {
    /// An opaque RGBA image with the gray value in every channel.
    public func rgba() -> RGBAImage { map { RGBA8(gray: $0) } }
}

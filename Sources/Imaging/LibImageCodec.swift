#if !canImport(ImageIO)
import CImageShims

/// PNG and JPEG through the system's libpng and libjpeg-turbo (Linux).
public struct LibImageCodec: ImageCodec {
    /// zlib level for PNG; 6 is libpng's default balance of size and speed.
    public var pngCompressionLevel: Int32
    /// Whether JPEG's halved colour resolution is interpolated back (libjpeg's "fancy"
    /// upsampling) rather than each colour sample repeated over its 2×2 pixels: 30 % slower to
    /// decode, the brightness the same; for reading colour itself, not only brightness.
    public var interpolatesChroma: Bool

    /// A codec with libpng's default compression.
    public init(pngCompressionLevel: Int32 = 6, interpolatesChroma: Bool = false) {
        self.pngCompressionLevel = pngCompressionLevel
        self.interpolatesChroma = interpolatesChroma
    }

    public func encodePNG(_ image: PNGImage, dotsPerInch: Double?) throws -> [UInt8] {
        let pixelsPerMetre = dotsPerInch.map { UInt32(($0 / 0.0254).rounded()) } ?? 0
        switch image {
        case .gray8(let i): return try encode(i, channels: 1, bitDepth: 8, pixelsPerMetre)
        case .gray16(let i): return try encode(i, channels: 1, bitDepth: 16, pixelsPerMetre)
        case .rgb8(let i): return try encode(i, channels: 3, bitDepth: 8, pixelsPerMetre)
        case .rgba8(let i): return try encode(i, channels: 4, bitDepth: 8, pixelsPerMetre)
        }
    }

    public func decodePNG(_ bytes: [UInt8]) throws -> PNGImage {
        let (info, pixels) = try call { info, pixels, message in
            bytes.withUnsafeBufferPointer {
                hs_png_decode($0.baseAddress, $0.count, &info, &pixels, message, 256)
            }
        }
        defer { hs_free(pixels) }
        let width = Int(info.width), height = Int(info.height)
        switch (info.channels, info.bitDepth) {
        case (1, 8): return .gray8(copy(pixels, width, height, as: UInt8.self))
        case (1, 16): return .gray16(copy(pixels, width, height, as: UInt16.self))
        case (3, 8): return .rgb8(copy(pixels, width, height, as: RGB8.self))
        case (4, 8): return .rgba8(copy(pixels, width, height, as: RGBA8.self))
        default: throw ImageCodecError.invalidData("unsupported PNG layout")
        }
    }

    public func encodeJPEG(_ image: RGBAImage, quality: Int) throws -> [UInt8] {
        guard !image.isEmpty else { throw ImageCodecError.cannotEncode("image is empty") }
        let q = Int32(min(max(quality, 1), 100))
        return try output { out, size, message in
            image.pixels.withUnsafeBytes {
                hs_jpeg_encode(
                    $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(image.width),
                    Int32(image.height), q, &out, &size, message, 256)
            }
        }
    }

    public func decodeJPEG(_ bytes: [UInt8]) throws -> RGBAImage {
        let (info, pixels) = try call { info, pixels, message in
            bytes.withUnsafeBufferPointer {
                hs_jpeg_decode($0.baseAddress, $0.count, interpolatesChroma ? 1 : 0, &info, &pixels, message, 256)
            }
        }
        defer { hs_free(pixels) }
        return copy(pixels, Int(info.width), Int(info.height), as: RGBA8.self)
    }

    private func encode<P>(
        _ image: Image<P>, channels: Int32, bitDepth: Int32, _ pixelsPerMetre: UInt32
    ) throws -> [UInt8] {
        guard !image.isEmpty else { throw ImageCodecError.cannotEncode("image is empty") }
        let info = hs_image_info(
            width: Int32(image.width), height: Int32(image.height), channels: channels,
            bitDepth: bitDepth)
        return try output { out, size, message in
            image.pixels.withUnsafeBytes {
                hs_png_encode(
                    $0.baseAddress?.assumingMemoryBound(to: UInt8.self), info, pixelsPerMetre,
                    pngCompressionLevel, &out, &size, message, 256)
            }
        }
    }

    /// Runs a decoder shim and turns its status into an error carrying the library's message.
    private func call(
        _ body: (inout hs_image_info, inout UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<CChar>)
            -> Int32
    ) throws -> (hs_image_info, UnsafeMutablePointer<UInt8>) {
        var info = hs_image_info()
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { body(&info, &pixels, $0.baseAddress!) }
        guard status == 0, let pixels else {
            throw ImageCodecError.invalidData(Self.text(message))
        }
        return (info, pixels)
    }

    /// Runs an encoder shim and copies its malloc'd output into an array.
    private func output(
        _ body: (inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>) -> Int32
    ) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { body(&out, &size, $0.baseAddress!) }
        defer { hs_free(out) }
        guard status == 0, let out else {
            throw ImageCodecError.cannotEncode(Self.text(message))
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func copy<P>(
        _ pixels: UnsafeMutablePointer<UInt8>, _ width: Int, _ height: Int, as: P.Type
    )
        -> Image<P>
    {
        let count = width * height
        let typed = UnsafeRawPointer(pixels).bindMemory(to: P.self, capacity: count)
        return Image(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: typed, count: count)))
    }
}
#endif

import Foundation

/// A decoded PNG in the pixel layout the file stores.
public enum PNGImage: Sendable, Equatable {
    case gray8(GrayImage)
    case gray16(Gray16Image)
    case rgb8(RGBImage)
    case rgba8(RGBAImage)

    /// Width in pixels.
    public var width: Int {
        switch self {
        case .gray8(let i): i.width
        case .gray16(let i): i.width
        case .rgb8(let i): i.width
        case .rgba8(let i): i.width
        }
    }

    /// Height in pixels.
    public var height: Int {
        switch self {
        case .gray8(let i): i.height
        case .gray16(let i): i.height
        case .rgb8(let i): i.height
        case .rgba8(let i): i.height
        }
    }

    /// The image as 8-bit RGBA; 16-bit gray keeps its high byte.
    public func rgba() -> RGBAImage {
        switch self {
        case .gray8(let i): i.rgba()
        case .gray16(let i): i.map { RGBA8(gray: UInt8($0 >> 8)) }
        case .rgb8(let i): i.map(\.rgba)
        case .rgba8(let i): i
        }
    }

    /// The image as 8-bit gray (BT.601 luma for colour).
    public func gray() -> GrayImage {
        switch self {
        case .gray8(let i): i
        case .gray16(let i): i.map { UInt8($0 >> 8) }
        case .rgb8(let i): i.map(\.rgba.luma)
        case .rgba8(let i): i.grayscale()
        }
    }
}

/// Errors from encoding or decoding images.
public enum ImageCodecError: Error, Equatable, CustomStringConvertible {
    /// The bytes are not a valid image of the expected kind.
    case invalidData(String)
    /// The image cannot be encoded (for example, it is empty).
    case cannotEncode(String)

    public var description: String {
        switch self {
        case .invalidData(let why): "not a readable image: \(why)"
        case .cannotEncode(let why): "cannot encode image: \(why)"
        }
    }
}

/// PNG and JPEG encoding and decoding, one implementation per platform.
public protocol ImageCodec: Sendable {
    /// Encodes a PNG (lossless); `dotsPerInch` records the print resolution when given.
    func encodePNG(_ image: PNGImage, dotsPerInch: Double?) throws -> [UInt8]
    /// Decodes a PNG into its stored layout (palette and low bit depths expand to 8 bits).
    func decodePNG(_ bytes: [UInt8]) throws -> PNGImage
    /// Encodes colour as a baseline JPEG; alpha is dropped. `quality` runs 1...100.
    func encodeJPEG(_ image: RGBAImage, quality: Int) throws -> [UInt8]
    /// Decodes a JPEG into opaque RGBA.
    func decodeJPEG(_ bytes: [UInt8]) throws -> RGBAImage
}

extension ImageCodec {
    /// Encodes a PNG without a print resolution.
    public func encodePNG(_ image: PNGImage) throws -> [UInt8] {
        try encodePNG(image, dotsPerInch: nil)
    }

    /// Decodes a PNG or a JPEG, told apart by their signatures, as RGBA.
    public func decodeAny(_ bytes: [UInt8]) throws -> RGBAImage {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(bytes).rgba() }
        if bytes.starts(with: [0xFF, 0xD8]) { return try decodeJPEG(bytes) }
        throw ImageCodecError.invalidData("neither PNG nor JPEG")
    }
}

/// The codec of the platform the code runs on.
public enum ImageCodecs {
    /// libpng and libjpeg-turbo on Linux, ImageIO on Apple platforms.
    public static var system: any ImageCodec {
        #if canImport(ImageIO)
        ImageIOCodec()
        #else
        LibImageCodec()
        #endif
    }

    /// The same, with a JPEG's colour interpolated to full resolution on Linux (ImageIO's own
    /// decoder is used as it is): for reading a scan whose colours are matched, as a printed
    /// cap's are.
    public static var colourExact: any ImageCodec {
        #if canImport(ImageIO)
        ImageIOCodec()
        #else
        LibImageCodec(interpolatesChroma: true)
        #endif
    }
}

// Apps show `localizedDescription`; without this they would show a generic sentence instead
// of the message that says what to do.
extension ImageCodecError: LocalizedError {
    public var errorDescription: String? { description }
}

#if canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO
import UniformTypeIdentifiers

/// PNG and JPEG through Apple's ImageIO (iOS, macOS).
public struct ImageIOCodec: ImageCodec {
    /// A codec; it has no settings.
    public init() {}

    public func encodePNG(_ image: PNGImage, dotsPerInch: Double?) throws -> [UInt8] {
        var properties: [CFString: Any] = [:]
        if let dotsPerInch {
            properties[kCGImagePropertyDPIWidth] = dotsPerInch
            properties[kCGImagePropertyDPIHeight] = dotsPerInch
        }
        return try encode(try cgImage(image), type: .png, properties: properties)
    }

    public func decodePNG(_ bytes: [UInt8]) throws -> PNGImage {
        let image = try decode(bytes)
        if image.bitsPerComponent == 16, image.colorSpace?.model == .monochrome {
            return .gray16(
                try draw(
                    image, as: UInt16.self, space: CGColorSpaceCreateDeviceGray(),
                    bits: 16, info: CGImageAlphaInfo.none.rawValue | CGBitmapInfo.byteOrder16Little.rawValue))
        }
        if image.colorSpace?.model == .monochrome, image.alphaInfo == .none {
            return .gray8(
                try draw(
                    image, as: UInt8.self, space: CGColorSpaceCreateDeviceGray(),
                    bits: 8, info: CGImageAlphaInfo.none.rawValue))
        }
        let rgba = try decodeRGBA(image)
        let opaque = image.alphaInfo == .none || image.alphaInfo == .noneSkipLast || image.alphaInfo == .noneSkipFirst
        return opaque ? .rgb8(rgba.map(\.rgb)) : .rgba8(rgba)
    }

    public func encodeJPEG(_ image: RGBAImage, quality: Int) throws -> [UInt8] {
        let opaque = image.map { RGBA8(r: $0.r, g: $0.g, b: $0.b, a: 255) }
        let q = Double(min(max(quality, 1), 100)) / 100
        return try encode(
            try cgImage(.rgba8(opaque)), type: .jpeg,
            properties: [kCGImageDestinationLossyCompressionQuality: q])
    }

    public func decodeJPEG(_ bytes: [UInt8]) throws -> RGBAImage {
        try decodeRGBA(try decode(bytes))
    }

    private func decode(_ bytes: [UInt8]) throws -> CGImage {
        guard let source = CGImageSourceCreateWithData(Data(bytes) as CFData, nil),
            let image = CGImageSourceCreateImageAtIndex(source, 0, nil)
        else { throw ImageCodecError.invalidData("ImageIO cannot read it") }
        return image
    }

    private func decodeRGBA(_ image: CGImage) throws -> RGBAImage {
        // Straight alpha is what PNG stores; CoreGraphics only draws premultiplied, so undo it.
        let premultiplied = try draw(
            image, as: RGBA8.self, space: CGColorSpaceCreateDeviceRGB(), bits: 8,
            info: CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Big.rawValue)
        return premultiplied.map { p in
            guard p.a != 0, p.a != 255 else { return p }
            func undo(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(p.a) / 2) / Int(p.a))) }
            return RGBA8(r: undo(p.r), g: undo(p.g), b: undo(p.b), a: p.a)
        }
    }

    private func draw<P>(
        _ image: CGImage, as: P.Type, space: CGColorSpace, bits: Int, info: UInt32
    ) throws
        -> Image<P>
    {
        let width = image.width, height = image.height
        var pixels = [UInt8](repeating: 0, count: width * height * MemoryLayout<P>.stride)
        let drawn = pixels.withUnsafeMutableBytes { raw -> Bool in
            guard
                let context = CGContext(
                    data: raw.baseAddress, width: width, height: height, bitsPerComponent: bits,
                    bytesPerRow: width * MemoryLayout<P>.stride, space: space, bitmapInfo: info)
            else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { throw ImageCodecError.invalidData("unsupported pixel layout") }
        let typed = pixels.withUnsafeBytes { Array($0.bindMemory(to: P.self)) }
        return Image(width: width, height: height, pixels: typed)
    }

    private func cgImage(_ image: PNGImage) throws -> CGImage {
        switch image {
        case .gray8(let i):
            return try make(i, space: CGColorSpaceCreateDeviceGray(), bits: 8, info: CGImageAlphaInfo.none.rawValue)
        case .gray16(let i):
            return try make(
                i, space: CGColorSpaceCreateDeviceGray(), bits: 16,
                info: CGImageAlphaInfo.none.rawValue | CGBitmapInfo.byteOrder16Little.rawValue)
        case .rgb8(let i):
            return try make(
                i, space: CGColorSpaceCreateDeviceRGB(), bits: 8, info: CGImageAlphaInfo.none.rawValue,
                bitsPerPixel: 24)
        case .rgba8(let i):
            return try make(i, space: CGColorSpaceCreateDeviceRGB(), bits: 8, info: CGImageAlphaInfo.last.rawValue)
        }
    }

    private func make<P>(
        _ image: Image<P>, space: CGColorSpace, bits: Int, info: UInt32, bitsPerPixel: Int? = nil
    )
        throws -> CGImage
    {
        guard !image.isEmpty else { throw ImageCodecError.cannotEncode("image is empty") }
        let stride = MemoryLayout<P>.stride
        let data = image.pixels.withUnsafeBytes { Data($0) } as CFData
        guard let provider = CGDataProvider(data: data),
            let cg = CGImage(
                width: image.width, height: image.height, bitsPerComponent: bits,
                bitsPerPixel: bitsPerPixel ?? stride * 8, bytesPerRow: image.width * stride, space: space,
                bitmapInfo: CGBitmapInfo(rawValue: info), provider: provider, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent)
        else { throw ImageCodecError.cannotEncode("CoreGraphics rejected the pixel layout") }
        return cg
    }

    private func encode(_ image: CGImage, type: UTType, properties: [CFString: Any]) throws -> [UInt8] {
        let output = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(output, type.identifier as CFString, 1, nil) else {
            throw ImageCodecError.cannotEncode("ImageIO has no \(type.identifier) encoder")
        }
        CGImageDestinationAddImage(destination, image, properties as CFDictionary)
        guard CGImageDestinationFinalize(destination) else {
            throw ImageCodecError.cannotEncode("ImageIO failed to write \(type.identifier)")
        }
        return [UInt8](output as Data)
    }
}
#endif

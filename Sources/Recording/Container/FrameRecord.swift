import Geometry
import Imaging

/// Turns a frame into a record payload and back: timestamp, camera models, colour, depth.
enum FrameRecord {
    /// Encodes a frame's payload.
    static func encode(
        _ frame: RGBDFrame, colorCodec: ColorCodec, imageCodec: any ImageCodec
    )
        throws -> [UInt8]
    {
        let color: [UInt8]
        let tag: ColorCodecTag
        do {
            switch colorCodec {
            case .jpeg(let quality):
                (color, tag) = (try imageCodec.encodeJPEG(frame.color, quality: quality), .jpeg)
            case .png:
                (color, tag) = (try imageCodec.encodePNG(.rgba8(frame.color)), .png)
            }
        } catch {
            throw ScanFileError.invalidFrame("colour cannot be encoded: \(error)")
        }
        let depth = DepthCodec.encode(frame.depth)
        var writer = ByteWriter(capacity: 112 + color.count + depth.count)
        writer.append(frame.timestamp)
        write(frame.colorIntrinsics, to: &writer)
        write(frame.depthIntrinsics, to: &writer)
        writer.append(tag.rawValue)
        writer.append(UInt8(quality(of: colorCodec)))
        writer.append(contentsOf: [0, 0])
        writer.append(UInt32(color.count))
        writer.append(contentsOf: color)
        writer.append(UInt32(depth.count))
        writer.append(contentsOf: depth)
        return writer.bytes
    }

    /// Offset of the colour codec tag and JPEG quality in a payload.
    private static let codecOffset = 8 + 40 + 40

    /// Reads only the colour codec, without decoding the picture.
    static func colorCodec(of payload: [UInt8]) -> ColorCodec? {
        guard payload.count > codecOffset + 1 else { return nil }
        switch ColorCodecTag(rawValue: payload[codecOffset]) {
        case .jpeg: return .jpeg(quality: Int(payload[codecOffset + 1]))
        case .png: return .png
        case nil: return nil
        }
    }

    private static func quality(of codec: ColorCodec) -> Int {
        if case .jpeg(let quality) = codec { quality } else { 0 }
    }

    /// Decodes a payload; errors name the frame `index`.
    static func decode(
        _ payload: [UInt8], index: Int, imageCodec: any ImageCodec
    ) throws
        -> RGBDFrame
    {
        try payload.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            do {
                let timestamp = try reader.readDouble()
                let colorIntrinsics = try readIntrinsics(&reader)
                let depthIntrinsics = try readIntrinsics(&reader)
                let tag = ColorCodecTag(rawValue: try reader.read(UInt8.self))
                _ = try reader.readBytes(3)
                let color = Array(try reader.readBytes(Int(try reader.read(UInt32.self))))
                let depth = Array(try reader.readBytes(Int(try reader.read(UInt32.self))))
                return RGBDFrame(
                    timestamp: timestamp,
                    color: try decodeColor(color, tag: tag, index: index, imageCodec: imageCodec),
                    depth: try decodeDepth(depth, index: index),
                    colorIntrinsics: colorIntrinsics, depthIntrinsics: depthIntrinsics)
            } catch is ByteReaderError {
                throw ScanFileError.damagedFrame(index: index, reason: "record is shorter than its contents")
            }
        }
    }

    private static func decodeColor(
        _ bytes: [UInt8], tag: ColorCodecTag?, index: Int, imageCodec: any ImageCodec
    ) throws -> RGBAImage {
        do {
            switch tag {
            case .jpeg: return try imageCodec.decodeJPEG(bytes)
            case .png: return try imageCodec.decodePNG(bytes).rgba()
            case nil: throw ScanFileError.damagedFrame(index: index, reason: "unknown colour codec")
            }
        } catch let error as ScanFileError {
            throw error
        } catch {
            throw ScanFileError.damagedFrame(index: index, reason: "colour picture: \(error)")
        }
    }

    private static func decodeDepth(_ bytes: [UInt8], index: Int) throws -> DepthImage {
        do {
            return try DepthCodec.decode(bytes)
        } catch {
            throw ScanFileError.damagedFrame(index: index, reason: "depth map: \(error)")
        }
    }

    private static func write(_ intrinsics: CameraIntrinsics, to writer: inout ByteWriter) {
        writer.append(intrinsics.fx)
        writer.append(intrinsics.fy)
        writer.append(intrinsics.cx)
        writer.append(intrinsics.cy)
        writer.append(UInt32(clamping: intrinsics.width))
        writer.append(UInt32(clamping: intrinsics.height))
    }

    private static func readIntrinsics(
        _ reader: inout ByteReader
    ) throws(ByteReaderError)
        -> CameraIntrinsics
    {
        CameraIntrinsics(
            fx: try reader.readDouble(), fy: try reader.readDouble(),
            cx: try reader.readDouble(), cy: try reader.readDouble(),
            width: Int(try reader.read(UInt32.self)), height: Int(try reader.read(UInt32.self)))
    }
}

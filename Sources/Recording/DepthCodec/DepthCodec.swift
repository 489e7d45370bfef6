import Imaging

/// Lossless depth-map compression in pure Swift, byte-identical on every platform.
///
/// Float32 depth is coded bit-exactly, NaN positions and patterns included. TrueDepth depth is
/// Float16 underneath, so when every value fits Float16 exactly the 16-bit patterns are coded;
/// otherwise the 32-bit patterns are; frames with mixed NaN patterns, or which would not shrink,
/// are stored raw. Coding: validity runs (adaptive Rice) interleaved with LOCO-I prediction
/// residuals on order-preserving integer keys (adaptive Rice per activity context, as in
/// JPEG-LS). Byte layout: see `DepthCodecHeader`.
public enum DepthCodec {
    /// Version written into every header; readers reject larger ones.
    public static let version = 1
    /// Largest accepted width × height, so damaged headers cannot request huge allocations.
    public static let maxPixels = 1 << 24

    /// Compresses `depth`.
    public static func encode(_ depth: DepthImage) -> [UInt8] {
        var out = [UInt8]()
        encode(depth, appendingTo: &out)
        return out
    }

    /// Compresses `depth` onto the end of `out`, which saves a copy when building records.
    public static func encode(_ depth: DepthImage, appendingTo out: inout [UInt8]) {
        precondition(depth.count <= maxPixels, "depth maps above \(maxPixels) pixels are not supported")
        depth.pixels.withUnsafeBufferPointer { pixels in
            let analysis = DepthAnalysis(pixels)
            defer { analysis.deallocate() }
            var header = DepthCodecHeader(
                mode: analysis.mode, width: depth.width, height: depth.height, nanBits: analysis.nanBits, payloadCount: 0)
            if analysis.mode != .raw,
                let payload = compressed(pixels, analysis: analysis, width: depth.width, height: depth.height)
            {
                header.payloadCount = payload.count
                header.append(to: &out)
                out.append(contentsOf: payload)
            } else {
                header.mode = .raw
                header.payloadCount = pixels.count * 4
                header.append(to: &out)
                appendRaw(pixels, to: &out)
            }
        }
    }

    /// Restores a depth map from `encode`'s bytes.
    public static func decode(_ bytes: [UInt8]) throws(DepthCodecError) -> DepthImage {
        let result = bytes.withUnsafeBytes { raw -> Result<DepthImage, DepthCodecError> in
            do throws(DepthCodecError) { return .success(try decode(raw)) } catch { return .failure(error) }
        }
        // A switch rather than `result.get()`: older standard libraries (the iOS 17 SDK's)
        // declare `get()` as throwing `any Error`.
        switch result {
        case .success(let image): return image
        case .failure(let error): throw error
        }
    }

    /// Restores a depth map from bytes in place, e.g. a slice of a memory-mapped recording.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(DepthCodecError) -> DepthImage {
        var depth = DepthImage(width: 0, height: 0, pixels: [])
        try decode(bytes, into: &depth)
        return depth
    }

    /// Restores a depth map into `depth`, reusing its storage when the size matches, which saves
    /// a large allocation per frame during replay. On error `depth` is left zero-filled.
    public static func decode(_ bytes: UnsafeRawBufferPointer, into depth: inout DepthImage) throws(DepthCodecError) {
        let header = try DepthCodecHeader(parsing: bytes)
        let payload = UnsafeRawBufferPointer(rebasing: bytes[DepthCodecHeader.size...])
        let count = header.width * header.height
        var failure: DepthCodecError?
        func fill(_ buffer: UnsafeMutableBufferPointer<Float>) {
            buffer.withMemoryRebound(to: UInt32.self) { bits in
                do throws(DepthCodecError) {
                    try decodePayload(payload, header: header, into: bits.baseAddress!)
                } catch {
                    failure = error
                    bits.baseAddress!.update(repeating: 0, count: count)
                }
            }
        }
        if count == 0 {
            depth = DepthImage(width: header.width, height: header.height, pixels: [])
        } else if depth.width == header.width && depth.height == header.height {
            depth.pixels.withUnsafeMutableBufferPointer { fill($0) }
        } else {
            let pixels = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                fill(buffer)
                initialized = count
            }
            depth = DepthImage(width: header.width, height: header.height, pixels: pixels)
        }
        if let failure { throw failure }
    }

    private static func compressed(
        _ pixels: UnsafeBufferPointer<Float>, analysis: DepthAnalysis, width: Int, height: Int
    ) -> [UInt8]? {
        guard pixels.count > 0, let depth = pixels.baseAddress, let keys = analysis.keys.baseAddress else {
            return []
        }
        var writer = BitWriter(capacity: pixels.count + 1024)
        switch analysis.mode {
        case .half:
            var encoder = PlaneEncoder<HalfKeys>(depth: depth, keys: keys, width: width, height: height)
            encoder.encode(into: &writer)
        case .float:
            var encoder = PlaneEncoder<FloatKeys>(depth: depth, keys: keys, width: width, height: height)
            encoder.encode(into: &writer)
        case .raw:
            writer.discard()
            return nil
        }
        // Never spend more than raw storage: damaged-looking or random data goes raw instead.
        if writer.byteCount >= pixels.count * 4 { writer.discard(); return nil }
        return writer.finish(prefix: [])
    }

    private static func appendRaw(_ pixels: UnsafeBufferPointer<Float>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + pixels.count * 4)
        for value in pixels {
            let bits = value.bitPattern.littleEndian
            withUnsafeBytes(of: bits) { out.append(contentsOf: $0) }
        }
    }

    private static func decodePayload(
        _ payload: UnsafeRawBufferPointer, header: DepthCodecHeader, into output: UnsafeMutablePointer<UInt32>
    ) throws(DepthCodecError) {
        let count = header.width * header.height
        switch header.mode {
        case .raw:
            for i in 0..<count {
                output[i] = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            }
        case .half:
            guard count > 0 else { return }
            var reader = BitReader(payload)
            var decoder = PlaneDecoder<HalfKeys>(output: output, width: header.width, height: header.height, nanBits: header.nanBits)
            try decoder.decode(from: &reader)
        case .float:
            guard count > 0 else { return }
            var reader = BitReader(payload)
            var decoder = PlaneDecoder<FloatKeys>(output: output, width: header.width, height: header.height, nanBits: header.nanBits)
            try decoder.decode(from: &reader)
        }
    }
}

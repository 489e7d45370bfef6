import Geometry
import Imaging

extension RGBDFrame {
    /// The frame as a pinhole camera with the same focal length and centre would have taken
    /// it: colour resampled bilinearly, depth from the nearest pixel (depth must not be blended
    /// across an edge). Pixels the lens never saw are black and without depth. A frame without
    /// distortion comes back unchanged.
    ///
    /// Removing the distortion from the pictures once, where frames are read, keeps every later
    /// stage (marker detection, poses, fusion) a pinhole model.
    public func removingLensDistortion() -> RGBDFrame {
        guard !colorIntrinsics.distortion.isNone || !depthIntrinsics.distortion.isNone else { return self }
        var frame = self
        frame.color = color.resampled { colorIntrinsics.distortedPixel(ofPinholePixel: $0) }
        frame.depth = depth.resampledNearest { depthIntrinsics.distortedPixel(ofPinholePixel: $0) }
        frame.colorIntrinsics = colorIntrinsics.pinhole
        frame.depthIntrinsics = depthIntrinsics.pinhole
        return frame
    }
}

extension Image where Pixel == RGBA8 {
    /// A picture of the same size whose pixel p shows this picture at `source(p)`, bilinearly;
    /// black where the source falls outside.
    public func resampled(from source: (SIMD2<Double>) -> SIMD2<Double>) -> Image<RGBA8> {
        var out = Image(width: width, height: height, repeating: RGBA8(r: 0, g: 0, b: 0))
        guard width > 1, height > 1 else { return out }
        for y in 0..<height {
            for x in 0..<width {
                let s = source(SIMD2(Double(x), Double(y)))
                guard s.x >= 0, s.y >= 0, s.x <= Double(width - 1), s.y <= Double(height - 1) else { continue }
                let x0 = min(Int(s.x), width - 2), y0 = min(Int(s.y), height - 2)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = s.x - Double(x0), fy = s.y - Double(y0)
                func mix(_ channel: (RGBA8) -> UInt8) -> UInt8 {
                    let top = Double(channel(self[x0, y0])) * (1 - fx) + Double(channel(self[x1, y0])) * fx
                    let bottom = Double(channel(self[x0, y1])) * (1 - fx) + Double(channel(self[x1, y1])) * fx
                    return UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
                }
                out[x, y] = RGBA8(r: mix(\.r), g: mix(\.g), b: mix(\.b), a: mix(\.a))
            }
        }
        return out
    }
}

extension Image where Pixel == Float {
    /// A depth map of the same size whose pixel p holds this map's nearest pixel to
    /// `source(p)`; NaN where the source falls outside.
    public func resampledNearest(from source: (SIMD2<Double>) -> SIMD2<Double>) -> Image<Float> {
        var out = Image(width: width, height: height, repeating: .nan)
        for y in 0..<height {
            for x in 0..<width {
                let s = source(SIMD2(Double(x), Double(y)))
                let u = (s.x + 0.5).rounded(.down), v = (s.y + 0.5).rounded(.down)
                guard u >= 0, v >= 0, u < Double(width), v < Double(height) else { continue }
                out[x, y] = self[Int(u), Int(v)]
            }
        }
        return out
    }
}

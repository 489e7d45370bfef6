import Geometry
import Imaging
import Recording

/// Seeded, deterministic RGBD frames that look like a TrueDepth scan of an infant head.
///
/// A head-sized ellipsoid 0.27–0.45 m away sits in front of a parent's torso (~0.85 m) and a
/// tilted wall (~1.3 m), seen by a camera that sways slightly from frame to frame. Depth has
/// z²-growing noise, is quantised through Float16 and has NaN holes where TrueDepth has them:
/// occlusion shadows at depth edges, grazing angles, random dropouts and out-of-range pixels.
/// Colour is Lambertian-shaded texture with sensor noise. It stands in for real recordings in
/// tests and benchmarks until the simulator exists; `frame(at:)` depends only on seed and index.
public struct SyntheticScene: Sendable {
    /// Seed that, with the frame index, determines every pixel.
    public let seed: UInt64
    /// Image width in pixels (colour and depth share size and intrinsics).
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// Focal length along x, pixels.
    public let fx: Double
    /// Focal length along y, pixels.
    public let fy: Double
    /// Principal point x, pixels.
    public let cx: Double
    /// Principal point y, pixels.
    public let cy: Double
    /// Frames per second that frame timestamps assume.
    public let frameRate: Double = 30

    let layout: SceneLayout

    /// A scene whose intrinsics scale with the size like TrueDepth's 640x480 stream (fx = fy = 590).
    public init(seed: UInt64 = 1, width: Int = 640, height: Int = 480) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.seed = seed
        self.width = width
        self.height = height
        fx = 590 * Double(width) / 640
        fy = fx
        cx = Double(width) / 2
        cy = Double(height) / 2
        layout = SceneLayout(seed: seed)
    }

    /// Timestamp of frame `index` in seconds.
    public func timestamp(at index: Int) -> Double { Double(index) / frameRate }

    /// Colour and depth for frame `index`.
    public func frame(at index: Int) -> (color: RGBAImage, depth: DepthImage) {
        var rng = Xoshiro256(seed: seed, stream: UInt64(bitPattern: Int64(index)))
        let camera = layout.camera(at: index, fx: Float(fx), fy: Float(fy), cx: Float(cx), cy: Float(cy))
        let hits = HitBuffer(count: width * height)
        defer { hits.deallocate() }
        let color = renderColor(camera: camera, hits: hits, rng: &rng)
        let depth = renderDepth(hits: hits, rng: &rng)
        return (color, depth)
    }

    private func renderColor(camera: SceneCamera, hits: HitBuffer, rng: inout Xoshiro256) -> RGBAImage {
        let w = width, h = height
        let tracer = FrameTracer(layout: layout, origin: camera.origin)
        let pixels = [RGBA8](unsafeUninitializedCapacity: w * h) { buffer, count in
            for y in 0..<h {
                for x in 0..<w {
                    let hit = tracer.trace(camera.ray(x: x, y: y))
                    hits.store(hit, at: y * w + x)
                    buffer[y * w + x] = layout.shade(hit, noise: rng.next())
                }
            }
            count = w * h
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    private func renderDepth(hits: HitBuffer, rng: inout Xoshiro256) -> DepthImage {
        var depth = DepthImage(width: width, height: height, repeating: .nan)
        let w = width, h = height
        depth.pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * w + x
                    guard hits.isMeasurable(i, x: x, width: w, rng: &rng) else { continue }
                    let z = hits.depth[i]
                    let sigma = 0.001 * (z / 0.4) * (z / 0.4)
                    out[i] = DepthQuantization.float16(z + sigma * rng.gaussian())
                }
            }
            addDropouts(out, rng: &rng)
        }
        return depth
    }

    /// Small round blobs without depth, as TrueDepth loses on specular or dark spots.
    private func addDropouts(_ out: UnsafeMutableBufferPointer<Float>, rng: inout Xoshiro256) {
        let blobs = 3 + rng.below(6)
        for _ in 0..<blobs {
            let bx = rng.below(width), by = rng.below(height)
            let radius = 1 + rng.below(5)
            for y in max(0, by - radius)...min(height - 1, by + radius) {
                for x in max(0, bx - radius)...min(width - 1, bx + radius)
                where (x - bx) * (x - bx) + (y - by) * (y - by) <= radius * radius {
                    out[y * width + x] = .nan
                }
            }
        }
    }
}

/// Depth and surface angle per pixel, kept between the colour and the depth pass.
struct HitBuffer {
    let depth: UnsafeMutableBufferPointer<Float>
    let facing: UnsafeMutableBufferPointer<Float>

    init(count: Int) {
        depth = .allocate(capacity: count)
        facing = .allocate(capacity: count)
    }

    func deallocate() { depth.deallocate(); facing.deallocate() }

    @inline(__always)
    func store(_ hit: SurfaceHit, at i: Int) {
        depth[i] = hit.depth
        facing[i] = hit.facing
    }

    /// Whether the sensor would report depth here; the rules mimic TrueDepth's holes.
    func isMeasurable(_ i: Int, x: Int, width: Int, rng: inout Xoshiro256) -> Bool {
        let z = depth[i]
        if !(z >= 0.2 && z <= 1.45) { return false }
        // Grazing surfaces return too little of the projected pattern.
        let drop = (0.35 - facing[i]) * 8
        if drop > 0 && rng.unitFloat() < drop { return false }
        if rng.next() >> 55 == 0 { return false }  // isolated dropouts, 1 in 512
        return !isShadowed(i, x: x, width: width, z: z)
    }

    /// The projector sits beside the camera, so a nearer surface to the right casts a NaN band.
    private func isShadowed(_ i: Int, x: Int, width: Int, z: Float) -> Bool {
        let band = min(5, width - 1 - x)
        if band <= 0 { return false }
        for s in 1...band where depth[i + s] < z * 0.96 { return true }
        if x > 0 && depth[i - 1] < z * 0.96 { return true }
        return false
    }
}

import Foundation
import Geometry
import Imaging
import Markers
import Recording

/// Renders what the virtual TrueDepth camera sees: colour with shading, texture and noise,
/// and depth in metres with the sensor's noise, quantisation and holes.
///
/// A lens with distortion is rendered as a pinhole and then warped through the lens (colour
/// bilinearly, depth from the nearest pixel); where the lens sees beyond the pinhole's
/// picture (the corners, with barrel distortion) the frame is black and has no depth.
final class SceneRenderer {
    /// The pinhole part of the camera: everything but the final warp works with it.
    let intrinsics: CameraIntrinsics
    /// The lens's distortion, applied last.
    let lens: CameraIntrinsics
    let sensor: SensorModel
    private var geometry: SceneGeometry
    private var stickers: [MarkerSticker]
    private let codes: [UInt64]
    private let markerCells: Int
    private let dictionary: MarkerDictionary
    private var rasterizer: Rasterizer
    private var vertices: [SIMD3<Double>] = []
    /// Pixel rays ((x − cx)/fx, (y − cy)/fy, 1) without the constant 1.
    private let rays: [SIMD2<Double>]
    /// 1/|ray| per pixel, with the constant 1 included.
    private let rayScales: [Double]
    /// Whether the cap's fabric is printed with a pattern.
    var printedFabric = false
    /// No cap: the head's own hair covers the vault.
    var bareHair: BareHair?
    /// How far the jaw is open in this frame, radians (the mouth shows dark inside).
    private(set) var jawAngle = 0.0

    /// The head with its cap, the infant's body and the parent.
    convenience init(
        headMesh: TriangleMesh, skullFaceCount: Int, cap: Cap, intrinsics: CameraIntrinsics, sensor: SensorModel, hand: Bool = false
    ) throws {
        try self.init(
            geometry: SceneGeometry(headMesh: headMesh, skullFaceCount: skullFaceCount, cap: cap, hand: hand), stickers: cap.stickers,
            dictionary: cap.layout.dictionary(), intrinsics: intrinsics, sensor: sensor)
    }

    /// Any scene whose `.paper(i)` triangles show `stickers[i]`.
    init(
        geometry: SceneGeometry, stickers: [MarkerSticker], dictionary: MarkerDictionary, intrinsics: CameraIntrinsics, sensor: SensorModel
    )
        throws
    {
        self.intrinsics = intrinsics.pinhole
        lens = intrinsics
        self.sensor = sensor
        self.stickers = stickers
        self.dictionary = dictionary
        codes = try stickers.map { try dictionary.code(id: $0.id) }
        markerCells = dictionary.markerSize
        self.geometry = geometry
        rasterizer = Rasterizer(intrinsics: intrinsics.pinhole)
        var rays: [SIMD2<Double>] = []
        rays.reserveCapacity(intrinsics.width * intrinsics.height)
        for y in 0..<intrinsics.height {
            for x in 0..<intrinsics.width {
                rays.append(SIMD2((Double(x) - intrinsics.cx) / intrinsics.fx, (Double(y) - intrinsics.cy) / intrinsics.fy))
            }
        }
        self.rays = rays
        rayScales = rays.map { 1 / ($0.x * $0.x + $0.y * $0.y + 1).squareRoot() }
    }

    /// Moves the stickers (the same IDs in the same order) to where the cap now holds them.
    func move(_ moved: [MarkerSticker]) {
        guard moved.count == stickers.count else { return }
        stickers = moved
        geometry.place(moved)
    }

    /// Moves the face's vertices (indices into the head mesh) with the jaw open by `angle`.
    func moveJaw(_ moves: [(index: Int, to: SIMD3<Double>)], angle: Double) {
        geometry.moveHead(moves)
        jawAngle = angle
    }

    /// Nearest true depth per pixel from the last render (infinity where only the room is).
    var trueDepth: [Float] { rasterizer.depth }

    /// One frame seen from `worldFromCamera` with the head at `worldFromHead` and the bodies
    /// (infant and parent) moved by `bodyShift` from their places in the room.
    func render(
        worldFromCamera: RigidTransform, worldFromHead: RigidTransform, bodyShift: SIMD3<Double>, blur: SIMD2<Double>,
        noiseSeed: UInt64, blankStickers: Bool = false
    ) -> (color: RGBAImage, depth: DepthImage) {
        self.blankStickers = blankStickers
        let cameraFromWorld = worldFromCamera.inverse
        let cameraFromHead = cameraFromWorld * worldFromHead
        let cameraFromBodies = cameraFromWorld * RigidTransform(translation: bodyShift)
        geometry.cameraVertices(cameraFromHead: cameraFromHead, cameraFromWorld: cameraFromBodies, into: &vertices)
        rasterizer.draw(vertices: vertices, faces: geometry.faces)
        var rng = Xoshiro256(seed: noiseSeed)
        var colour = shade(cameraFromHead: cameraFromHead, worldFromCamera: worldFromCamera, rng: &rng)
        if sensor.motionBlur { MotionBlur.apply(length: blur, to: &colour, width: intrinsics.width, height: intrinsics.height) }
        let color = SensorNoise.colourImage(colour, width: intrinsics.width, height: intrinsics.height, sigma: sensor.colourNoise, rng: &rng)
        let hair = bareHair.map { (loss: hairDepthLoss($0, cameraFromHead: cameraFromHead), noise: BareHair.depthNoise) }
        let depth = SensorNoise.depthImage(
            trueDepth: rasterizer.depth, faces: rasterizer.face, planes: rasterizer.planes, rays: rays, rayScales: rayScales,
            roomDepth: roomDepth, width: intrinsics.width, height: intrinsics.height, sensor: sensor, hair: hair, rng: &rng
        )
        .shifted(by: sensor.depthShiftPixels ?? .zero)
        guard !lens.distortion.isNone else { return (color, depth) }
        return (color.resampled(from: lens.undistortedPixel), depth.resampledNearest(from: lens.undistortedPixel))
    }

    /// Whether this frame shows the stickers without their print.
    private var blankStickers = false

    /// Per pixel, the chance that the sensor returns no depth from `hair` (0 off the hair).
    private func hairDepthLoss(_ hair: BareHair, cameraFromHead: RigidTransform) -> [Float] {
        let headFromCamera = cameraFromHead.inverse
        let count = intrinsics.width * intrinsics.height
        var loss = [Float](repeating: 0, count: count)
        let faces = rasterizer.face, depth = rasterizer.depth, materials = geometry.materials
        for i in 0..<count {
            let f = Int(faces[i])
            guard f >= 0, materials[f] == .head else { continue }
            let p = headFromCamera.apply(SIMD3(rays[i].x, rays[i].y, 1) * Double(depth[i]))
            if BareHair.covers(p) { loss[i] = hair.depthLoss(at: p) }
        }
        return loss
    }

    /// Room depth per pixel from the last shading pass (the room is outside TrueDepth's range
    /// in practice, but a close wall would still be measured).
    private var roomDepth: [Float] = []

    /// Linear colour per pixel, before noise.
    private func shade(cameraFromHead: RigidTransform, worldFromCamera: RigidTransform, rng: inout Xoshiro256) -> [SIMD3<Float>] {
        let headFromCamera = cameraFromHead.inverse
        let count = intrinsics.width * intrinsics.height
        let ceiling = worldFromCamera.rotation.inverse.apply(SIMD3(0, 0, 1))
        let eye = worldFromCamera.translation
        let (toWorldX, toWorldY, toWorldZ) = worldFromCamera.rotation.columns
        let stickerPlanes = stickers.map { sticker -> StickerPlane in
            let corners = sticker.paperCorners(cells: markerCells + 2).map(cameraFromHead.apply)
            return StickerPlane(
                origin: corners[0], right: corners[1] - corners[0], down: corners[3] - corners[0], intrinsics: intrinsics,
                damage: sticker.damage)
        }
        var out = [SIMD3<Float>](repeating: .zero, count: count)
        var roomDepth = [Float](repeating: .infinity, count: count)
        // Buffers, not the class's arrays, inside the loop: every property access of a class
        // is checked for exclusivity at run time, which cost more than the shading itself.
        let planes = rasterizer.planes, materials = geometry.materials
        rasterizer.face.withUnsafeBufferPointer { faces in
            rasterizer.depth.withUnsafeBufferPointer { depth in
                rays.withUnsafeBufferPointer { rays in
                    rayScales.withUnsafeBufferPointer { rayScales in
                        out.withUnsafeMutableBufferPointer { out in
                            roomDepth.withUnsafeMutableBufferPointer { roomDepth in
                                for i in 0..<count {
                                    let ray = SIMD3(rays[i].x, rays[i].y, 1)
                                    let f = Int(faces[i])
                                    guard f >= 0 else {
                                        let direction = toWorldX * ray.x + toWorldY * ray.y + toWorldZ
                                        let hit = Palette.room(origin: eye, direction: direction)
                                        roomDepth[i] = Float(hit.distance)
                                        out[i] = hit.colour * 0.8
                                        continue
                                    }
                                    let plane = planes[f]
                                    let light = Self.light(
                                        normal: SIMD3(plane.x, plane.y, plane.z), ray: ray, rayScale: rayScales[i], ceiling: ceiling)
                                    let point = ray * Double(depth[i])
                                    out[i] =
                                        light
                                        * albedo(
                                            of: materials[f], at: point, pixel: i, headFromCamera: headFromCamera, stickers: stickerPlanes)
                                }
                            }
                        }
                    }
                }
            }
        }
        self.roomDepth = roomDepth
        return out
    }

    /// Flash-like light from the camera, a ceiling light and some ambient light.
    @inline(__always)
    private static func light(normal: SIMD3<Double>, ray: SIMD3<Double>, rayScale: Double, ceiling: SIMD3<Double>) -> Float {
        let facing = max(0, -dot(normal, ray) * rayScale)
        let fromAbove = max(0, dot(normal, ceiling))
        return Float(0.3 + 0.55 * facing + 0.3 * fromAbove)
    }

    private func albedo(
        of material: Material, at point: SIMD3<Double>, pixel: Int, headFromCamera: RigidTransform, stickers: [StickerPlane]
    ) -> SIMD3<Float> {
        switch material {
        case .head:
            let p = headFromCamera.apply(point)
            if let bareHair {
                if JawMotion.isInsideMouth(p, angle: jawAngle) { return Palette.mouth }
                if BareHair.covers(p) { return bareHair.colour(at: p) }
                let face = Palette.face(at: p)
                return face == Palette.hair ? bareHair.colour : face
            }
            if JawMotion.isInsideMouth(p, angle: jawAngle) { return Palette.mouth }
            guard p.z > Cap.lowerEdge else { return Palette.face(at: p) }
            return fabric(at: p)
        case .skin: return Palette.skin
        case .body: return Palette.clothes(Palette.body, at: point)
        case .parent: return Palette.clothes(Palette.parent, at: point)
        case .hand: return Palette.parentSkin
        // Where the paper's edge or a torn part shows the cap beneath, it shows the cap's own
        // fabric: the print on a printed cap, the plain colour (its ribs left out) otherwise.
        case .paper(let index):
            let beneath = printedFabric ? Palette.printedFabric(at: headFromCamera.apply(point)) : Palette.fabric
            return paper(stickers[index], code: codes[index], pixel: pixel, fabric: beneath)
        case .paperBack: return Palette.paperWhite
        }
    }

    /// The cap's fabric at `p` (head frame): plain ribs or the printed pattern.
    @inline(__always)
    private func fabric(at p: SIMD3<Double>) -> SIMD3<Float> {
        printedFabric ? Palette.printedFabric(at: p) : Palette.fabric(at: p)
    }

    /// The printed sticker, averaged over 4x4 samples per pixel so its edges are anti-aliased
    /// as a real lens and sensor would; `fabric` is the cap's colour where the paper is not.
    private func paper(_ plane: StickerPlane, code: UInt64, pixel: Int, fabric: SIMD3<Float>) -> SIMD3<Float> {
        let x = Double(pixel % intrinsics.width), y = Double(pixel / intrinsics.width)
        let cells = markerCells + 4
        // The plane's coordinates are ratios of linear functions of the pixel position, so the
        // samples step by constant amounts: one division per sample, none per step.
        let first = plane.homogeneous(x: x - 0.375, y: y - 0.375)
        let right = plane.step.x / 4, down = plane.step.y / 4
        func sample(_ sx: Int, _ sy: Int) -> (Double, Double)? {
            StickerPlane.coordinates(first + right * Double(sx) + down * Double(sy))
        }
        // The plane maps the pixel's sample grid projectively, so the 16 samples lie inside the
        // quadrilateral of the 4 outer ones: when those share one cell, or all lie off one side
        // of the paper, so do the other 12, and the 16-sample average is known at once.
        let damage = plane.damage
        if let a = sample(0, 0), let b = sample(3, 0), let c = sample(0, 3), let d = sample(3, 3),
            let uniform = uniformPaper(a, b, c, d, cells: cells, code: code, damage: damage, fabric: fabric)
        {
            return uniform
        }
        var ink = 0, inside = 0
        for sy in 0..<4 {
            for sx in 0..<4 {
                guard let (u, v) = sample(sx, sy) else { continue }
                guard u >= 0, u < 1, v >= 0, v < 1 else { continue }
                let column = Int(u * Double(cells)), row = Int(v * Double(cells))
                let look = damage?.look(row: row, column: column, side: cells)
                if look == .fabric { continue }
                inside += 1
                if !blankStickers, look == .ink || isInk(row: row, column: column, code: code) { ink += 1 }
            }
        }
        let paperShare = Float(inside) / 16, inkShare = Float(ink) / 16
        return Palette.ink * inkShare + Palette.paperWhite * (paperShare - inkShare) + fabric * (1 - paperShare)
    }

    /// The colour of a pixel whose four outer samples fall in one cell of the paper or all off
    /// one side of it; nil when the pixel straddles an edge and needs every sample.
    @inline(__always)
    private func uniformPaper(
        _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double), cells: Int, code: UInt64,
        damage: StickerDamage?, fabric: SIMD3<Float>
    ) -> SIMD3<Float>? {
        let uLow = min(min(a.0, b.0), min(c.0, d.0)), uHigh = max(max(a.0, b.0), max(c.0, d.0))
        let vLow = min(min(a.1, b.1), min(c.1, d.1)), vHigh = max(max(a.1, b.1), max(c.1, d.1))
        if uHigh < 0 || uLow >= 1 || vHigh < 0 || vLow >= 1 { return fabric }
        guard uLow >= 0, uHigh < 1, vLow >= 0, vHigh < 1 else { return nil }
        let n = Double(cells)
        let column = Int(uLow * n), row = Int(vLow * n)
        guard Int(uHigh * n) == column, Int(vHigh * n) == row else { return nil }
        let look = damage?.look(row: row, column: column, side: cells)
        if look == .fabric { return fabric }
        return !blankStickers && (look == .ink || isInk(row: row, column: column, code: code)) ? Palette.ink : Palette.paperWhite
    }

    /// Whether a cell of the paper (white margin, black border, code bits) is printed black.
    private func isInk(row: Int, column: Int, code: UInt64) -> Bool {
        let last = markerCells + 3
        if row == 0 || column == 0 || row == last || column == last { return false }
        if row == 1 || column == 1 || row == last - 1 || column == last - 1 { return true }
        return !dictionary.bit(code, row: row - 2, column: column - 2)
    }
}

/// A sticker's paper plane seen by the pinhole camera, as a projective map from pixel
/// positions to paper coordinates.
struct StickerPlane {
    /// Rows u, v and w: the paper coordinates at pixel (x, y) are (u·q / w·q, v·q / w·q) with
    /// q = (x, y, 1).
    private let u: SIMD3<Double>
    private let v: SIMD3<Double>
    private let w: SIMD3<Double>
    /// What became of the sticker's print.
    let damage: StickerDamage?

    /// The paper spanned from its top-left corner `origin` by `right` and `down`, all in the
    /// camera frame.
    init(
        origin: SIMD3<Double>, right: SIMD3<Double>, down: SIMD3<Double>, intrinsics k: CameraIntrinsics, damage: StickerDamage? = nil
    ) {
        self.damage = damage
        // Along the ray r = ((x − cx)/fx, (y − cy)/fy, 1) the plane n·p = n·origin is met at
        // p = r (n·origin)/(n·r), whose coordinate across is (p − origin)·right/|right|², a
        // ratio of two linear functions of r; likewise down.
        let normal = cross(right, down)
        let offset = dot(normal, origin)
        func across(_ axis: SIMD3<Double>) -> SIMD3<Double> {
            (axis * offset - normal * dot(origin, axis)) / dot(axis, axis)
        }
        // A linear function of r as one of the pixel position.
        func inPixels(_ a: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.x / k.fx, a.y / k.fy, a.z - a.x * k.cx / k.fx - a.y * k.cy / k.fy)
        }
        u = inPixels(across(right))
        v = inPixels(across(down))
        w = inPixels(normal)
    }

    /// The homogeneous paper coordinates (u, v, w) at pixel position (x, y).
    @inline(__always)
    func homogeneous(x: Double, y: Double) -> SIMD3<Double> {
        let q = SIMD3(x, y, 1)
        return SIMD3(dot(u, q), dot(v, q), dot(w, q))
    }

    /// How the homogeneous coordinates change for one pixel right (x) and one pixel down (y).
    var step: (x: SIMD3<Double>, y: SIMD3<Double>) { (SIMD3(u.x, v.x, w.x), SIMD3(u.y, v.y, w.y)) }

    /// Paper coordinates (0...1 across, 0...1 down) from homogeneous ones; nil where the ray
    /// runs parallel to the paper.
    @inline(__always)
    static func coordinates(_ h: SIMD3<Double>) -> (Double, Double)? {
        guard h.z != 0 else { return nil }
        let scale = 1 / h.z
        return (h.x * scale, h.y * scale)
    }
}

extension DepthImage {
    /// The map moved by `shift` pixels (what was at x lands at x + shift.x); pixels moved in
    /// from outside have no depth.
    func shifted(by shift: SIMD2<Int>) -> DepthImage {
        guard shift != .zero else { return self }
        var moved = [Float](repeating: .nan, count: pixels.count)
        for y in 0..<height {
            let from = y - shift.y
            guard (0..<height).contains(from) else { continue }
            for x in 0..<width {
                let source = x - shift.x
                guard (0..<width).contains(source) else { continue }
                moved[y * width + x] = pixels[from * width + source]
            }
        }
        return DepthImage(width: width, height: height, pixels: moved)
    }
}

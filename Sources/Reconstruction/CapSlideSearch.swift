import Foundation
import Geometry
import Imaging
import Recording

/// A frame's depth kept small as the markers stage reads it (every `KeptDepth.step`-th pixel
/// across and down), so that looking for a cap that slid needs no second reading of the scan:
/// with its pinhole depth camera as read and the colour picture's width, for the camera the
/// reconstruction settles on later.
struct SmallDepth: Sendable {
    var timestamp: Double
    var depth: DepthImage
    /// The full frame's depth camera (pinhole), as read.
    var intrinsics: CameraIntrinsics
    var colorWidth: Int

    init(timestamp: Double, depth: DepthImage, intrinsics: CameraIntrinsics, colorWidth: Int) {
        self.timestamp = timestamp
        self.depth = depth
        self.intrinsics = intrinsics
        self.colorWidth = colorWidth
    }

    init(_ frame: RGBDFrame) {
        timestamp = frame.timestamp
        depth = KeptDepth.small(frame.depth)
        intrinsics = frame.depthIntrinsics
        colorWidth = frame.colorIntrinsics.width
    }
}

/// The small depth of every keyframe the markers stage read, its pixels in a few large blocks
/// of many pictures each: kept one by one, 77 KB arrays left between the frames' megabyte
/// buffers split the heap, every frame's buffers then took fresh pages, and a 60 s scan paid
/// 270 000 page faults (a second of system time) for them.
struct SmallDepthStore {
    /// Pictures per block.
    static let perBlock = 64
    private var blocks: [[Float]] = []
    private var entries: [Int: Entry] = [:]

    /// A picture's place in its block, and what goes with it.
    private struct Entry {
        var timestamp: Double
        var width: Int
        var height: Int
        var intrinsics: CameraIntrinsics
        var colorWidth: Int
        var block: Int
        var offset: Int
    }

    var count: Int { entries.count }

    /// Keeps `small` as frame `index`'s.
    mutating func keep(_ small: SmallDepth, frame index: Int) {
        let size = small.depth.pixels.count
        if blocks.isEmpty || (blocks[blocks.count - 1].capacity - blocks[blocks.count - 1].count) < size {
            var block: [Float] = []
            block.reserveCapacity(max(size, 1) * Self.perBlock)
            blocks.append(block)
        }
        let b = blocks.count - 1
        entries[index] = Entry(
            timestamp: small.timestamp, width: small.depth.width, height: small.depth.height, intrinsics: small.intrinsics,
            colorWidth: small.colorWidth, block: b, offset: blocks[b].count)
        blocks[b].append(contentsOf: small.depth.pixels)
    }

    /// Frame `index`'s small depth, if it was kept.
    subscript(index: Int) -> SmallDepth? {
        guard let e = entries[index] else { return nil }
        let pixels = Array(blocks[e.block][e.offset..<(e.offset + e.width * e.height)])
        return SmallDepth(
            timestamp: e.timestamp, depth: DepthImage(width: e.width, height: e.height, pixels: pixels), intrinsics: e.intrinsics,
            colorWidth: e.colorWidth)
    }
}

/// A keyframe's depth kept small after the fusion has read it: every `KeptDepth.step`-th pixel
/// across and down, with the camera that goes with it, and where its markers put it.
struct KeptDepth: Sendable {
    static let step = 4
    /// The keyframe's place in the scan's keyframes.
    var keyframe: Int
    var timestamp: Double
    var markerPose: RigidTransform
    var depth: DepthImage
    var intrinsics: CameraIntrinsics

    /// `depth` read by `k` (a pinhole frame), kept at every `step`-th pixel.
    init(keyframe: Int, timestamp: Double, markerPose: RigidTransform, depth full: DepthImage, intrinsics k: CameraIntrinsics) {
        self.keyframe = keyframe
        self.timestamp = timestamp
        self.markerPose = markerPose
        depth = Self.small(full)
        intrinsics = Self.small(k, width: depth.width, height: depth.height)
    }

    /// A frame's small depth read with the settled camera's `correction`, as the fusion reads
    /// the frame (`SettledCamera.reading`).
    init(keyframe: Int, markerPose: RigidTransform, small: SmallDepth, correction: CameraCorrection) {
        self.keyframe = keyframe
        timestamp = small.timestamp
        self.markerPose = markerPose
        let scale = Float(correction.depthScale)
        depth = correction.depthScale == 1 ? small.depth : small.depth.map { $0 * scale }
        let k = correction == .none ? small.intrinsics : correction.applied(to: small.intrinsics, colorWidth: small.colorWidth)
        intrinsics = Self.small(k, width: depth.width, height: depth.height)
    }

    /// A sticker's paper reaches past its printed square (the white border) and stands off
    /// the fabric at its rim: the square's size times this about its centre is left out.
    static let stickerGrowth = 1.6

    /// The same depth without the stickers on it: the pixels within each marker's square
    /// (`quads`, four corners each in this keyframe's camera frame) grown by `stickerGrowth`
    /// are set to no depth. The stickers' paper moves with the cap, so after a slide it is
    /// not where it was on the head, and the head's surface alone should carry the part after
    /// the slide onto the part before it.
    func withoutStickers(_ quads: [[SIMD3<Double>]]) -> KeptDepth {
        var out = self
        let k = intrinsics, width = depth.width, height = depth.height
        for quad in quads where quad.count == 4 && quad.allSatisfy({ $0.z > 0 }) {
            let projected = quad.map { SIMD2(k.fx * $0.x / $0.z + k.cx, k.fy * $0.y / $0.z + k.cy) }
            let centre = projected.reduce(SIMD2<Double>.zero, +) / 4
            let grown = projected.map { centre + ($0 - centre) * Self.stickerGrowth }
            let xs = grown.map(\.x), ys = grown.map(\.y)
            guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(), minX.isFinite, maxX.isFinite,
                minY.isFinite, maxY.isFinite
            else { continue }
            let x0 = max(0, Int(minX.rounded(.up))), x1 = min(width - 1, Int(maxX.rounded(.down)))
            let y0 = max(0, Int(minY.rounded(.up))), y1 = min(height - 1, Int(maxY.rounded(.down)))
            guard x0 <= x1, y0 <= y1 else { continue }
            var area = 0.0
            for i in 0..<4 { area += grown[i].x * grown[(i + 1) % 4].y - grown[(i + 1) % 4].x * grown[i].y }
            let sign = area >= 0 ? 1.0 : -1.0
            for y in y0...y1 {
                for x in x0...x1 {
                    let p = SIMD2(Double(x), Double(y))
                    let inside = (0..<4).allSatisfy { i in
                        let a = grown[i], e = grown[(i + 1) % 4] - a, d = p - a
                        return sign * (e.x * d.y - e.y * d.x) >= 0
                    }
                    if inside { out.depth.pixels[y * width + x] = .nan }
                }
            }
        }
        return out
    }

    /// Every `step`-th pixel: small pixel u is the frame's pixel `step·u + step/2`.
    static func small(_ full: DepthImage) -> DepthImage {
        let s = step, half = step / 2
        let width = max(0, (full.width - half + s - 1) / s), height = max(0, (full.height - half + s - 1) / s)
        var pixels = [Float](repeating: .nan, count: width * height)
        for v in 0..<height {
            for u in 0..<width {
                let (x, y) = (u * s + half, v * s + half)
                guard x < full.width, y < full.height else { continue }
                pixels[v * width + u] = full.pixels[y * full.width + x]
            }
        }
        return DepthImage(width: width, height: height, pixels: pixels)
    }

    /// The camera of `small(_:)`'s picture (`width` by `height`): pixel centres at integers,
    /// so the principal point moves by the half step.
    static func small(_ k: CameraIntrinsics, width: Int, height: Int) -> CameraIntrinsics {
        let s = Double(step), half = Double(step / 2)
        return CameraIntrinsics(fx: k.fx / s, fy: k.fy / s, cx: (k.cx - half) / s, cy: (k.cy - half) / s, width: width, height: height)
    }

    /// Its depth points inside `region` where `pose` puts them (map frame), every `stride`-th
    /// small pixel.
    func points(_ pose: RigidTransform, in region: FusionRegion, stride: Int) -> [SIMD3<Double>] {
        var points: [SIMD3<Double>] = []
        for y in Swift.stride(from: 0, to: depth.height, by: stride) {
            for x in Swift.stride(from: 0, to: depth.width, by: stride) {
                let z = Double(depth.pixels[y * depth.width + x])
                guard z.isFinite, z > 0 else { continue }
                let p = pose.apply(intrinsics.unproject(SIMD2(Double(x), Double(y)), depth: z))
                if region.contains(p) { points.append(p) }
            }
        }
        return points
    }
}

/// Finds a cap that slid on the head during the scan. The markers stay rigid against each
/// other when the whole cap turns, so the marker map cannot see it; the depth can, since the
/// head under the cap did not turn with it: after the slide, the markers put the head's
/// surface (the vault, the face, the ears) where it was not before. For each moment the slide
/// may have started, the keyframes before it are fused into a coarse volume and the keyframes
/// after it (the slide's own time left out) registered on that volume all together, as one
/// rigid body: a single keyframe of a round skull barely shows a turn about its centre, but
/// the part of the scan after the slide meets the part before it at both ends of the way round.
/// The moment whose registration brings most points onto the surface is the slide's.
struct CapSlideSearch: Sendable {
    /// Seconds a slide takes (left out of both sides).
    var rampSeconds = 2.0
    /// Moments tried, seconds apart: in the first search, and near its best moments in the
    /// second.
    var firstStep = 0.5
    var secondStep = 0.5
    /// How far from the first search's moment the second one looks, seconds.
    var refineSeconds = 3.0
    /// How far before and after the moment and its ramp the keyframes are laid one by one, s.
    var boundsReach = 3.0
    /// A keyframe fits its side at all with this share of its points on the surface, and is set
    /// aside next to the change when its share falls this far below its side's usual.
    var fitsAtAll = 0.5
    var poorFit = 0.1
    /// Seconds set aside on each side of the change at least.
    var settleSeconds = 1.0
    /// How many of the first search's moments are looked at again.
    var secondLooks = 3
    /// The coarse volume the parts are laid on: voxel and truncation, metres (a head the
    /// markers put 10 mm off must still meet its surface).
    static let coarseVoxel = 0.003
    static let coarseTruncation = 0.012
    /// Least share of the keyframes on each side of a moment.
    var leastShare = 0.15
    /// Every how many small pixels a point is taken while searching.
    var pointStride = 2
    /// Fewest points that must meet the surface for a registration.
    var leastPoints = 500
    /// Most points registered at once while searching.
    var mostPoints = 5_000
    /// A point within this of the surface counts as on it, metres.
    var onSurface = 0.0015
    /// Least gain in the share of points on the surface, and least size of the correction
    /// (millimetres on a head-sized sphere), worth a second look: on the one map's poses a cap
    /// that held still gains up to 0.06 and 2.2 mm (`bench cap`, 32 scans), one that slid
    /// 0.04-0.26 and 2-12 mm.
    var leastGain = 0.05
    var leastMillimetres = 2.0
    /// The gain and size on each part's own map that say the cap slid: a cap that held still
    /// and got that far reached 0.07 and 1.1 mm, caps that slid 0.17-0.56 and 7-12 mm.
    var acceptedGain = 0.12
    var acceptedMillimetres = 3.0
    /// The gain from which a slide that is not undone (its gain under `acceptedGain`, or its
    /// correction on the head's surface alone under `acceptedMillimetres`) is reported as a
    /// doubt when the search or the registration moved the head by `acceptedMillimetres`: caps
    /// that held still reached 0.07, a cap that slid about a round skull's own axis 0.10 (and
    /// was measured 1.2 points off).
    var doubtGain = 0.08

    /// One moment tried: the correction that carries the part after it onto the part before
    /// it, and the share of that part's points on the surface before and after the correction.
    struct Profile: Sendable {
        var moment: Double
        var correction: RigidTransform
        var before: Double
        var after: Double
        var points: Int
        var gain: Double { after - before }
    }

    /// The moment whose registration gains most, if it gains enough and moves the head far
    /// enough to say the cap slid.
    func best(_ profile: [Profile], about centre: SIMD3<Double>) -> Profile? {
        guard let best = profile.max(by: { $0.gain < $1.gain }) else { return nil }
        let size = CapSlide.size(of: best.correction, about: centre)
        guard best.gain >= leastGain, size.millimetres >= leastMillimetres else { return nil }
        return best
    }

    /// The first round's moments worth a second look: the best, and the next best that lie
    /// further than `refineSeconds` from every one taken, at most `secondLooks`.
    func candidates(_ profile: [Profile]) -> [Profile] {
        var taken: [Profile] = []
        for p in profile.sorted(by: { $0.gain > $1.gain }) where taken.count < secondLooks && p.gain >= leastGain {
            if taken.allSatisfy({ abs($0.moment - p.moment) > refineSeconds }) { taken.append(p) }
        }
        return taken
    }

    /// Every moment tried, with the registration of the part after it onto the part before it:
    /// each keyframe placed by `before` when it lies before the moment and by `after` when it
    /// lies after it (the same poses, or each part's own marker map).
    func profile(
        _ kept: [KeptDepth], before: [RigidTransform], after: [RigidTransform], region: FusionRegion, tracked: FusionRegion,
        moments: ClosedRange<Double> = -Double.infinity...Double.infinity, step: Double? = nil
    ) -> [Profile] {
        let step = step ?? firstStep
        guard let first = kept.first?.timestamp, let last = kept.last?.timestamp, before.count == kept.count, after.count == kept.count
        else { return [] }
        let least = max(3, Int((leastShare * Double(kept.count)).rounded(.up)))
        let afterPoints = kept.indices.map { kept[$0].points(after[$0], in: tracked, stride: pointStride) }
        let coarse = TSDFVolume(voxelSize: Self.coarseVoxel, truncation: Self.coarseTruncation)
        var fused = 0
        var result: [Profile] = []
        var warm = RigidTransform.identity
        var moment = max(first + step, moments.lowerBound)
        while moment + rampSeconds < last {
            defer { moment += step }
            let later = kept.indices.filter { kept[$0].timestamp >= moment + rampSeconds }
            let beforeCount = kept.prefix { $0.timestamp < moment }.count
            guard beforeCount >= least, moment >= moments.lowerBound else { continue }
            guard later.count >= least, moment <= moments.upperBound else { break }
            while fused < beforeCount {
                let k = kept[fused]
                coarse.integrate(depth: k.depth, intrinsics: k.intrinsics, worldFromCamera: before[fused], region: region)
                fused += 1
            }
            let points = Self.thinned(later.map { afterPoints[$0] }, toAtMost: mostPoints)
            var registration = SurfaceRegistration(huber: 0.002, minimumPoints: leastPoints)
            registration.iterations = 30
            registration.priorRotation = 15 * Double.pi / 180
            registration.priorTranslation = 0.015
            // A step under 0.1 mrad moves a head-sized sphere by 7 µm, far below the coarse
            // voxel: the moments compare by their gains long before that (half the iterations).
            registration.stopTurn = 1e-4
            // From the neighbouring moment's answer: the part after changes little between them.
            guard let found = registration.register(points: points, predicted: warm, volume: coarse, about: tracked.centre)
            else { continue }
            warm = found.worldFromCamera
            let unmoved = share(points, .identity, coarse), placed = share(points, found.worldFromCamera, coarse)
            result.append(
                Profile(moment: moment, correction: found.worldFromCamera, before: unmoved.share, after: placed.share, points: unmoved.count))
        }
        return result
    }

    /// How well the whole scan agrees with itself when split at `split`: every keyframe but
    /// those while the cap moved fused into one coarse volume (before the moment by `before`,
    /// after it by `after` and the correction), and the share of all their points on it.
    /// Moments from different searches compare by this, not by their gains.
    func consistency(
        _ kept: [KeptDepth], before: [RigidTransform], after: [RigidTransform], split: Profile, region: FusionRegion,
        tracked: FusionRegion
    ) -> Double {
        let volume = TSDFVolume(voxelSize: Self.coarseVoxel, truncation: Self.coarseTruncation)
        var placed: [(KeptDepth, RigidTransform)] = []
        for (k, keyframe) in kept.enumerated() where k % 2 == 0 {
            if keyframe.timestamp < split.moment {
                placed.append((keyframe, before[k]))
            } else if keyframe.timestamp >= split.moment + rampSeconds {
                placed.append((keyframe, split.correction * after[k]))
            }
        }
        for (keyframe, pose) in placed {
            volume.integrate(depth: keyframe.depth, intrinsics: keyframe.intrinsics, worldFromCamera: pose, region: region)
        }
        let points = placed.flatMap { $0.0.points($0.1, in: tracked, stride: pointStride * 2) }
        return share(points, .identity, volume).share
    }

    /// When the slide began and ended, keyframe by keyframe, near the moment found: the
    /// keyframes are laid in order on a volume fused from the ones before them, each both ways
    /// (by the map before the slide, and by the map after it carried by the correction) and
    /// fused the way it fits better if it fits at all. The change goes where the keyframes stop
    /// fitting the first way better and start fitting the second (least misfit on the wrong
    /// side); the keyframes next to it that fit their side clearly worse than their side's
    /// usual are set aside: the cap was moving. The search's moment alone was up to 3 s off.
    func bounds(
        _ kept: [KeptDepth], before: [RigidTransform], after: [RigidTransform], correction: RigidTransform, moment: Double,
        region: FusionRegion, tracked: FusionRegion
    ) -> (start: Double, end: Double) {
        let fallback = (moment, moment + rampSeconds)
        guard before.count == kept.count, after.count == kept.count else { return fallback }
        let window = (moment - boundsReach)...(moment + rampSeconds + boundsReach)
        let volume = TSDFVolume(voxelSize: Self.coarseVoxel, truncation: Self.coarseTruncation)
        var fits: [(time: Double, before: Double, after: Double)] = []
        for (k, keyframe) in kept.enumerated() where keyframe.timestamp <= window.upperBound {
            guard window.contains(keyframe.timestamp) else {
                volume.integrate(depth: keyframe.depth, intrinsics: keyframe.intrinsics, worldFromCamera: before[k], region: region)
                continue
            }
            let moved = correction * after[k]
            let byBefore = share(keyframe.points(before[k], in: tracked, stride: pointStride), .identity, volume).share
            let byAfter = share(keyframe.points(moved, in: tracked, stride: pointStride), .identity, volume).share
            fits.append((keyframe.timestamp, byBefore, byAfter))
            if max(byBefore, byAfter) >= fitsAtAll {
                volume.integrate(
                    depth: keyframe.depth, intrinsics: keyframe.intrinsics, worldFromCamera: byBefore >= byAfter ? before[k] : moved,
                    region: region)
            }
        }
        guard fits.count >= 2 else { return fallback }
        var split = 0, fewest = Double.infinity
        for candidate in 0...fits.count {
            let wrong =
                fits[..<candidate].reduce(0) { $0 + max(0, $1.after - $1.before) }
                + fits[candidate...].reduce(0) { $0 + max(0, $1.before - $1.after) }
            if wrong < fewest { (split, fewest) = (candidate, wrong) }
        }
        guard split > 0, split < fits.count else { return fallback }
        let usualBefore = Statistics.median(fits[..<split].map(\.before))
        let usualAfter = Statistics.median(fits[split...].map(\.after))
        var first = split, last = split
        while first > 0, fits[first - 1].before < usualBefore - poorFit { first -= 1 }
        while last < fits.count - 1, fits[last].after < usualAfter - poorFit { last += 1 }
        // A slide starts and ends slowly: the keyframes within `settleSeconds` of the change
        // fit their side only a little worse and are set aside as well.
        let change = fits[split].time
        let start = min(fits[first].time, change - settleSeconds)
        return (start, max(fits[last].time, change + settleSeconds, start + 1e-3))
    }

    /// The lists' points in order, every n-th of them when there are more than `most` (n the
    /// fewest that leaves at most `most`), without joining the lists first: the part after a
    /// moment holds up to a million points, and joining them anew for every moment tried cost
    /// more than the registration.
    static func thinned(_ lists: [[SIMD3<Double>]], toAtMost most: Int) -> [SIMD3<Double>] {
        let total = lists.reduce(0) { $0 + $1.count }
        let every = total > most ? (total + most - 1) / most : 1
        var points: [SIMD3<Double>] = []
        points.reserveCapacity((total + every - 1) / every)
        // The index in the joined list of the next point taken, less the lists passed.
        var next = 0
        for list in lists {
            while next < list.count {
                points.append(list[next])
                next += every
            }
            next -= list.count
        }
        return points
    }

    /// Share of `points` moved by `transform` that lie on the volume's surface, of those near it.
    func share(_ points: [SIMD3<Double>], _ transform: RigidTransform, _ volume: TSDFVolume) -> (share: Double, count: Int) {
        var near = 0, on = 0
        let sampler = volume.sampler
        for p in points {
            guard let (r, _) = sampler.signedDistance(at: transform.apply(p)) else { continue }
            near += 1
            if abs(r) <= onSurface { on += 1 }
        }
        return (near > 0 ? Double(on) / Double(near) : 0, near)
    }
}

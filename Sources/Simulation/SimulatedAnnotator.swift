import Cephalometry
import Foundation
import Geometry
import Imaging
import Recording

/// One simulated pick: a landmark placed on a frame's colour image.
public struct SimulatedPick: Sendable, Equatable {
    /// "nasion", "noseTip", "leftTragion" or "rightTragion".
    public var landmark: String
    public var frameIndex: Int
    public var pixel: SIMD2<Double>
}

/// The therapist placing the four landmarks in the replay: each is picked in a few frames
/// where it is truly in view, with a hand's error of a couple of pixels. Like a person, it
/// pauses on views that face the landmark (an ear seen from the side, not past the cheek).
/// It stands in for the person, so the demo and the tests measure with picks as a real
/// session would.
public struct SimulatedAnnotator: Sendable {
    /// Frames each landmark is picked in.
    public var picksPerLandmark = 2...3
    /// Largest error of a pick, pixels (uniform over a disc).
    public var pixelError = 2.0
    /// Picks stay this far inside the picture, pixels.
    public var margin = 24.0
    /// A landmark counts as hidden when the depth there lies this much in front of it, metres.
    public var occlusionTolerance = 0.004
    /// Picks of one landmark lie at least this many frames apart (different views).
    public var minimumFrameGap = 15
    public var seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// Picks for `landmarks` (the head frame) in a scan whose frames had the `truth` poses;
    /// `depth(i)` gives frame i's depth (nil when unreadable), to leave out hidden views.
    public func picks(
        landmarks: HeadLandmarks, truth frames: [FrameTruth], intrinsics k: CameraIntrinsics, depth: (Int) -> DepthImage?
    ) -> [SimulatedPick] {
        var rng = Xoshiro256(seed: seed, stream: 0x7069_636B)
        let named = [
            ("nasion", landmarks.nasion), ("noseTip", landmarks.noseTip),
            ("leftTragion", landmarks.leftTragion), ("rightTragion", landmarks.rightTragion),
        ]
        var out: [SimulatedPick] = []
        for (name, point) in named {
            // The views that face the landmark most, then the rest, each group in random order.
            let outward = normalized(point - Self.headCentre)
            let seen = frames.compactMap { frame in projection(of: point, in: frame, k).map { (frame.index, $0, facing(outward, point, frame)) } }
            let sorted = seen.sorted { $0.2 > $1.2 }
            let best = sorted.prefix(max(12, sorted.count / 5))
            var candidates = best.shuffled(using: &rng).map { ($0.0, $0.1) } + sorted.dropFirst(best.count).shuffled(using: &rng).map { ($0.0, $0.1) }
            let wanted = picksPerLandmark.lowerBound + rng.below(picksPerLandmark.count)
            var chosen: [Int] = []
            while chosen.count < wanted, !candidates.isEmpty {
                let (index, (pixel, z)) = candidates.removeFirst()
                guard chosen.allSatisfy({ abs($0 - index) >= minimumFrameGap }), isVisible(pixel, z: z, in: depth(index), k) else { continue }
                chosen.append(index)
                out.append(SimulatedPick(landmark: name, frameIndex: index, pixel: pixel + jitter(&rng)))
            }
        }
        return out
    }

    /// The head's centre, a little above the ear line in the head frame.
    static let headCentre = SIMD3<Double>(0, 0, 0.02)

    /// How squarely `frame`'s camera faces the landmark: 1 straight on, 0 from the side.
    private func facing(_ outward: SIMD3<Double>, _ point: SIMD3<Double>, _ frame: FrameTruth) -> Double {
        let m = frame.meshFromCamera
        return dot(normalized(SIMD3(m[3], m[7], m[11]) - point), outward)
    }

    /// The landmark's pixel and camera depth in `frame`, nil when behind the camera or near the edge.
    private func projection(of point: SIMD3<Double>, in frame: FrameTruth, _ k: CameraIntrinsics) -> (SIMD2<Double>, Double)? {
        let m = frame.meshFromCamera
        let d = point - SIMD3(m[3], m[7], m[11])
        // Camera coordinates: Rᵀ (p − t), R and t from meshFromCamera.
        let c = SIMD3(m[0] * d.x + m[4] * d.y + m[8] * d.z, m[1] * d.x + m[5] * d.y + m[9] * d.z, m[2] * d.x + m[6] * d.y + m[10] * d.z)
        guard let p = k.project(c), p.x >= margin, p.y >= margin, p.x <= Double(k.width) - 1 - margin, p.y <= Double(k.height) - 1 - margin
        else { return nil }
        return (p, c.z)
    }

    /// Whether the sensor saw the landmark itself there, not something in front of it.
    private func isVisible(_ pixel: SIMD2<Double>, z: Double, in depth: DepthImage?, _ k: CameraIntrinsics) -> Bool {
        guard let depth else { return false }
        let x = Int(pixel.x.rounded()), y = Int(pixel.y.rounded())
        guard depth.contains(x: x, y: y) else { return false }
        let measured = Double(depth[x, y])
        return measured.isFinite && measured > z - occlusionTolerance
    }

    private func jitter(_ rng: inout Xoshiro256) -> SIMD2<Double> {
        let angle = rng.unitDouble() * 2 * .pi
        let radius = pixelError * rng.unitDouble().squareRoot()
        return SIMD2(cos(angle), sin(angle)) * radius
    }
}

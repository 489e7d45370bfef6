import Foundation
import Geometry
import Recording

/// A frame's depth points (camera frame) and the chroma of its colour where each falls (NaN
/// where the picture has none).
typealias Samples = (points: [SIMD3<Double>], chroma: [Double])

extension MarkerlessReconstructor {
    /// How far a point may lie from the fused surface (metres) and still be taken for the
    /// head's: beyond it lie the body, a shoulder, the room, which move against the head.
    static let headReach = 0.01

    /// The printed cap's two colours by their chroma ((red − blue) / (red + green + blue)):
    /// navy about −0.38, orange about +0.42. A point of the surface whose chroma lies within
    /// `printTolerance` of one of them is on the print; skin (+0.14), hair (+0.26), a plain
    /// cap (−0.13) and most clothes are not.
    static let printChroma = (-0.38, 0.42)
    static let printTolerance = 0.15

    /// Which of the print's colours a chroma is (0 navy, 1 orange), nil when neither.
    @inline(__always)
    static func printColour(_ chroma: Double) -> Int? {
        if abs(chroma - printChroma.0) <= printTolerance { return 0 }
        if abs(chroma - printChroma.1) <= printTolerance { return 1 }
        return nil
    }

    /// Whether a fifth of the head's points in a view show one of the print's colours.
    static func showsPrint(_ samples: Samples) -> Bool {
        let onPrint = samples.chroma.filter { $0.isFinite && printColour($0) != nil }.count
        return samples.points.count >= 100 && Double(onPrint) >= 0.2 * Double(samples.points.count)
    }

    /// How well `samples` placed at `pose` lie on the fused surface.
    ///
    /// - `agreement`: the share of all points within 2 mm of the surface (a placement astray
    ///   leaves points off it where the head has shape).
    /// - `printAgreement`: of the points within `headReach` of the surface where the surface
    ///   shows the print, those more than 2 mm off it or showing the print's other colour
    ///   differ, those within 2 mm showing the same colour match (a colour between the two
    ///   says nothing); the share that match, nil when fewer than 50 were judged. On a round vault a turned placement fits the depth
    ///   as well as the right one, but not the print; the neck, the body and a parent's hands,
    ///   which move against the head, carry no print and do not count.
    static func consistency(
        _ samples: Samples, at pose: RigidTransform, fine: TSDFVolume, coarse: TSDFVolume, noiseScale: Double = 1
    ) -> (agreement: Double, printAgreement: Double?) {
        var onSurface = 0, matching = 0, differing = 0
        let (fine, coarse) = (fine.sampler, coarse.sampler)
        for (i, p) in samples.points.enumerated() {
            let w = pose.apply(p)
            let close = fine.signedDistance(at: w).map { abs($0.distance) <= 0.002 * noiseScale } ?? false
            if close { onSurface += 1 }
            // The print where the point's nearest surface is (the coarse volume reaches farther;
            // the fine one keeps the colour).
            guard let (distance, gradient) = coarse.signedDistance(at: w), abs(distance) <= headReach,
                let (surface, _) = fine.chroma(at: w - gradient * (distance / max(1e-9, (gradient * gradient).sum()))),
                let colour = printColour(surface)
            else { continue }
            guard close else { differing += 1; continue }
            // A colour between the print's two (an edge, or the picture blurred by motion)
            // says nothing either way.
            let c = i < samples.chroma.count ? samples.chroma[i] : .nan
            guard c.isFinite, let seen = printColour(c) else { continue }
            if seen == colour { matching += 1 } else { differing += 1 }
        }
        let all = samples.points.count, judged = matching + differing
        return (all > 0 ? Double(onSurface) / Double(all) : 0, judged >= 50 ? Double(matching) / Double(judged) : nil)
    }

    /// The frame placed again after the head was lost for `frames` frames, on a printed cap:
    /// the head is found in the frame as when the scan began, and the camera is tried where its
    /// motion before the loss would have carried it and where it was, each turned about the
    /// head's centre by up to 40° (an infant turns away, the operator walks on), then
    /// registered; the best is taken when the print confirms it. A plain cap is never searched:
    /// on a round vault a wrong turn fits the depth as well as the right one. (Scoring many
    /// more turns by the print alone before registering a few was tried: on the development
    /// scans it found none of the heads this finds.)
    func relocate(
        _ f: RGBDFrame, from last: RigidTransform, moving motion: RigidTransform, for frames: Int, coarse: TSDFVolume,
        fine: TSDFVolume, region: FusionRegion
    ) -> SurfaceRegistration.Result? {
        guard usesColour, let sphere = HeadInView.sphere(depth: f.depth, intrinsics: f.depthIntrinsics) else { return nil }
        var carried = last
        for _ in 0..<min(frames, 60) { carried = (motion * carried).orthonormalized }
        let wide = coarseRegistration
        var best: (result: SurfaceRegistration.Result, agreement: Double)?
        // Where the coarse step took the starts so far: one that arrives where another did
        // would be finished to the same place.
        var arrived: [RigidTransform] = []
        for base in [carried, last] {
            for turn in Self.searchTurns {
                let rotation = turn * base.rotation
                // The head seen now put where the fused head is.
                let start = RigidTransform(rotation: rotation, translation: region.centre - rotation.apply(sphere.centre))
                guard let near = register(f, with: wide, from: start, on: coarse, region: region) else { continue }
                guard !arrived.contains(where: { Self.samePlace($0, near.worldFromCamera, about: region.centre) }) else { continue }
                arrived.append(near.worldFromCamera)
                guard let placed = register(f, with: registration, from: near.worldFromCamera, on: fine, region: region),
                    placed.rms <= placementRMS
                else { continue }
                let samples = registration.colouredSamples(f, near: placed.worldFromCamera, region: region)
                guard let print = Self.consistency(samples, at: placed.worldFromCamera, fine: fine, coarse: coarse).printAgreement,
                    print >= minimumPrintAgreement
                else { continue }
                if best.map({ print > $0.agreement }) ?? true { best = (placed, print) }
            }
        }
        return best?.result
    }

    /// Whether two placements of a frame put the head within `samePlaceShift` of each other
    /// (the head's centre) and within `samePlaceTurn` (radians).
    static func samePlace(_ a: RigidTransform, _ b: RigidTransform, about centre: SIMD3<Double>) -> Bool {
        let difference = a * b.inverse
        return difference.rotation.angle <= samePlaceTurn && length(difference.apply(centre) - centre) <= samePlaceShift
    }

    /// Coarse placements this close are finished to the same place: the fine volume's band
    /// (4 mm) reaches far beyond, and its print matching converges from either.
    static let samePlaceShift = 0.001
    static let samePlaceTurn = 0.5 * Double.pi / 180

    /// Whether the head, lost for the `lost` frames before this one, is searched for in it:
    /// in each of the next `searchedEveryFrame` frames, then ever more rarely, in frames 192,
    /// 256, 384, 512… of the loss (twice each time the loss doubles). A search registers up to
    /// eighteen starts where a head-sized surface is in view: searched in every frame, a loss
    /// that never ends (a head out of the fused space, or another head) in a long scan would
    /// cost many times the scan. A head back after a longer loss is found within half the loss.
    static func searchesAgain(afterLosing lost: Int) -> Bool {
        guard lost >= 1 else { return false }
        if lost <= searchedEveryFrame { return true }
        // lost = 128·2^k or 192·2^k.
        var n = lost
        while n.isMultiple(of: 2), n > 192 { n /= 2 }
        return n == 128 || n == 192
    }

    /// A loss this long (frames examined: 12.8 s at the usual stride) is searched in every
    /// frame. A restless infant turned away for 10 s, and was found again in the 98th frame.
    static let searchedEveryFrame = 128

    /// Turns about the world's axes tried when looking for the head again: none, about the
    /// vertical by 20° and 40° either way, about the other two by 20° either way.
    static let searchTurns: [Rotation3] = {
        let degree = Double.pi / 180
        var turns = [Rotation3.identity]
        for angle in [20.0, -20, 40, -40] { turns.append(Rotation3(axis: SIMD3(0, 1, 0), angle: angle * degree)) }
        for axis in [SIMD3<Double>(1, 0, 0), SIMD3(0, 0, 1)] {
            for angle in [20.0, -20] { turns.append(Rotation3(axis: axis, angle: angle * degree)) }
        }
        return turns
    }()
}

import Foundation
import Geometry
import Markers
import Recording

// Stage 1: the markers.
extension Reconstructor {
    /// Stage 1: markers of every examined frame, registration, and the incremental map with
    /// its keyframes.
    /// `frame` reads the frames as recorded; with `concurrentFrame` they are read on every
    /// thread. Returns the colour camera the frames recorded (the last usable one's, its lens
    /// included); the markers were found on pinhole pictures, with its pinhole part. When the
    /// fusion will look for a cap that slid, each keyframe's depth is kept small, by frame.
    func buildMap(
        frameCount: Int, frame: (Int) throws -> RGBDFrame?, concurrentFrame: (@Sendable (Int) throws -> RGBDFrame?)?,
        stats: inout ReconstructionStatistics, progress: (ReconstructionProgress) -> Void, isCancelled: () -> Bool
    ) throws -> (MarkerMap, [Keyframe], CameraIntrinsics, [(Int, [MarkerObservation], unread: [MarkerObservation])], SmallDepthStore) {
        let detector = MarkerDetector(dictionary: try layout.dictionary())
        let lifter = {
            var lifter = MarkerLifter(layout: layout)
            lifter.depthNoise = options.depthNoise
            return lifter
        }()
        let validIDs = Set(layout.ids)
        var builder = MapBuilder(registration: FrameRegistration(), options: options)
        var recorded: CameraIntrinsics?
        let examined = Array(stride(from: 0, to: frameCount, by: max(1, options.frameStride)))
        var seen: [(Int, [MarkerObservation], unread: [MarkerObservation])] = []
        let keepsDetections = options.estimatesFocalLength || options.estimatesPrincipalPoint || options.estimatesDistortion
        let keepsDepth = options.fuseSurface && options.findsCapSlide
        var smallDepth = SmallDepthStore()
        // Frames are read in batches, their markers found on every thread, and the map grown
        // from them in frame order: the same map whatever the thread count.
        let batchSize = max(1, options.threads) * 2
        // Reading (decoding) alone, apart from detection.
        let clock = ContinuousClock()
        var reading = Duration.zero
        defer { stats.stageSeconds["markersReading"] = reading.seconds }
        for start in stride(from: 0, to: examined.count, by: batchSize) {
            let indices = Array(examined[start..<min(start + batchSize, examined.count)])
            progress(ReconstructionProgress(stage: .markers, done: start, total: examined.count))
            if isCancelled() { throw ReconstructionError.cancelled }
            // Read here one by one, or by the workers themselves when the source allows.
            var read: [RGBDFrame?] = []
            if concurrentFrame == nil {
                let readingStart = clock.now
                read = indices.map { try? frame($0) }
                reading += clock.now - readingStart
            }
            let sequential = read
            let found = SlotBuffer<FrameMarkers?>(count: indices.count, repeating: nil)
            parallelFor(indices.count, threads: options.threads) { k in
                guard let raw = concurrentFrame.map({ try? $0(indices[k]) }) ?? sequential[k] else { return }
                let f = raw.removingLensDistortion()
                var scratch: [SIMD3<Double>] = []
                var outlines: [[SIMD2<Double>]] = []
                let detections = detector.detect(in: f.color, unread: &outlines).filter { validIDs.contains($0.id) }
                // An outline is lifted only through the depth, as a sticker of the cap's size.
                let unread = lifter.lift(
                    outlines.map { DetectedMarker(id: -1, corners: $0) }, depth: f.depth, colorIntrinsics: f.colorIntrinsics,
                    depthIntrinsics: f.depthIntrinsics, scratch: &scratch
                ).filter(\.fromDepth)
                found[k] = FrameMarkers(
                    observations: lifter.lift(
                        detections, depth: f.depth, colorIntrinsics: f.colorIntrinsics, depthIntrinsics: f.depthIntrinsics,
                        scratch: &scratch),
                    unread: unread, recorded: raw.colorIntrinsics, small: keepsDepth ? SmallDepth(f) : nil)
            }
            for (k, index) in indices.enumerated() {
                stats.framesExamined += 1
                guard let seenHere = found[k] else { stats.framesRejected += 1; continue }
                recorded = seenHere.recorded
                let observations = seenHere.observations
                if builder.add(observations, frameIndex: index, unread: seenHere.unread) { stats.framesUsed += 1 } else { stats.framesRejected += 1 }
                if builder.keyframes.last?.frameIndex == index, let small = seenHere.small { smallDepth.keep(small, frame: index) }
                if keepsDetections { seen.append((index, observations, seenHere.unread)) }
            }
        }
        guard !builder.map.corners.isEmpty, let recorded else {
            throw ReconstructionError.noUsableMarkers(framesSeen: stats.framesExamined)
        }
        guard builder.keyframes.count >= 3 else { throw ReconstructionError.tooFewRegisteredFrames(registered: stats.framesUsed, needed: 3) }
        return (builder.map, builder.keyframes, recorded, seen, smallDepth)
    }

    /// What one frame gave the marker stage.
    private struct FrameMarkers {
        var observations: [MarkerObservation]
        /// Outlines of stickers whose code could not be read, camera frame.
        var unread: [MarkerObservation]
        /// The colour camera the frame recorded, its lens included.
        var recorded: CameraIntrinsics
        var small: SmallDepth?
    }
}

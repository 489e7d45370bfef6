import Imaging

/// Finds the markers of one dictionary in gray images: their IDs and sub-pixel corners.
///
/// Pipeline: one adaptive threshold (integral image), outer-border tracing, quadrilateral
/// test, a cheap border check with the rough corners, edge-line corner refinement, then
/// reading the code with the refined corners and looking it up with bounded error
/// correction. A candidate is only reported when its code is read from the refined corners
/// and every check passes; detections inside a larger detection are dropped.
public struct MarkerDetector: Sendable {
    /// The dictionary searched for.
    public var dictionary: MarkerDictionary
    /// Tuning.
    public var parameters: MarkerDetectorParameters

    /// A detector for `dictionary`.
    public init(dictionary: MarkerDictionary, parameters: MarkerDetectorParameters = .init()) {
        self.dictionary = dictionary
        self.parameters = parameters
    }

    /// The markers in `image`, largest first.
    public func detect(in image: GrayImage) -> [DetectedMarker] {
        // Anything smaller cannot hold a marker of the minimum perimeter plus its surround.
        guard image.width >= 8, image.height >= 8 else { return [] }
        var scratch = Scratch()
        return image.pixels.withUnsafeBufferPointer { buffer in
            let view = GrayImageView(pixels: buffer.baseAddress!, width: image.width, height: image.height)
            return detect(in: view, scratch: &scratch)
        }
    }

    /// The markers in an RGBA image (converted to BT.601 luma first).
    public func detect(in image: RGBAImage) -> [DetectedMarker] {
        detect(in: image.grayscale())
    }

    /// Buffers reused across the stages of one detection.
    private struct Scratch {
        var integral: [UInt32] = []
        var binary: [Int8] = []
        var contour: [SIMD2<Int32>] = []
    }

    private func detect(in image: GrayImageView, scratch: inout Scratch) -> [DetectedMarker] {
        let p = parameters
        let threshold = AdaptiveThreshold(window: max(3, p.thresholdWindow | 1), offset: p.thresholdOffset)
        threshold.apply(image, integral: &scratch.integral, output: &scratch.binary)

        let maxPerimeter = Int(p.maxPerimeterRate * Double(max(image.width, image.height)))
        let tracer = ContourTracer(maxLength: maxPerimeter, minLength: max(8, p.minPerimeter))
        let fitter = QuadFitter(accuracyRate: p.polygonAccuracyRate, minTolerance: 1.0, minSideRate: p.minSideRate)
        var quads: [[SIMD2<Double>]] = []
        let margin = p.minDistanceToBorder
        let maxX = Double(image.width - 1) - margin, maxY = Double(image.height - 1) - margin
        tracer.trace(&scratch.binary, width: image.width + 2, height: image.height + 2, points: &scratch.contour) { points in
            guard let quad = fitter.fit(points) else { return }
            for corner in quad where corner.x < margin || corner.y < margin || corner.x > maxX || corner.y > maxY {
                return
            }
            quads.append(quad)
        }

        let reader = BitReader(markerSize: dictionary.markerSize)
        let refiner = EdgeRefiner()
        let maxCorrection = Int(Double(dictionary.maxCorrectionBits) * p.errorCorrectionRate)
        var found: [DetectedMarker] = []
        for quad in quads {
            // Rough corners may be a pixel off, so this first look only asks for a dark
            // border; the code is read once the corners are refined.
            guard let rough = reader.read(image, corners: quad),
                  rough.contrast >= p.minContrast,
                  Double(rough.borderErrors) <= 0.5 * Double(rough.borderCells)
            else { continue }
            let cells = dictionary.markerSize + 2
            var corners = quad
            if p.refineCorners {
                guard let refined = refiner.refine(image, corners: quad, cells: cells) else { continue }
                corners = refined
            }
            guard let reading = reader.read(image, corners: corners),
                  reading.contrast >= p.minContrast,
                  Double(reading.borderErrors) <= p.maxBorderErrorRate * Double(reading.borderCells),
                  let match = dictionary.identify(reading.code, maxDistance: maxCorrection)
            else { continue }
            // Corner i of the marker as drawn sits where the observation put corner i + rotation.
            let ordered = (0..<4).map { corners[($0 + match.rotation) % 4] }
            found.append(DetectedMarker(id: match.id, corners: ordered, correctedBits: match.distance))
        }
        return removingNested(found)
    }

    private func perimeter(_ corners: [SIMD2<Double>]) -> Double {
        (0..<4).reduce(0.0) { sum, k in
            let d = corners[(k + 1) % 4] - corners[k]
            return sum + (d * d).sum().squareRoot()
        }
    }

    /// Drops detections whose centre lies inside a larger detection: a block of black data
    /// cells can itself look like a small marker.
    private func removingNested(_ markers: [DetectedMarker]) -> [DetectedMarker] {
        let sorted = markers.sorted { $0.perimeter > $1.perimeter }
        var kept: [DetectedMarker] = []
        for marker in sorted where !kept.contains(where: { contains($0.corners, marker.centre) }) {
            kept.append(marker)
        }
        return kept
    }

    private func contains(_ quad: [SIMD2<Double>], _ point: SIMD2<Double>) -> Bool {
        for k in 0..<4 where cross(quad[(k + 1) % 4] - quad[k], point - quad[k]) < 0 {
            return false
        }
        return true
    }
}

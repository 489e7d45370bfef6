import Imaging

/// Finds the markers of one dictionary in gray images: their IDs and sub-pixel corners.
///
/// Pipeline: one adaptive threshold (integral image), outer-border tracing, quadrilateral
/// test (with a second, narrower threshold around marker-sized contours that fail it), a
/// cheap border check with the rough corners, edge-line corner refinement, then
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

    /// The markers in `image`, largest first, with what each stage did written to
    /// `diagnostics` (slower: every rejected candidate is recorded).
    public func detect(in image: GrayImage, diagnostics: inout DetectionDiagnostics) -> [DetectedMarker] {
        guard image.width >= 8, image.height >= 8 else { return [] }
        var scratch = Scratch()
        scratch.diagnostics = DetectionDiagnostics()
        let markers = image.pixels.withUnsafeBufferPointer { buffer in
            let view = GrayImageView(pixels: buffer.baseAddress!, width: image.width, height: image.height)
            return detect(in: view, scratch: &scratch)
        }
        diagnostics = scratch.diagnostics ?? DetectionDiagnostics()
        return markers
    }

    /// The markers in an RGBA image (converted to BT.601 luma first).
    public func detect(in image: RGBAImage) -> [DetectedMarker] {
        detect(in: image.grayscale())
    }

    /// The markers in an RGBA image, and in `unread` the refined outlines of marker-shaped
    /// squares with a dark border whose code could not be read (a smeared, torn or creased
    /// print, or a marker of another dictionary), none inside a marker found.
    public func detect(in image: RGBAImage, unread: inout [[SIMD2<Double>]]) -> [DetectedMarker] {
        let gray = image.grayscale()
        guard gray.width >= 8, gray.height >= 8 else { return [] }
        var scratch = Scratch()
        scratch.unread = []
        let markers = gray.pixels.withUnsafeBufferPointer { buffer in
            let view = GrayImageView(pixels: buffer.baseAddress!, width: gray.width, height: gray.height)
            return detect(in: view, scratch: &scratch)
        }
        let outlines = scratch.unread ?? []
        unread = outlines.filter { quad in
            let middle = quad.reduce(.zero, +) / 4
            return !markers.contains { contains($0.corners, middle) }
        }
        return markers
    }

    /// Buffers reused across the stages and passes of one detection.
    private struct Scratch {
        var integral: [UInt32] = []
        var binary: [Int8] = []
        var contour: [SIMD2<Int32>] = []
        /// Collected only when asked for.
        var diagnostics: DetectionDiagnostics?
        /// Outlines read but not identified, collected only when asked for.
        var unread: [[SIMD2<Double>]]?
    }

    private func detect(in image: GrayImageView, scratch: inout Scratch) -> [DetectedMarker] {
        let p = parameters
        AdaptiveThreshold.integrate(image, into: &scratch.integral)
        let whole = PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
        var rejected: [PixelRegion] = []
        let quads = candidates(in: image, region: whole, window: p.thresholdWindow, scratch: &scratch, rejected: &rejected)
        var found = quads.compactMap { decode(image, quad: $0, diagnostics: &scratch.diagnostics, unread: &scratch.unread) }
        found += recovered(in: image, around: rejected, outside: found, scratch: &scratch)
        return removingNested(found, diagnostics: &scratch.diagnostics)
    }

    /// Looks again with the smaller `recoveryWindow` around contours that were short enough
    /// for a marker but not quadrilaterals. A marker whose quiet zone is thinner than half
    /// the main window can merge with a dark background there; a narrow window separates
    /// them, but over the whole image it would break up larger markers and cost a second
    /// full pass, so it is only applied where a marker may have been lost.
    private func recovered(
        in image: GrayImageView, around regions: [PixelRegion], outside found: [DetectedMarker],
        scratch: inout Scratch
    ) -> [DetectedMarker] {
        var recovered: [DetectedMarker] = []
        var none: [PixelRegion] = []
        var searched: [PixelRegion] = []
        for region in regions where !found.contains(where: { contains($0.corners, centre(of: region)) }) {
            // Thresholds do not depend on the region, so one inside a searched region holds
            // nothing new.
            if searched.contains(where: { $0.contains(region) }) { continue }
            searched.append(region)
            scratch.diagnostics?.recoveryRegions += 1
            let quads = candidates(in: image, region: region, window: parameters.recoveryWindow, scratch: &scratch, rejected: &none)
            for quad in quads {
                let middle = quad.reduce(.zero, +) / 4
                if found.contains(where: { contains($0.corners, middle) }) { continue }
                if let marker = decode(image, quad: quad, diagnostics: &scratch.diagnostics, unread: &scratch.unread) { recovered.append(marker) }
            }
        }
        return recovered
    }

    /// Quadrilateral outlines of the dark regions of `region` after thresholding with
    /// `window`. On a pass over the whole image, the surroundings of marker-sized contours
    /// that are not quadrilaterals are added to `rejected`; on a pass over a smaller region,
    /// contours touching its edge are dropped, because the cut may have straightened them.
    private func candidates(
        in image: GrayImageView, region: PixelRegion, window: Int, scratch: inout Scratch,
        rejected: inout [PixelRegion]
    ) -> [[SIMD2<Double>]] {
        let p = parameters
        let threshold = AdaptiveThreshold(window: max(3, window | 1), offset: p.thresholdOffset)
        threshold.apply(image, integral: scratch.integral, region: region, output: &scratch.binary)
        let isWhole = region.width == image.width && region.height == image.height
        let maxPerimeter = Int(p.maxPerimeterRate * Double(max(image.width, image.height)))
        let tracer = ContourTracer(maxLength: maxPerimeter, minLength: max(8, p.minPerimeter))
        let fitter = QuadFitter(accuracyRate: p.polygonAccuracyRate, minTolerance: 1.0, minSideRate: p.minSideRate)
        var quads: [[SIMD2<Double>]] = []
        var contours = 0
        let margin = p.minDistanceToBorder
        let maxX = Double(image.width - 1) - margin, maxY = Double(image.height - 1) - margin
        let origin = SIMD2(Int32(region.x), Int32(region.y))
        tracer.trace(
            &scratch.binary, width: region.width + 2, height: region.height + 2, origin: origin,
            points: &scratch.contour
        ) { points in
            let box = boundingBox(points)
            if !isWhole && touchesEdge(box, of: region) { return }
            contours += 1
            guard let quad = fitter.fit(points) else {
                // Thin or long contours are texture: a marker they swallowed would make them
                // at least a marker's side across in both directions.
                if isWhole && points.count <= p.recoveryMaxPerimeter && min(box.width, box.height) >= p.minPerimeter / 3 {
                    rejected.append(surroundings(of: box, in: image))
                }
                return
            }
            for corner in quad where corner.x < margin || corner.y < margin || corner.x > maxX || corner.y > maxY {
                return
            }
            quads.append(quad)
        }
        scratch.diagnostics?.contours += contours
        scratch.diagnostics?.quadrilaterals += quads.count
        return quads
    }

    /// The marker read from a candidate quadrilateral, or nil when any check fails.
    private func decode(
        _ image: GrayImageView, quad: [SIMD2<Double>], diagnostics: inout DetectionDiagnostics?, unread: inout [[SIMD2<Double>]]?
    ) -> DetectedMarker? {
        let p = parameters
        let reader = BitReader(markerSize: dictionary.markerSize)
        func reject(_ reason: DetectionDiagnostics.Reason, _ corners: [SIMD2<Double>], nearest: Int? = nil) -> DetectedMarker? {
            diagnostics?.rejections.append(.init(corners: corners, reason: reason, nearestDistance: nearest))
            return nil
        }
        // Rough corners may be a pixel off, so this first look only asks for a dark
        // border; the code is read once the corners are refined.
        guard let rough = reader.read(image, corners: quad) else { return reject(.degenerate, quad) }
        guard rough.contrast >= p.minContrast else { return reject(.lowContrast, quad) }
        guard Double(rough.borderErrors) <= 0.5 * Double(rough.borderCells) else { return reject(.border, quad) }
        diagnostics?.borderChecked += 1
        var corners = quad
        if p.refineCorners {
            guard let refined = EdgeRefiner().refine(image, corners: quad, cells: dictionary.markerSize + 2) else {
                return reject(.refinement, quad)
            }
            corners = refined
        }
        diagnostics?.refined += 1
        let maxCorrection = Int(Double(dictionary.maxCorrectionBits) * p.errorCorrectionRate)
        guard let reading = reader.read(image, corners: corners) else { return reject(.degenerate, corners) }
        guard reading.contrast >= p.minContrast else { return reject(.lowContrast, corners) }
        guard Double(reading.borderErrors) <= p.maxBorderErrorRate * Double(reading.borderCells) else {
            unread?.append(corners)
            return reject(.border, corners)
        }
        guard let match = dictionary.identify(reading.code, maxDistance: maxCorrection) else {
            unread?.append(corners)
            let nearest = diagnostics == nil ? nil : dictionary.identify(reading.code, maxDistance: 64)?.distance
            return reject(.unknownCode, corners, nearest: nearest)
        }
        diagnostics?.decoded += 1
        // Corner i of the marker as drawn sits where the observation put corner i + rotation.
        let ordered = (0..<4).map { corners[($0 + match.rotation) % 4] }
        return DetectedMarker(
            id: match.id, corners: ordered, correctedBits: match.distance, decisionMargin: reading.meanMargin,
            minimumMargin: reading.minMargin, contrast: reading.contrast)
    }

    /// The smallest region holding every point.
    private func boundingBox(_ points: UnsafeBufferPointer<SIMD2<Int32>>) -> PixelRegion {
        var low = points[0], high = points[0]
        for point in points {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        return PixelRegion(x: Int(low.x), y: Int(low.y), width: Int(high.x - low.x) + 1, height: Int(high.y - low.y) + 1)
    }

    private func touchesEdge(_ box: PixelRegion, of region: PixelRegion) -> Bool {
        box.x <= region.x || box.y <= region.y
            || box.x + box.width >= region.x + region.width || box.y + box.height >= region.y + region.height
    }

    /// `box` grown by a quarter of its larger side plus two pixels, within the image: room
    /// for the rest of a marker of which the contour held only a part, and for its quiet zone.
    private func surroundings(of box: PixelRegion, in image: GrayImageView) -> PixelRegion {
        let grow = max(box.width, box.height) / 4 + 2
        let x0 = max(0, box.x - grow), y0 = max(0, box.y - grow)
        let x1 = min(image.width, box.x + box.width + grow), y1 = min(image.height, box.y + box.height + grow)
        return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func centre(of region: PixelRegion) -> SIMD2<Double> {
        SIMD2(Double(region.x) + 0.5 * Double(region.width - 1), Double(region.y) + 0.5 * Double(region.height - 1))
    }

    /// Drops detections whose centre lies inside a larger detection: a block of black data
    /// cells can itself look like a small marker.
    private func removingNested(_ markers: [DetectedMarker], diagnostics: inout DetectionDiagnostics?) -> [DetectedMarker] {
        let sorted = markers.sorted { $0.perimeter > $1.perimeter }
        var kept: [DetectedMarker] = []
        for marker in sorted {
            if kept.contains(where: { contains($0.corners, marker.centre) }) {
                diagnostics?.rejections.append(.init(corners: marker.corners, reason: .nested, nearestDistance: nil))
            } else {
                kept.append(marker)
            }
        }
        diagnostics?.reported = kept.count
        return kept
    }

    private func contains(_ quad: [SIMD2<Double>], _ point: SIMD2<Double>) -> Bool {
        for k in 0..<4 where cross(quad[(k + 1) % 4] - quad[k], point - quad[k]) < 0 {
            return false
        }
        return true
    }
}

import Geometry

/// The head's volume above the reference plane, split into four quadrants by the
/// mid-sagittal plane and the coronal plane through the tragion midpoint.
///
/// Every slice parallel to the reference plane from the plane to the crown is outlined (holes
/// bridged as for the circumference), its area split by quadrant, and the areas integrated
/// over height with the midpoint rule.
public struct QuadrantVolumes: Sendable, Codable, Equatable {
    /// Front-left quadrant (forward of the ear line, on the infant's left), cm³.
    public var frontLeftCM3: Double
    /// Front-right quadrant, cm³.
    public var frontRightCM3: Double
    /// Back-left quadrant, cm³.
    public var backLeftCM3: Double
    /// Back-right quadrant, cm³.
    public var backRightCM3: Double

    /// Quadrant volumes from their values in cm³.
    public init(frontLeftCM3: Double, frontRightCM3: Double, backLeftCM3: Double, backRightCM3: Double) {
        self.frontLeftCM3 = frontLeftCM3
        self.frontRightCM3 = frontRightCM3
        self.backLeftCM3 = backLeftCM3
        self.backRightCM3 = backRightCM3
    }

    /// The whole volume above the reference plane, cm³.
    public var totalCM3: Double { frontLeftCM3 + frontRightCM3 + backLeftCM3 + backRightCM3 }
}

/// Integrates slice areas over height.
struct VolumeIntegrator {
    /// Height step of the slices (metres).
    var step: Double
    /// Widest hole bridged in a slice (metres).
    var maximumGap: Double

    /// The quadrant volumes of the part of `slicer`'s mesh above the reference plane, and the
    /// total height over which slices had to be interpolated because no outline closed.
    func volumes(_ slicer: HeightSlicer) -> (volumes: QuadrantVolumes, interpolatedHeight: Double) {
        let top = slicer.highest
        guard top > 0 else { return (QuadrantVolumes(frontLeftCM3: 0, frontRightCM3: 0, backLeftCM3: 0, backRightCM3: 0), 0) }
        let count = Int((top / step).rounded(.up))
        let left = SIMD2(-1.0, 0), right = SIMD2(1.0, 0), front = SIMD2(0.0, 1), back = SIMD2(0.0, -1)
        // Areas per slice in the order front-left, front-right, back-left, back-right.
        var areas: [SIMD4<Double>?] = []
        var widths: [Double] = []
        for k in 0..<count {
            let low = Double(k) * step, high = min(top, Double(k + 1) * step)
            widths.append(high - low)
            guard let outline = SliceContour.largest(of: slicer.chains(at: (low + high) / 2), maximumGap: maximumGap) else {
                areas.append(nil)
                continue
            }
            let p = outline.polygon
            areas.append(
                SIMD4(
                    p.area(inQuarter: front, left), p.area(inQuarter: front, right),
                    p.area(inQuarter: back, left), p.area(inQuarter: back, right)))
        }
        var interpolated = 0.0
        var total = SIMD4<Double>.zero
        for k in 0..<count {
            if let a = areas[k] {
                total += a * widths[k]
            } else {
                // A slice with no closed outline takes its nearest outlined neighbours' mean;
                // above the last outlined slice the crown tapers to nothing.
                let below = areas[..<k].last { $0 != nil } ?? nil
                let above = areas[(k + 1)...].first { $0 != nil } ?? nil
                total += ((below ?? .zero) + (above ?? .zero)) / Double((below == nil ? 0 : 1) + (above == nil ? 0 : 1)).clampedToOne * widths[k]
                interpolated += widths[k]
            }
        }
        let cm3 = total * 1e6
        return (QuadrantVolumes(frontLeftCM3: cm3[0], frontRightCM3: cm3[1], backLeftCM3: cm3[2], backRightCM3: cm3[3]), interpolated)
    }
}

private extension Double {
    /// At least one, so an average of nothing divides by one and stays zero.
    var clampedToOne: Double { Swift.max(1, self) }
}

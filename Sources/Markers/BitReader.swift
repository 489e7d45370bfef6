import Geometry

/// Reads the cells of a marker candidate through the perspective map of its corners.
///
/// Each cell is the mean of a 3x3 grid of bilinear samples around its centre. Black is the
/// median of the border cells, white the median of a ring of samples just outside the
/// marker (its quiet zone); the threshold halfway between adapts to each marker's light.
struct BitReader {
    /// Bits per side of the code, without the border.
    var markerSize: Int

    /// What was read from one candidate.
    struct Reading {
        /// The inner bits, row by row from corner 0, first bit most significant; white is 1.
        var code: UInt64
        /// Border cells that looked white.
        var borderErrors: Int
        /// Number of border cells.
        var borderCells: Int
        /// White minus black level, in gray levels.
        var contrast: Double
        /// Inner cells whose mean lay close to the threshold (within a tenth of the contrast).
        var uncertainBits: Int
        /// Mean distance of the inner cells from the threshold, in gray levels.
        var meanMargin: Double
        /// Smallest distance of an inner cell from the threshold, in gray levels.
        var minMargin: Double
    }

    /// Reads the candidate with `corners` (clockwise on screen), or nil for degenerate corners.
    func read(_ image: GrayImageView, corners: [SIMD2<Double>]) -> Reading? {
        guard let map = try? Homography.unitSquare(to: corners) else { return nil }
        let m = map.matrix
        let r0 = m.row(0), r1 = m.row(1), r2 = m.row(2)
        let cells = markerSize + 2
        let scale = 1 / Double(cells)
        @inline(__always) func sample(_ u: Double, _ v: Double) -> Double {
            let w = r2.x * u + r2.y * v + r2.z
            return image.bilinear((r0.x * u + r0.y * v + r0.z) / w, (r1.x * u + r1.y * v + r1.z) / w)
        }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: cells * cells + 4 * cells) { buffer in
            let means = UnsafeMutableBufferPointer(rebasing: buffer[0..<(cells * cells)])
            let outside = UnsafeMutableBufferPointer(rebasing: buffer[(cells * cells)...])
            let offsets = [-0.25, 0, 0.25]
            for row in 0..<cells {
                for column in 0..<cells {
                    var sum = 0.0
                    for dv in offsets {
                        for du in offsets {
                            sum += sample((Double(column) + 0.5 + du) * scale, (Double(row) + 0.5 + dv) * scale)
                        }
                    }
                    means[row * cells + column] = sum / 9
                }
            }
            // A third of a cell outside each side: inside even a thin quiet zone.
            let out = -0.35 * scale
            for k in 0..<cells {
                let along = (Double(k) + 0.5) * scale
                outside[4 * k] = sample(along, out)
                outside[4 * k + 1] = sample(along, 1 - out)
                outside[4 * k + 2] = sample(out, along)
                outside[4 * k + 3] = sample(1 - out, along)
            }
            let borderCount = 4 * (cells - 1)
            var border = [Double]()
            border.reserveCapacity(borderCount)
            for row in 0..<cells {
                for column in 0..<cells where row == 0 || column == 0 || row == cells - 1 || column == cells - 1 {
                    border.append(means[row * cells + column])
                }
            }
            let black = Statistics.median(border)
            let white = Statistics.median(outside)
            let contrast = white - black
            let threshold = 0.5 * (white + black)
            var borderErrors = 0
            for value in border where value > threshold { borderErrors += 1 }
            var code: UInt64 = 0
            var uncertain = 0
            var marginSum = 0.0, marginMin = Double.infinity
            let margin = 0.1 * contrast
            for row in 1...markerSize {
                for column in 1...markerSize {
                    let value = means[row * cells + column]
                    code = code << 1 | (value > threshold ? 1 : 0)
                    let distance = abs(value - threshold)
                    if distance < margin { uncertain += 1 }
                    marginSum += distance
                    marginMin = min(marginMin, distance)
                }
            }
            return Reading(
                code: code, borderErrors: borderErrors, borderCells: borderCount,
                contrast: contrast, uncertainBits: uncertain,
                meanMargin: marginSum / Double(markerSize * markerSize), minMargin: marginMin)
        }
    }

}

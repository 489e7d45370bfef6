import Geometry

extension Cephalometer {
    /// The slice measures under every convention. `longest` is the longest-outline slice the
    /// measurement was made on; a convention whose slice has no outline round the ear-line
    /// centre is left out.
    static func conventions(
        slicer: HeightSlicer, longest: ConventionMeasures, options: MeasurementOptions
    ) -> [ConventionMeasures] {
        func contour(at z: Double) -> SliceContour? {
            SliceContour.outer(of: slicer.chains(at: z), around: .zero, maximumGap: options.maximumGap)
        }
        let greatestLength = peak(
            from: max(options.lowestHeight, slicer.lowest), floor: options.lowestHeight, to: slicer.highest, step: options.step
        ) { contour(at: $0)?.polygon.extent(along: SIMD2(0, 1)) ?? 0 }
        var all = [longest]
        if let height = greatestLength?.height, let outline = contour(at: height),
            let values = measures(.greatestLength, of: outline, at: height)
        {
            all.append(values)
        }
        all.append(CalliperBias.published.applied(to: longest))
        return all
    }

    /// The slice measures of `outline` at `height`: nil when a diagonal does not cross it.
    static func measures(_ convention: SliceConvention, of outline: SliceContour, at height: Double) -> ConventionMeasures? {
        func chord(_ direction: SIMD2<Double>) -> Double? {
            guard let front = outline.farthestCrossing(from: .zero, along: direction),
                let back = outline.farthestCrossing(from: .zero, along: -direction)
            else { return nil }
            return front.distance + back.distance
        }
        guard let a = chord(diagonalADirection), let b = chord(diagonalBDirection) else { return nil }
        return ConventionMeasures(
            convention, sliceHeight: height, diagonalA: a, diagonalB: b, length: outline.polygon.extent(along: SIMD2(0, 1)),
            width: outline.polygon.extent(along: SIMD2(1, 0)), perimeter: outline.polygon.chordPerimeter(chord: tapeChord))
    }
}

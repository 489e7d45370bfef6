import Foundation
import Geometry

/// How the slice of greatest contour length is searched for.
public struct MeasurementOptions: Sendable, Equatable, Codable {
    /// Spacing of the slices scanned upward from the reference plane (metres, ≤ 1 mm).
    public var step: Double
    /// Widest hole in a slice that is bridged with a straight segment (metres).
    public var maximumGap: Double
    /// A bridged length above this (metres) makes the open contour a warning; smaller gaps are
    /// reconstruction noise that moves no value measurably.
    public var reportedGap: Double
    /// Slices start this far above the reference plane (metres). An infant's ears reach
    /// about 15–20 mm above the tragion, and on a scanned head they join the skull, so lower
    /// slices run round the ears and their outline is longer than the skull's: the search
    /// starts above them. The skull's widest outline lies higher (the occipitofrontal line).
    public var lowestHeight: Double

    /// The defaults: 1 mm steps, holes up to 30 mm bridged, gaps from 2 mm reported, slices
    /// from 20 mm above the reference plane.
    public init(step: Double = 0.001, maximumGap: Double = 0.030, reportedGap: Double = 0.002, lowestHeight: Double = 0.020) {
        self.step = step
        self.maximumGap = maximumGap
        self.reportedGap = reportedGap
        self.lowestHeight = lowestHeight
    }
}

/// A measured head with the geometry behind the numbers, for drawing and checking.
public struct MeasuredSlice: Sendable, Equatable {
    /// The clinical values.
    public var measurement: HeadMeasurement
    /// The head frame the slice was taken in.
    public var frame: HeadFrame
    /// Height of the slice above the reference plane (metres).
    public var height: Double
    /// The outline in the head frame's x–y (metres); the centre is the origin.
    public var contour: SliceContour
    /// Diagonal A's ends, front-left then back-right (head frame x–y, metres).
    public var diagonalA: (front: SIMD2<Double>, back: SIMD2<Double>)
    /// Diagonal B's ends, front-right then back-left.
    public var diagonalB: (front: SIMD2<Double>, back: SIMD2<Double>)

    public static func == (l: MeasuredSlice, r: MeasuredSlice) -> Bool {
        l.measurement == r.measurement && l.frame == r.frame && l.height == r.height && l.contour == r.contour
            && l.diagonalA == r.diagonalA && l.diagonalB == r.diagonalB
    }
}

/// Measures CVAI, CVA, cranial index and circumference of a head mesh.
public enum Cephalometer {
    /// Chord length for the circumference (metres): a scanned outline zig-zags by about a
    /// tenth of a millimetre at every millimetre, which adds about 2 % to its raw length;
    /// 4 mm chords drop that and fall short of a smooth 6 cm radius by under 0.02 %.
    static let tapeChord = 0.004

    /// Diagonal A's front end points 30° from straight ahead toward the infant's left (−x).
    static let diagonalADirection = SIMD2(cos(120 * Double.pi / 180), sin(120 * Double.pi / 180))
    /// Diagonal B's front end points 30° toward the infant's right.
    static let diagonalBDirection = SIMD2(cos(60 * Double.pi / 180), sin(60 * Double.pi / 180))

    /// Measures `mesh` (metres, any pose) with `landmarks` given in the same frame.
    ///
    /// Slices parallel to the reference plane are scanned upward in `options.step` steps, the
    /// best refined by golden-section search; in the slice of greatest outline length the
    /// diagonals run at ±30° from the mid-sagittal axis through the tragion midpoint.
    public static func measure(
        _ mesh: TriangleMesh, landmarks: HeadLandmarks, options: MeasurementOptions = .init()
    ) throws(CephalometryError) -> MeasuredSlice {
        try validate(mesh)
        guard options.step > 0, options.step <= 0.001 else {
            throw .unusableMesh("the slice step must be above 0 and at most 1 mm")
        }
        let frame = try HeadFrame(landmarks)
        try checkSize(mesh, in: frame)
        var warnings = landmarks.plausibilityWarnings(in: frame)
        let slicer = HeightSlicer(mesh: mesh, headFromMesh: frame.headFromMesh, binHeight: options.step)
        guard slicer.highest > 0 else {
            throw .noContour("the mesh lies entirely below the plane through the tragions and nasion; check the landmarks belong to this mesh")
        }
        func contour(at z: Double) -> SliceContour? {
            SliceContour.outer(of: slicer.chains(at: z), around: .zero, maximumGap: options.maximumGap)
        }
        // Each height the search looked at, and its outline's length (nil: no closed outline).
        var searched: [(height: Double, length: Double?)] = []
        func perimeter(at z: Double) -> Double {
            let length = contour(at: z)?.polygon.perimeter
            searched.append((z, length))
            return length ?? 0
        }

        guard
            let peak = peak(
                from: max(options.lowestHeight, slicer.lowest), floor: options.lowestHeight, to: slicer.highest, step: options.step,
                perimeter)
        else {
            throw .noContour(
                "no slice above the reference plane surrounds the midpoint of the tragions; check the landmarks belong to this mesh and both are in metres"
            )
        }
        let height = peak.height
        let outline = contour(at: height)
        guard let outline else {
            throw .noContour("the outline vanished while refining its height; the mesh may be badly broken near \(mm(height)) mm")
        }

        if outline.bridgedLength > options.reportedGap {
            warnings.append(
                MeasurementWarning(
                    .openContour,
                    "the outline at \(mm(height)) mm had holes, bridged over \(mm(outline.bridgedLength)) mm in \(outline.bridges.count) place(s); rescan that region if values look wrong"
                ))
        }
        // A band of heights without a closed outline, next to outlines nearly as long as the
        // longest found, may hide the slice that should have been measured (a band never
        // scanned all round moved CVAI by 2 points).
        if let band = Self.hidingBand(searched, longest: peak.value) {
            warnings.append(
                MeasurementWarning(
                    .sliceLeavesSurface,
                    "no closed outline from \(mm(band.lowerBound)) to \(mm(band.upperBound)) mm above the reference plane, next to outlines almost as long as the longest found (at \(mm(height)) mm), so the longest may lie in that hole; rescan round the head at that height"
                ))
        }
        // On a whole head the outline one step higher is only slightly shorter; where there is
        // none, the scan ends right above the measured slice.
        if contour(at: height + options.step) == nil {
            warnings.append(
                MeasurementWarning(
                    .sliceLeavesSurface,
                    "the longest outline is at the top of the scanned surface; the head may be cut off above, rescan the crown"))
        }
        if height < options.lowestHeight + options.step {
            warnings.append(
                MeasurementWarning(
                    .implausibleLandmarks,
                    "the head is widest at the lowest slice measured, \(mm(options.lowestHeight)) mm above the reference plane; check that the tragions and nasion are on the ears and between the eyes"
                ))
        }

        func diagonal(_ direction: SIMD2<Double>, name: String) throws(CephalometryError) -> (front: SIMD2<Double>, back: SIMD2<Double>) {
            guard let front = outline.farthestCrossing(from: .zero, along: direction),
                let back = outline.farthestCrossing(from: .zero, along: -direction)
            else { throw .noContour("diagonal \(name) does not cross the outline; the outline is not around the ear-line centre") }
            for (end, which) in [(front, "front"), (back, "back")] where outline.isBridge(end.segment) {
                warnings.append(
                    MeasurementWarning(
                        .sliceLeavesSurface,
                        "diagonal \(name)'s \(which) end lies on a hole of the scan, so its length is interpolated; rescan that region"))
            }
            return (direction * front.distance, -direction * back.distance)
        }
        let diagonalA = try diagonal(diagonalADirection, name: "A")
        let diagonalB = try diagonal(diagonalBDirection, name: "B")
        let a = distance(diagonalA.front, diagonalA.back), b = distance(diagonalB.front, diagonalB.back)
        let length = outline.polygon.extent(along: SIMD2(0, 1)), width = outline.polygon.extent(along: SIMD2(1, 0))
        let circumference = outline.polygon.chordPerimeter(chord: Self.tapeChord)
        var measured = HeadMeasurement(
            diagonalA: a, diagonalB: b, length: length, width: width, perimeter: circumference, sliceHeight: height, warnings: warnings)
        let longest = ConventionMeasures(
            .longestOutline, sliceHeight: height, diagonalA: a, diagonalB: b, length: length, width: width, perimeter: circumference)
        measured.conventions = conventions(slicer: slicer, longest: longest, options: options)
        measured.shape = shapeMeasures(
            slicer: slicer, outline: outline, frame: frame, landmarks: landmarks, options: options, warnings: &measured.warnings)
        return MeasuredSlice(
            measurement: measured, frame: frame, height: height, contour: outline,
            diagonalA: diagonalA, diagonalB: diagonalB)
    }

    /// An outline this near the longest one's length (as a share) next to a band without
    /// closed outlines may have a longer one inside it: the outline's length changes slowly
    /// with height near its greatest (on an ellipsoid 2.5 % over 20 mm), and a cut-off crown,
    /// far above it, is much shorter.
    static let hidingShare = 0.95

    /// The first band of searched heights without a closed outline (at least two steps of
    /// the search) whose nearest closed outline below or above is at least `hidingShare` of
    /// `longest`; nil when there is none.
    static func hidingBand(_ searched: [(height: Double, length: Double?)], longest: Double) -> ClosedRange<Double>? {
        let sorted = searched.sorted { $0.height < $1.height }
        var index = 0
        while index < sorted.count {
            guard sorted[index].length == nil else {
                index += 1
                continue
            }
            let start = index
            while index < sorted.count, sorted[index].length == nil { index += 1 }
            let edges = [start > 0 ? sorted[start - 1].length : nil, index < sorted.count ? sorted[index].length : nil].compactMap { $0 }
            if index - start >= 2, edges.contains(where: { $0 >= hidingShare * longest }) {
                return sorted[start].height...sorted[index - 1].height
            }
        }
        return nil
    }

    /// The height between `start` and `end` where `f` is largest: scanned in `step`s, then
    /// refined by golden-section search within a step of the best (never below `floor`), as
    /// the outline's length and extents are smooth and single-peaked near their maximum; the
    /// scanned best when refining found less. Nil when `f` is nowhere above 0.
    static func peak(
        from start: Double, floor: Double, to end: Double, step: Double, _ f: (Double) -> Double
    ) -> (
        height: Double, value: Double
    )? {
        var best: (z: Double, value: Double)?
        var z = start
        while z < end {
            let value = f(z)
            if value > best?.value ?? 0 { best = (z, value) }
            z += step
        }
        guard let coarse = best else { return nil }
        var low = max(floor, coarse.z - step), high = min(end, coarse.z + step)
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = high - ratio * (high - low), b = low + ratio * (high - low)
        var fa = f(a), fb = f(b)
        for _ in 0..<30 {
            if fa > fb {
                high = b; b = a; fb = fa
                a = high - ratio * (high - low); fa = f(a)
            } else {
                low = a; a = b; fa = fb
                b = low + ratio * (high - low); fb = f(b)
            }
        }
        let height = (low + high) / 2
        let refined = f(height)
        return refined < coarse.value ? (coarse.z, coarse.value) : (height, refined)
    }

    /// The 3D measures beyond the slice's diagonals and extents.
    static func shapeMeasures(
        slicer: HeightSlicer, outline: SliceContour, frame: HeadFrame, landmarks: HeadLandmarks, options: MeasurementOptions,
        warnings: inout [MeasurementWarning]
    ) -> ShapeMeasures {
        let integrated = VolumeIntegrator(step: options.step, maximumGap: options.maximumGap).volumes(slicer)
        if integrated.interpolatedHeight > options.reportedGap {
            warnings.append(
                MeasurementWarning(
                    .openContour,
                    "no closed outline over \(mm(integrated.interpolatedHeight)) mm of height, so the volumes there are interpolated; rescan holes above the ears"
                ))
        }
        let longest = SliceShape.longestDiagonal(outline)
        return ShapeMeasures(
            quadrantVolumes: integrated.volumes, radialSymmetryIndexMM: SliceShape.radialSymmetryIndex(outline),
            cranialHeightMM: slicer.highest * 1000, earOffsetMM: earOffset(landmarks, frame: frame) * 1000,
            longestDiagonalMM: longest.length, longestDiagonalAngleDegrees: longest.angleDegrees,
            foreheadAngleDegrees: SliceShape.foreheadAngle(outline))
    }

    /// How far the right tragion lies in front of the left (metres) along the facial midline:
    /// the direction from the tragion midpoint to the nasion in the reference plane. The ears
    /// themselves must not define the axis their offset is measured along.
    static func earOffset(_ landmarks: HeadLandmarks, frame: HeadFrame) -> Double {
        let n = frame.headFromMesh.apply(landmarks.nasion)
        let forward = SIMD3(n.x, n.y, 0)
        guard length(forward) > 0 else { return 0 }
        let ears = frame.headFromMesh.apply(landmarks.rightTragion) - frame.headFromMesh.apply(landmarks.leftTragion)
        return dot(ears, forward) / length(forward)
    }

    /// Rejects meshes no slice can be taken of.
    /// Highest a mesh may reach above the reference plane, metres: a head's crown lies 0.1 to
    /// 0.2 m above it. The slices are searched a millimetre apart up to the top, so a mesh in
    /// millimetres (a thousand times too large) would be sliced for minutes and measured as
    /// nonsense; it is refused with the reason instead.
    public static let tallestHead = 0.5

    /// Refuses a mesh that reaches further above the reference plane than any head.
    static func checkSize(_ mesh: TriangleMesh, in frame: HeadFrame) throws(CephalometryError) {
        let top = mesh.vertices.reduce(-Double.infinity) { max($0, frame.headFromMesh.apply($1).z) }
        guard top <= tallestHead else {
            throw .unusableMesh(
                "it reaches \(String(format: "%.3g", top)) units above the plane through the tragions and nasion, where a head's crown lies 0.1–0.2 m up; give the mesh and its landmarks in metres (a mesh in millimetres is a thousand times too large)"
            )
        }
    }

    static func validate(_ mesh: TriangleMesh) throws(CephalometryError) {
        guard !mesh.faces.isEmpty else { throw .unusableMesh("it has no triangles; export the reconstruction as a surface, not a point cloud") }
        guard mesh.isValid else { throw .unusableMesh("some triangles refer to vertices that do not exist; the file is damaged") }
        guard mesh.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
            throw .unusableMesh("some vertices have non-finite coordinates; the file is damaged")
        }
    }
}

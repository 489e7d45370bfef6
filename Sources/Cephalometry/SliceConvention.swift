/// Where the slice that CVAI, CI, the diagonals and the circumference are read from is taken,
/// and how CVAI is divided: the conventions of the tools a clinic compares HeadScan with. The
/// same head gives CVAIs more than a severity level apart between them; every measurement
/// carries all of them and the report says which one it leads with. Each is defined, with its
/// published source, in `docs/measures.md`.
public enum SliceConvention: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// HeadScan's own: the slice parallel to the reference plane with the longest outline,
    /// searched from above the ears (where a tape measure's circumference is taken).
    case longestOutline
    /// The slice parallel to the reference plane where the head is longest front to back, as
    /// 3D photogrammetry studies take it ("the head level with the major anterior–posterior
    /// expansion").
    case greatestLength
    /// What a calliper reads on the same head: the longest-outline slice with the published
    /// difference between calliper and 3D readings taken off each distance.
    case calliper

    public var description: String {
        switch self {
        case .longestOutline: "longest outline"
        case .greatestLength: "level of greatest length"
        case .calliper: "calliper equivalent"
        }
    }
}

/// The slice measures under one convention, in clinicians' units.
public struct ConventionMeasures: Sendable, Codable, Equatable {
    public var convention: SliceConvention
    /// Height of the slice above the reference plane, millimetres.
    public var sliceHeightMM: Double
    /// CVAI divided by the longer diagonal (the usual formula), percent.
    public var cvai: Double
    /// CVAI divided by the shorter diagonal, as some sources define it, percent.
    public var cvaiShorterDiagonal: Double
    public var cvaMM: Double
    public var ci: Double
    public var diagonalAMM: Double
    public var diagonalBMM: Double
    public var lengthMM: Double
    public var widthMM: Double
    public var circumferenceMM: Double
    /// The CHOA level of `cvai`.
    public var severityLevel: SeverityLevel

    /// The measures from the diagonals, extents and perimeter, all in metres.
    public init(
        _ convention: SliceConvention, sliceHeight: Double, diagonalA: Double, diagonalB: Double, length: Double, width: Double,
        perimeter: Double
    ) {
        self.convention = convention
        sliceHeightMM = sliceHeight * 1000
        diagonalAMM = diagonalA * 1000
        diagonalBMM = diagonalB * 1000
        cvaMM = abs(diagonalA - diagonalB) * 1000
        let longer = max(diagonalA, diagonalB), shorter = min(diagonalA, diagonalB)
        cvai = longer > 0 ? (longer - shorter) / longer * 100 : 0
        cvaiShorterDiagonal = shorter > 0 ? (longer - shorter) / shorter * 100 : 0
        ci = length > 0 ? width / length * 100 : 0
        lengthMM = length * 1000
        widthMM = width * 1000
        circumferenceMM = perimeter * 1000
        severityLevel = SeverityLevel(cvai: cvai)
    }
}

extension HeadMeasurement {
    /// The measurement with its slice values (CVAI, CVA, CI, diagonals, extents,
    /// circumference, severity, flatter side, slice height) as `convention` gives them; the
    /// measurement itself when it does not carry that convention (records measured before
    /// HeadScan reported them), so the caller says which one it shows by `shownConvention`.
    public func by(_ convention: SliceConvention) -> HeadMeasurement {
        guard let values = conventions?.first(where: { $0.convention == convention }) else { return self }
        var shown = self
        shown.cvai = values.cvai
        shown.cvaMM = values.cvaMM
        shown.ci = values.ci
        shown.diagonalAMM = values.diagonalAMM
        shown.diagonalBMM = values.diagonalBMM
        shown.lengthMM = values.lengthMM
        shown.widthMM = values.widthMM
        shown.circumferenceMM = values.circumferenceMM
        shown.severityLevel = values.severityLevel
        shown.flattenedSide = FlattenedSide(diagonalA: values.diagonalAMM, diagonalB: values.diagonalBMM)
        shown.sliceHeightMM = values.sliceHeightMM
        return shown
    }

    /// The convention `by(convention)` shows: the one asked for when the measurement carries
    /// it, else HeadScan's own.
    public func shownConvention(_ convention: SliceConvention) -> SliceConvention {
        conventions?.contains { $0.convention == convention } == true ? convention : .longestOutline
    }
}

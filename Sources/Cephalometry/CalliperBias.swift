/// How much shorter a calliper reads a head's distances than a 3D surface of the same head:
/// the calliper's arms press into the scalp and hair, while the 3D surface lies on top of them
/// (and, for HeadScan, on the cap). Subtracted from the longest-outline slice's distances, it
/// gives what a calliper would read, so that a clinic comparing with its calliper records
/// compares like with like.
public struct CalliperBias: Sendable, Equatable {
    /// Millimetres a calliper reads shorter than 3D: length, width and each diagonal.
    public var lengthMM: Double
    public var widthMM: Double
    public var diagonalMM: Double
    /// Millimetres a tape reads shorter than the 3D outline.
    public var circumferenceMM: Double

    public init(lengthMM: Double, widthMM: Double, diagonalMM: Double, circumferenceMM: Double) {
        self.lengthMM = lengthMM
        self.widthMM = widthMM
        self.diagonalMM = diagonalMM
        self.circumferenceMM = circumferenceMM
    }

    /// The published difference: calliper length, width and circumference read 1 to 4 mm
    /// shorter than their 3D analogues (Skolnick et al. 2015, J Craniofac Surg, 59 visits); the
    /// middle of that range, 2.5 mm, is taken for every distance, the diagonals too (a
    /// Regensburg study found calliper diagonals at least 5 mm shorter: see `docs/measures.md`).
    public static let published = CalliperBias(lengthMM: 2.5, widthMM: 2.5, diagonalMM: 2.5, circumferenceMM: 2.5)

    /// The calliper-equivalent values of the longest-outline slice's `values`.
    public func applied(to values: ConventionMeasures) -> ConventionMeasures {
        ConventionMeasures(
            .calliper, sliceHeight: values.sliceHeightMM / 1000, diagonalA: (values.diagonalAMM - diagonalMM) / 1000,
            diagonalB: (values.diagonalBMM - diagonalMM) / 1000, length: (values.lengthMM - lengthMM) / 1000,
            width: (values.widthMM - widthMM) / 1000, perimeter: (values.circumferenceMM - circumferenceMM) / 1000)
    }
}

import Cephalometry
import Geometry
import Recording
import Simulation

/// What a therapist's calliper and tape would read on the simulated head: the true values
/// with the hand measurement's typical error, so the report can show calliper beside 3D.
public enum SimulatedCalliper {
    /// Standard deviations of hand measurement, millimetres: callipers on soft tissue and
    /// hair repeat within about 1–2 mm, diagonals worse than length and width because their
    /// end points are found by eye; the tape within about 3 mm.
    public static let extentSD = 1.0, diagonalSD = 1.5, circumferenceSD = 3.0

    /// One reading of `truth`, repeatable for `seed`.
    public static func measure(_ truth: TrueHeadMeasures, seed: UInt64) -> CalliperMeasurements {
        var random = Xoshiro256(seed: seed, stream: 0xCA11_1BE5)
        func read(_ value: Double, _ sd: Double) -> Double {
            // Callipers are read to the millimetre, tapes too.
            (value + Double(random.gaussian()) * sd).rounded()
        }
        return CalliperMeasurements(
            lengthMM: read(truth.lengthMM, extentSD), widthMM: read(truth.widthMM, extentSD),
            diagonalAMM: read(truth.diagonalAMM, diagonalSD), diagonalBMM: read(truth.diagonalBMM, diagonalSD),
            circumferenceMM: read(truth.circumferenceMM, circumferenceSD))
    }
}

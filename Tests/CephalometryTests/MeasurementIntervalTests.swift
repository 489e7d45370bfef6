import Foundation
import Geometry
import Testing

@testable import Cephalometry

/// The intervals by sampling, against what their inputs imply in closed form.
@Suite("Measurement intervals")
struct MeasurementIntervalTests {
    /// A sheared ellipsoid: CVAI about 6, diagonals about 130 mm.
    private let head = Superellipsoid(shear: 0.14)

    private func sigma(_ s: Double) -> [Landmark: Double] { Dictionary(uniqueKeysWithValues: Landmark.allCases.map { ($0, s) }) }

    @Test func withNothingUncertainTheIntervalIsTheValue() throws {
        let mesh = head.mesh()
        let slice = try Cephalometer.measure(mesh, landmarks: head.landmarks)
        let none = MeasurementUncertainty(landmarkSigma: sigma(0), surfaceSigma: 0, scaleSigma: 0)
        let intervals = try #require(Cephalometer.intervals(slice, mesh: mesh, landmarks: head.landmarks, uncertainty: none, samples: 8))
        let m = slice.measurement
        #expect(intervals.cvai.high - intervals.cvai.low < 0.01)
        #expect(intervals.cvai.contains(m.cvai))
        #expect(abs(intervals.circumferenceMM.low - m.circumferenceMM) < 0.05)
    }

    @Test func theSurfaceAloneWidensCVAAsFourIndependentEndsDo() throws {
        let mesh = head.mesh()
        let slice = try Cephalometer.measure(mesh, landmarks: head.landmarks)
        let surface = 0.0002
        let only = MeasurementUncertainty(landmarkSigma: sigma(0), surfaceSigma: surface, scaleSigma: 0)
        let intervals = try #require(Cephalometer.intervals(slice, mesh: mesh, landmarks: head.landmarks, uncertainty: only, samples: 400))
        // A − B has four ends: its standard deviation is twice one end's.
        let expected = 2 * 1.96 * (2 * surface * 1000)
        let width = intervals.cvaMM.high - intervals.cvaMM.low
        #expect(abs(width - expected) < 0.15 * expected, "width \(width) vs \(expected)")
        // The circumference moves by 2π times the surface's shift.
        let circumference = intervals.circumferenceMM.high - intervals.circumferenceMM.low
        let expectedCircumference = 2 * 1.96 * 2 * Double.pi * surface * 1000
        #expect(abs(circumference - expectedCircumference) < 0.15 * expectedCircumference, "\(circumference) vs \(expectedCircumference)")
    }

    @Test func unsureLandmarksWidenTheIntervalAndTheSameInputsGiveTheSameOne() throws {
        let mesh = head.mesh()
        let slice = try Cephalometer.measure(mesh, landmarks: head.landmarks)
        func width(_ s: Double) throws -> Double {
            let u = MeasurementUncertainty(landmarkSigma: sigma(s), surfaceSigma: 0, scaleSigma: 0)
            let i = try #require(Cephalometer.intervals(slice, mesh: mesh, landmarks: head.landmarks, uncertainty: u, samples: 24))
            return i.cvai.high - i.cvai.low
        }
        let narrow = try width(0.0003), wide = try width(0.0015)
        #expect(wide > 2 * narrow, "\(wide) vs \(narrow)")
        #expect(try width(0.0003) == narrow)
    }

    @Test func quantilesInterpolate() {
        #expect(Cephalometer.quantile([1, 2, 3, 4, 5], 0.5) == 3)
        #expect(Cephalometer.quantile([0, 10], 0.25) == 2.5)
        #expect(Cephalometer.quantile([7], 0.975) == 7)
        #expect(Cephalometer.quantile([], 0.5).isNaN)
    }
}

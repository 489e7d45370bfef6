import Cephalometry
import Foundation
import Geometry
import Recording
import ScanLibrary
import Testing

@testable import Processing

struct SessionProcessorTests {
    @Test func picksOnKnownFramesLiftToTheSurfacePointsAndMeasureAsThem() throws {
        let fixture = try LiftingFixture()
        defer { fixture.remove() }
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        let result = try SessionProcessor(library: fixture.library).process(fixture.session)
        #expect(!result.reconstructed, "head.ply and reconstruction.json were current")
        #expect(result.landmarksSource == .picks)
        for landmark in Landmark.allCases {
            let estimate = try #require(result.estimates[landmark])
            // Float depth at 0.3 m: a few tenths of a micrometre.
            #expect(length(estimate.point - fixture.truth[landmark]!) < 2e-6, "\(landmark)")
            #expect(estimate.picks == 2 && estimate.used == [0, 1])
            #expect(estimate.spreadMM < 0.002)
            #expect(estimate.residualsMM.allSatisfy { $0! < 0.01 }, "picks lie on the mesh: \(estimate.residualsMM)")
        }
        let t = fixture.truth
        let expected = try Cephalometer.measure(
            fixture.mesh,
            landmarks: HeadLandmarks(nasion: t[.nasion]!, noseTip: t[.noseTip]!, leftTragion: t[.leftTragion]!, rightTragion: t[.rightTragion]!))
        #expect(abs(result.measurement.cvai - expected.measurement.cvai) < 1e-3)
        #expect(abs(result.measurement.circumferenceMM - expected.measurement.circumferenceMM) < 1e-2)
        let stored = try #require(try fixture.library.measurement(in: fixture.session))
        #expect(stored.landmarksSource == .picks && stored.landmarkEstimates?.count == 4)
        #expect(FileManager.default.fileExists(atPath: result.pdf.path))
    }

    @Test func aHoleInTheDepthIsBridgedByTheMeshAlongThePixelsRay() throws {
        // Frames 0 and 2 (nasion and nose tip, straight on) have no depth at all.
        let fixture = try LiftingFixture(holes: [0, 2])
        defer { fixture.remove() }
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        let result = try SessionProcessor(library: fixture.library).process(fixture.session)
        for landmark in [Landmark.nasion, .noseTip] {
            // The mesh is stored in 32-bit floats, so the hit is exact to about a micrometre.
            #expect(length(result.estimates[landmark]!.point - fixture.truth[landmark]!) < 1e-5)
        }
    }

    @Test func aPickFarFromTheOthersIsSetAsideAndTwoDisagreeingPicksShowTheirSpread() {
        let p = SIMD3<Double>(0.01, 0.02, 0.03)
        let three = LandmarkEstimate(points: [p, p + SIMD3(0.0004, 0, 0), p + SIMD3(0, 0.02, 0)], residuals: [nil, nil, nil])
        #expect(three.used == [0, 1])
        #expect(length(three.point - (p + SIMD3(0.0002, 0, 0))) < 1e-12)
        #expect(abs(three.spreadMM - 0.2) < 1e-9)
        let two = LandmarkEstimate(points: [p, p + SIMD3(0.008, 0, 0)], residuals: [0.001, nil])
        #expect(two.used == [0, 1])
        #expect(abs(two.spreadMM - 4) < 1e-9)
        #expect(two.isDoubtful)
        #expect(two.residualsMM == [1, nil])
        // A pick lifted onto the background, far off the head, is set aside even among two.
        let missed = LandmarkEstimate(points: [p, p + SIMD3(0, 0, 0.08)], residuals: [0.0005, 0.07])
        #expect(missed.used == [0])
        #expect(missed.point == p && missed.spreadMM == 0)
        // One lifted 17 mm off the surface (its frame placed astray) beside one on it: the one
        // on it is kept. Two both off the surface are both kept, as before.
        let astray = LandmarkEstimate(points: [p + SIMD3(0.09, 0, 0), p], residuals: [0.017, 0.0001])
        #expect(astray.used == [1] && astray.point == p)
        let bothOff = LandmarkEstimate(points: [p, p + SIMD3(0.008, 0, 0)], residuals: [0.006, 0.012])
        #expect(bothOff.used == [0, 1])
        // Exactly at the limit still counts as on the surface.
        let atLimit = LandmarkEstimate(points: [p, p + SIMD3(0.002, 0, 0)], residuals: [LandmarkEstimate.nearSurfaceLimit, 0])
        #expect(atLimit.used == [0, 1])
    }

    @Test func landmarksNeitherPickedNorFoundAreNamedWithTheReason() throws {
        // No cap markers in the reconstruction: the head's orientation is unknown.
        let fixture = try LiftingFixture()
        defer { fixture.remove() }
        var annotations = fixture.exactPicks()
        annotations.landmarks[.leftTragion] = nil
        annotations.landmarks[.noseTip] = nil
        try fixture.library.saveAnnotations(annotations, in: fixture.session)
        let error = #expect(throws: ProcessingError.self) { try SessionProcessor(library: fixture.library).process(fixture.session) }
        guard case .landmarksNotFound(let missing, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(missing == [.noseTip, .leftTragion])
        #expect(reason.contains("markers"))
        #expect(error?.description.contains("place them in the replay") == true)
    }

    @Test func withoutPicksTheLandmarksAreFoundOnTheHeadAndSaidToBe() throws {
        let fixture = try LiftingFixture(withCap: true)
        defer { fixture.remove() }
        let result = try SessionProcessor(library: fixture.library).process(fixture.session)
        #expect(result.landmarksSource == .automatic)
        // The cap lies on the skull: its edge stands off by nothing, and nothing is said of it.
        #expect(try #require(result.capStandOff).largest < 0.0004)
        #expect(!result.measurement.warnings.contains { $0.kind == .capLifted })
        let a = fixture.anatomical
        #expect(length(result.landmarks.nasion - a.nasion) < 0.0015)
        #expect(length(result.landmarks.noseTip - a.noseTip) < 0.001)
        #expect(length(result.landmarks.leftTragion - a.leftTragion) < 0.001)
        #expect(length(result.landmarks.rightTragion - a.rightTragion) < 0.001)
        let stored = try #require(try fixture.library.measurement(in: fixture.session))
        #expect(stored.landmarksSource == .automatic && stored.automaticLandmarks != nil)
        // The fixture's frames look straight at each landmark from 0.3 m: those are its best views.
        #expect(stored.automaticLandmarks?.leftTragion.bestFrames.first == 4)
        let notes = ClinicalReportWriter.landmarkNotes(stored)
        #expect(notes.first?.contains("found automatically") == true)

        // A pick 5 mm off the found nasion is used, and warned of.
        var annotations = AnnotationsRecord()
        annotations.pick(.nasion, frameIndex: 0, pixel: fixture.frames[0].pixels[.nasion]!)
        try fixture.library.saveAnnotations(annotations, in: fixture.session)
        let mixed = try SessionProcessor(library: fixture.library).process(fixture.session)
        #expect(mixed.landmarksSource == .picksAndAutomatic)
        let disagreeing = mixed.measurement.warnings.filter { $0.kind == .landmarksDisagree }
        // The fixture's nasion pick is the ray's surface point from 2 cm above the ear line, a
        // few millimetres from the anatomical nasion.
        let apart = length(fixture.truth[.nasion]! - a.nasion)
        #expect(disagreeing.count == (apart > 0.003 ? 1 : 0), "picked nasion \(apart * 1000) mm from the anatomical one")
    }

    @Test func aPickThatCannotBeLiftedIsSetAsideOrNamedWhenItIsTheOnlyOne() throws {
        let fixture = try LiftingFixture()
        defer { fixture.remove() }
        var annotations = fixture.exactPicks()
        annotations.pick(.nasion, frameIndex: 99, pixel: SIMD2(80, 60))
        try fixture.library.saveAnnotations(annotations, in: fixture.session)
        let result = try SessionProcessor(library: fixture.library).process(fixture.session)
        let nasion = try #require(result.estimates[.nasion])
        #expect(nasion.picks == 3 && nasion.used == [0, 1])
        #expect(nasion.unusable.count == 1 && nasion.unusable[0].contains("frame 99"))

        annotations.landmarks[.nasion] = [.pixel(frameIndex: 99, pixel: SIMD2(80, 60))]
        try fixture.library.saveAnnotations(annotations, in: fixture.session)
        let error = #expect(throws: ProcessingError.self) { try SessionProcessor(library: fixture.library).process(fixture.session) }
        #expect(error?.description.contains("frame 99") == true)
    }

    @Test func cancellingLeavesTheSessionUnmeasured() throws {
        let fixture = try LiftingFixture()
        defer { fixture.remove() }
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        #expect(throws: ProcessingError.cancelled) {
            try SessionProcessor(library: fixture.library).process(fixture.session, isCancelled: { true })
        }
        #expect(try fixture.library.measurement(in: fixture.session) == nil)
    }
}

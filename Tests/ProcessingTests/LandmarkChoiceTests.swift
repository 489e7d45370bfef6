import Cephalometry
import Foundation
import Geometry
import Reconstruction
import Recording
import ScanLibrary
import Testing

@testable import Processing

/// Which landmarks a measurement uses when picks and landmarks found on the head meet.
struct LandmarkChoiceTests {
    static let found = AutomaticLandmarks(
        nasion: detected(SIMD3(0, 0.07, 0), confidence: 0.9), noseTip: detected(SIMD3(0, 0.078, -0.015), confidence: 0.3),
        leftTragion: detected(SIMD3(-0.055, 0, 0), confidence: 1), rightTragion: detected(SIMD3(0.055, 0, 0), confidence: 1))

    static func detected(_ p: SIMD3<Double>, confidence: Double) -> DetectedLandmark {
        DetectedLandmark(point: p, normal: SIMD3(0, 1, 0), confidence: confidence, evidence: "test")
    }

    static func pick(_ p: SIMD3<Double>) -> LandmarkEstimate { LandmarkEstimate(points: [p], residuals: [nil]) }

    @Test func withoutPicksEveryLandmarkIsTheFoundOneAndAFaintOneIsWarnedOf() throws {
        let choice = try LandmarkChoice(picked: [:], automatic: .success(Self.found), liftedFromFrames: false)
        #expect(choice.source == .automatic)
        #expect(choice.landmarks == Self.found.landmarks)
        #expect(choice.warnings.map(\.kind) == [.uncertainLandmark])
        #expect(choice.warnings[0].message.contains("noseTip") && choice.warnings[0].message.contains("0.30"))
    }

    @Test func picksWinAndAPickMoreThanThreeMillimetresOffIsWarnedOf() throws {
        let picked: [Landmark: LandmarkEstimate] = [
            .nasion: Self.pick(SIMD3(0.0029, 0.07, 0)), .noseTip: Self.pick(SIMD3(0, 0.078, -0.015)),
            .leftTragion: Self.pick(SIMD3(-0.055, 0, 0.0035)), .rightTragion: Self.pick(SIMD3(0.055, 0, 0)),
        ]
        let choice = try LandmarkChoice(picked: picked, automatic: .success(Self.found), liftedFromFrames: true)
        #expect(choice.source == .picks)
        #expect(choice.landmarks.leftTragion == SIMD3(-0.055, 0, 0.0035))
        // 2.9 mm is within reach; 3.5 mm is not.
        #expect(choice.warnings.map(\.kind) == [.landmarksDisagree])
        #expect(choice.warnings[0].message.contains("leftTragion") && choice.warnings[0].message.contains("3.5 mm"))
    }

    @Test func somePicksAreCompletedByTheFoundLandmarks() throws {
        let choice = try LandmarkChoice(
            picked: [.leftTragion: Self.pick(SIMD3(-0.054, 0, 0))], automatic: .success(Self.found), liftedFromFrames: true)
        #expect(choice.source == .picksAndAutomatic)
        #expect(choice.landmarks.leftTragion == SIMD3(-0.054, 0, 0))
        #expect(choice.landmarks.rightTragion == Self.found.rightTragion.point)
    }

    @Test func withoutPicksOrFoundLandmarksTheErrorSaysWhy() {
        let failed: Result<AutomaticLandmarks, CephalometryError> = .failure(.unusableMesh("no nose stands out of the face"))
        #expect(
            throws: ProcessingError.landmarksNotFound(
                [.noseTip, .nasion, .leftTragion, .rightTragion], reason: "cannot measure this mesh: no nose stands out of the face")
        ) {
            try LandmarkChoice(picked: [:], automatic: failed, liftedFromFrames: false)
        }
    }

    @Test func aRefusalCarriesTheCapsAdvice() {
        let failed: Result<AutomaticLandmarks, CephalometryError> = .failure(.unusableMesh("the left ear shows no notch"))
        #expect(
            throws: ProcessingError.landmarksNotFound(
                [.noseTip, .nasion, .leftTragion, .rightTragion],
                reason: "cannot measure this mesh: the left ear shows no notch; the cap sat too high")
        ) {
            try LandmarkChoice(picked: [:], automatic: failed, liftedFromFrames: false, refusalAdvice: "the cap sat too high")
        }
    }

    @Test func aPickNearAFoundLandmarkSnapsOntoItInFramesWhosePoseIsKnown() throws {
        let k = CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        var found = Self.found
        found.leftTragion.bestFrames = [7]
        let pose = RigidTransform.camera(at: SIMD3(-0.3, 0, 0), lookingAt: SIMD3(-0.055, 0, 0), up: SIMD3(0, 0, 1))
        let suggestions = LandmarkSuggestions(
            found: found, views: [ReconstructedView(frameIndex: 7, worldFromCamera: pose, camera: SettledCamera(recorded: k))])
        let centre = try #require(suggestions.pixel(of: .leftTragion, inFrame: 7))
        #expect(Geometry.distance(centre, SIMD2(320, 240)) < 1e-6)
        #expect(suggestions.pixel(of: .leftTragion, inFrame: 8) == nil, "no pose for frame 8")
        #expect(suggestions.snapped(SIMD2(329, 246), for: .leftTragion, inFrame: 7) == centre)
        #expect(suggestions.snapped(SIMD2(340, 240), for: .leftTragion, inFrame: 7) == SIMD2(340, 240))
        #expect(suggestions.bestFrames[.leftTragion] == [7])
        // A camera looking away from the head shows none of it.
        let awayPose = RigidTransform.camera(at: SIMD3(-0.3, 0, 0), lookingAt: SIMD3(-0.6, 0, 0), up: SIMD3(0, 0, 1))
        let away = LandmarkSuggestions(
            found: found, views: [ReconstructedView(frameIndex: 7, worldFromCamera: awayPose, camera: SettledCamera(recorded: k))])
        #expect(away.pixel(of: .leftTragion, inFrame: 7) == nil)
    }
}

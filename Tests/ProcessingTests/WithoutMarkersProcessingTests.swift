import Cephalometry
import Foundation
import Geometry
import ScanLibrary
import Testing

@testable import Processing

/// A scan of a printed cap without stickers, processed from its stored reconstruction: the
/// head frame the print gave, the landmarks searched from it, and what the clinic is told.
/// (A whole scan reconstructed without markers takes minutes in a debug build; the release
/// benchmark runs that path end to end.)
struct WithoutMarkersProcessingTests {
    static func processedWithoutMarkers(_ fixture: LiftingFixture) throws -> ProcessingResult {
        var options = ProcessingOptions()
        options.withoutMarkers = true
        return try SessionProcessor(library: fixture.library, options: options).process(fixture.session)
    }

    @Test func aPrintedCapsHeadFrameFindsTheLandmarksAndTheScanSaysItHadNoStickers() throws {
        let fixture = try LiftingFixture(placedWithoutMarkers: .printed)
        defer { fixture.remove() }
        let result = try Self.processedWithoutMarkers(fixture)
        #expect(!result.reconstructed)
        #expect(result.landmarksSource == .automatic)
        let a = fixture.anatomical
        #expect(length(result.landmarks.nasion - a.nasion) < 0.0015)
        #expect(length(result.landmarks.leftTragion - a.leftTragion) < 0.001)
        #expect(length(result.landmarks.rightTragion - a.rightTragion) < 0.001)
        let kinds = result.measurement.warnings.map(\.kind)
        #expect(kinds.filter { $0 == .scannedWithoutStickers }.count == 1)
        // Nothing is said of stickers the cap never had, nor of its edge, which only stickers show.
        #expect(Set(kinds).isDisjoint(with: [.stickersMissing, .capSitsHigh, .framesUnplaced, .capMayBeLifted, .capLifted]))
        #expect(result.capStandOff == nil)
        #expect(result.withoutMarkers?.printAgreement == 0.97)
        let stored = try #require(try fixture.library.measurement(in: fixture.session))
        #expect(stored.measurement.warnings.contains { $0.kind == .scannedWithoutStickers && $0.message.contains("8 of the 8 frames examined") })
        #expect(stored.measurement.warnings.contains { $0.message.contains("focal length is the phone's factory value, not checked") })
    }

    /// Without stickers only a camera checked with a board corrects the focal length: a record
    /// read with one is reused only with the same camera, and the scan says it was checked.
    @Test func aCameraCheckedWithABoardIsKeptWithTheRecordAndSaid() throws {
        let fixture = try LiftingFixture(placedWithoutMarkers: .printed)
        defer { fixture.remove() }
        let checked = CameraIntrinsics(fx: 570.4, fy: 570.4, cx: 320.6, cy: 238.9, width: 640, height: 480)
        var record = try #require(try fixture.library.document(ReconstructionRecord.self, in: fixture.session))
        record.withoutMarkers?.checkedCamera = checked
        try fixture.library.save(record, in: fixture.session)
        var options = ProcessingOptions()
        options.withoutMarkers = true
        options.reconstruction.camera = checked
        let result = try SessionProcessor(library: fixture.library, options: options).process(fixture.session)
        #expect(!result.reconstructed)
        #expect(result.withoutMarkers?.checkedCamera == checked)
        let said = result.measurement.warnings.filter { $0.kind == .scannedWithoutStickers }.map(\.message)
        #expect(
            said.count == 1 && said.allSatisfy { $0.contains("checked with a printed board (focal length 570.4 px)") && !$0.contains("not checked") })
        // Picks are lifted through the frames as the reconstruction read them: with the
        // principal point elsewhere the same pixels lie elsewhere on the head. (The fixture's
        // frames look straight at their landmarks, where the focal length moves nothing.)
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        let asRecorded = LiftingFixture.k
        var aside = asRecorded
        aside.cx += 8
        var moved: [Double] = []
        for k in [asRecorded, aside] {
            record.withoutMarkers?.checkedCamera = k
            try fixture.library.save(record, in: fixture.session)
            options.reconstruction.camera = k
            let picked = try SessionProcessor(library: fixture.library, options: options).process(fixture.session)
            #expect(picked.landmarksSource == .picks && !picked.reconstructed)
            moved.append(Landmark.allCases.map { length(picked.landmarks[$0] - fixture.anatomical[$0]) }.max() ?? 0)
        }
        #expect(moved[0] < 0.001, "read with the recorded camera, the exact picks land on the landmarks")
        #expect(moved[1] > 0.002, "read with another camera, they do not")
        // Without the camera, the stored record read with it is not this scan's reconstruction:
        // it is made again (here refused: the fixture's grey frames cannot be placed).
        #expect(throws: (any Error).self) { try Self.processedWithoutMarkers(fixture) }
    }

    /// The depth's own scale is up to about 1 % off: the circumference's interval says so,
    /// where the same head placed by stickers (whose scale the bundle adjustment knows) does not.
    @Test func sizesWithoutStickersCarryTheDepthsScale() throws {
        let printed = try LiftingFixture(placedWithoutMarkers: .printed)
        defer { printed.remove() }
        let stickers = try LiftingFixture(withCap: true)
        defer { stickers.remove() }
        let without = try #require(try Self.processedWithoutMarkers(printed).measurement.intervals)
        let with = try #require(try SessionProcessor(library: stickers.library).process(stickers.session).measurement.intervals)
        let width = { (i: ValueInterval) in i.high - i.low }
        // 1 % of about 420 mm at two standard deviations either side: about 8 mm wide.
        #expect(width(without.circumferenceMM) > 6)
        #expect(width(with.circumferenceMM) < 3)
        // A ratio does not change with the scale.
        #expect(abs(width(without.cvai) - width(with.cvai)) < 0.05)
    }

    @Test func aPlainCapLeavesTheLandmarksToBePicked() throws {
        let fixture = try LiftingFixture(placedWithoutMarkers: .plain)
        defer { fixture.remove() }
        #expect {
            try Self.processedWithoutMarkers(fixture)
        } throws: { error in
            guard case .landmarksNotFound(let missing, let reason) = error as? ProcessingError else { return false }
            return missing.count == 4 && reason.contains("neither stickers nor a print")
        }
        // Picked, it is measured, and still said to have been placed without stickers.
        try fixture.library.saveAnnotations(fixture.exactPicks(), in: fixture.session)
        let result = try Self.processedWithoutMarkers(fixture)
        #expect(result.landmarksSource == .picks)
        #expect(
            result.measurement.warnings.contains {
                $0.kind == .scannedWithoutStickers && $0.message.contains("surface alone") && $0.message.contains("bare head")
            })
    }

    /// A record placed by stickers is not taken for one placed without them, nor the other way
    /// round: processing in the other mode reconstructs.
    @Test func aStoredRecordIsReusedOnlyInItsOwnMode() throws {
        let fixture = try LiftingFixture(placedWithoutMarkers: .printed)
        defer { fixture.remove() }
        let stored = try #require(try fixture.library.document(ReconstructionRecord.self, in: fixture.session))
        #expect(stored.withoutMarkers != nil)
        // Placed by stickers, the fixture's eight grey frames show none: that is the marker
        // reconstruction's refusal, not the stored record's measurement.
        #expect(throws: (any Error).self) { try SessionProcessor(library: fixture.library).process(fixture.session) }
    }

    /// A recording the app made with its guide following the head's surface is processed
    /// without markers though nobody said so, as the app's Results screen and the research
    /// service process it.
    @Test func aScanGuidedWithoutMarkersIsProcessedWithoutMarkers() throws {
        let fixture = try LiftingFixture(placedWithoutMarkers: .printed, guidedWithoutMarkers: true)
        defer { fixture.remove() }
        let result = try SessionProcessor(library: fixture.library).process(fixture.session)
        #expect(!result.reconstructed, "the stored record made without markers is reused")
        #expect(result.withoutMarkers?.printAgreement == 0.97)
        #expect(result.measurement.warnings.contains { $0.kind == .scannedWithoutStickers })
    }

    @Test func aRecordWhosePlacementIsNotNumbersIsRefused() throws {
        var placed = PlacedWithoutMarkers(
            framesExamined: 10, framesPlaced: 9, framesLost: 1, framesFused: 9, printSeen: true, headFromMesh: Array(repeating: 0, count: 15),
            capRim: 0.012, printAgreement: 0.95, printRunnerUp: 0.5)
        var record = ReconstructionRecord(
            scan: .init(bytes: 1, modified: 0), capLayout: "standard-57", markers: [:], keyframes: [], statistics: .init(), reconstructedAt: Date())
        record.withoutMarkers = placed
        #expect(throws: ScanLibraryError.self) { try record.validate() }
        placed.headFromMesh = RigidTransform.identity.matrixRowMajor
        placed.printAgreement = 1.5
        record.withoutMarkers = placed
        #expect(throws: ScanLibraryError.self) { try record.validate() }
        placed.printAgreement = 0.95
        placed.framesPlaced = 11
        record.withoutMarkers = placed
        #expect(throws: ScanLibraryError.self) { try record.validate() }
        placed.framesPlaced = 9
        placed.checkedCamera = CameraIntrinsics(fx: -570, fy: 570, cx: 320, cy: 240, width: 640, height: 480)
        record.withoutMarkers = placed
        #expect(throws: ScanLibraryError.self) { try record.validate() }
        placed.checkedCamera = nil
        record.withoutMarkers = placed
        try record.validate()
        #expect(placed.orientation?.capRim == 0.012)
    }

    /// Without markers a measurement lying on a hole of the scan is refused, naming the hole;
    /// an outline bridged elsewhere is still measured with its warning, as with stickers.
    @Test func aMeasurementOnAHoleWithoutStickersIsRefusedWithTheRegion() {
        let onHole = MeasurementWarning(
            .sliceLeavesSurface, "diagonal A's back end lies on a hole of the scan, so its length is interpolated; rescan that region")
        let bridged = MeasurementWarning(.openContour, "the outline at 82.9 mm had holes, bridged over 30.2 mm in 5 place(s)")
        #expect(SessionProcessor.refusalWithoutMarkers([bridged]) == nil)
        let refusal = SessionProcessor.refusalWithoutMarkers([bridged, onHole])
        #expect(refusal == .regionNotScanned(onHole.message))
        #expect(refusal?.description.contains("diagonal A's back end lies on a hole") == true)
        #expect(refusal?.description.contains("never placed") == true)
    }
}

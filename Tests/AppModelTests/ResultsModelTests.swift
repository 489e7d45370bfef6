import AppModel
import AppModelTesting
import Cephalometry
import Feedback
import Foundation
import Geometry
import Processing
import Report
import ScanLibrary
import Simulation
import Testing

/// Processing that reports two stages and then stores a known measurement, as the real one
/// would; or waits for cancellation; or fails.
struct FakeProcessing: SessionProcessing {
    /// `capLifted` refuses as a cap lifted by hair does, and succeeds when asked to measure over it.
    enum Mode: Sendable { case succeed, waitForCancel, fail, capLifted }
    let library: ScanLibrary
    let mode: Mode
    static let measurement = HeadMeasurement(diagonalA: 0.150, diagonalB: 0.140, length: 0.140, width: 0.115, perimeter: 0.420)

    func process(
        _ session: ScanSession, overLiftedCap: Bool, progress: @escaping @Sendable (ProcessingProgress) -> Void,
        isCancelled: @escaping @Sendable () -> Bool
    ) async throws -> ProcessingResult {
        progress(ProcessingProgress(stage: .markers, done: 5, total: 10))
        switch mode {
        case .fail: throw ProcessingError.missingPicks([.nasion])
        case .capLifted where !overLiftedCap:
            throw ProcessingError.capLifted(CapStandOff(largest: 0.0024, azimuthDegrees: -140, outlinesFitted: 72))
        case .waitForCancel:
            while !isCancelled() { try await Task.sleep(for: .milliseconds(1)) }
            throw ProcessingError.cancelled
        case .succeed, .capLifted:
            let landmarks = HeadLandmarks(
                nasion: SIMD3(0, 0.07, 0), noseTip: SIMD3(0, 0.09, -0.02), leftTragion: SIMD3(-0.06, 0, 0), rightTragion: SIMD3(0.06, 0, 0))
            let patient = try library.patient(in: session)
            let calliper = try patient.map { try CalliperComparison(Self.measurement, calliper: $0.calliper) }
            try library.saveMeasurement(
                MeasurementRecord(measurement: Self.measurement, calliper: calliper, landmarks: landmarks, measuredAt: Date()), in: session)
            return ProcessingResult(
                measurement: Self.measurement, calliper: calliper, landmarks: landmarks,
                estimates: [.nasion: LandmarkEstimate(points: [SIMD3(0, 0.07, 0), SIMD3(0.008, 0.07, 0)], residuals: [nil, nil])],
                landmarksSource: .picks, reconstructed: true, statistics: .init(),
                html: session.url.appendingPathComponent("report.html"), pdf: session.url.appendingPathComponent("report.pdf"))
        }
    }
}

@MainActor
struct ResultsModelTests {
    @Test func processingShowsItsStagesThenTheValuesSeverityCalliperAndTrend() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let earlier = try lib.savedSession(id: 4)
        try lib.library.saveMeasurement(
            MeasurementRecord(
                measurement: HeadMeasurement(diagonalA: 0.152, diagonalB: 0.138, length: 0.138, width: 0.114, perimeter: 0.410),
                landmarks: HeadLandmarks(
                    nasion: SIMD3(0, 0.07, 0), noseTip: SIMD3(0, 0.09, -0.02), leftTragion: SIMD3(-0.06, 0, 0), rightTragion: SIMD3(0.06, 0, 0)),
                measuredAt: Date()), in: earlier)
        let session = try lib.savedSession(id: 4, minute: 30)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .succeed), strings: strings())
        #expect(model.phase == .ready && model.buttonTitle == "Measure")
        await model.buttonTapped()
        #expect(model.phase == .measured)
        #expect(model.rows.first == ResultRow(name: "CVAI", value: "6.67 %", calliper: "3.33 %"))
        #expect(model.severityLevel == 3)
        #expect(model.calliperVerdict == "The calliper gives level 1.")
        #expect(model.trend.map(\.cvai) == ["9.21 %", "6.67 %"])
        #expect(model.trend.map(\.isThisVisit) == [false, true])
        // Two visits 30 minutes apart: the change per month is large but exact.
        #expect(model.trendChanges.first?.hasPrefix("CVAI: -") == true)
        #expect(model.trendChanges.count == 3)  // neither visit has the 3D measures
        #expect(model.notes == ["The picks of nasion spread 4.0 mm; check them in the replay."])
        #expect(model.reportURL?.lastPathComponent == "report.pdf")
        // Opened again later, the stored measurement shows at once.
        let reopened = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings())
        #expect(reopened.phase == .measured && reopened.rows == model.rows)
    }

    @Test func aCapLiftedByHairSaysHowFarWhereAndWhatToDoAndTheButtonMeasuresAnyway() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 5)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .capLifted), strings: strings())
        await model.buttonTapped()
        guard case .capLifted(let why) = model.phase else { Issue.record("\(model.phase)"); return }
        #expect(why.contains("about 2.4 mm off the skin") && why.contains("over the back of the head, on the left"), "\(why)")
        #expect(why.contains("Flatten the hair") && why.contains("scan again"))
        #expect(model.buttonTitle == "Measure anyway")
        #expect(model.rows.isEmpty)
        await model.buttonTapped()
        #expect(model.phase == .measured && !model.rows.isEmpty)
    }

    @Test func everyEighthAroundTheHeadHasItsOwnWords() {
        let words = CapStandOff.Sector.allCases.map { strings()(ResultsModel.placeKey($0)) }
        #expect(Set(words).count == 8)
        let places = stride(from: -180.0, to: 180, by: 45).map { CapStandOff(largest: 0.002, azimuthDegrees: $0, outlinesFitted: 72).sector }
        #expect(places == CapStandOff.Sector.allCases)
    }

    @Test func aStoredIntervalShowsUnderCVAI() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 6)
        var measurement = FakeProcessing.measurement
        measurement.intervals = MeasurementIntervals(
            level: 0.95, cvai: ValueInterval(low: 6.1, high: 7.25), cvaMM: ValueInterval(low: 9, high: 11), ci: ValueInterval(low: 81, high: 83),
            circumferenceMM: ValueInterval(low: 418, high: 422), samples: 48, landmarkSigmaMM: LandmarkSigmas(), surfaceSigmaMM: 0.05, scaleSigma: 0)
        try lib.library.saveMeasurement(
            MeasurementRecord(
                measurement: measurement,
                landmarks: HeadLandmarks(
                    nasion: SIMD3(0, 0.07, 0), noseTip: SIMD3(0, 0.09, -0.02), leftTragion: SIMD3(-0.06, 0, 0), rightTragion: SIMD3(0.06, 0, 0)),
                measuredAt: Date()), in: session)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings())
        #expect(model.rows.map(\.name).prefix(3) == ["CVAI", "CVAI 95 % interval", "CVA"])
        #expect(model.rows[1].value == "6.10–7.25 %")
    }

    @Test func cancellingStopsProcessingAndSaysNothingChanged() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 5)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .waitForCancel), strings: strings())
        let running = Task { await model.process() }
        while true {
            if case .processing = model.phase { break }
            await Task.yield()
        }
        #expect(model.buttonTitle == "Cancel")
        await model.buttonTapped()
        await running.value
        #expect(model.phase == .failed("Measuring was cancelled; nothing was changed."))
        #expect(model.buttonTitle == "Try again")
        #expect(try lib.library.measurement(in: session) == nil)
    }

    @Test func aFailureShowsTheProcessingMessage() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 6)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings())
        await model.process()
        #expect(model.phase == .failed(ProcessingError.missingPicks([.nasion]).description))
    }

    @Test func progressSpansTheStagesInOrder() {
        let fractions: [(ProcessingStage, Int, Int)] = [(.markers, 0, 10), (.markers, 10, 10), (.fusion, 5, 10), (.landmarks, 1, 1), (.report, 1, 1)]
        let values =
            fractions
            .map { ResultsModel.fraction(ProcessingProgress(stage: $0.0, done: $0.1, total: $0.2)) }
        #expect(values == values.sorted())
        #expect(abs(values.last! - 1) < 1e-12)
        #expect(values.first == 0)
    }

    /// Waits until `model` is processing.
    private func untilProcessing(_ model: ResultsModel) async {
        while true {
            if case .processing = model.phase { return }
            await Task.yield()
        }
    }

    @Test func closingTheScreenStopsTheMeasurementAndTheScreenStaysAwakeOnlyWhileItRuns() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 7)
        let activity = RecordingProcessingActivity()
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .waitForCancel),
            strings: strings(), activity: activity)
        let running = Task { await model.process() }
        await untilProcessing(model)
        #expect(activity.calls == ["begin"])
        model.close()
        await running.value
        #expect(model.phase == .failed("Measuring was cancelled; nothing was changed."))
        #expect(activity.calls == ["begin", "end"])
    }

    @Test func oneJobPerSession() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 8)
        let jobs = ProcessingJobs()
        let first = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .waitForCancel),
            strings: strings(), jobs: jobs)
        let running = Task { await first.process() }
        await untilProcessing(first)
        // A second tap on the same screen starts nothing.
        await first.process()
        #expect(jobs.isRunning(session.name.rawValue))
        // The screen closed and opened again while the cancelled job still runs.
        first.close()
        let second = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .succeed), strings: strings(), jobs: jobs)
        await second.process()
        #expect(second.phase == .failed(strings()(.resultsStillStopping)))
        await running.value
        #expect(!jobs.isRunning(session.name.rawValue))
        await second.process()
        #expect(second.phase == .measured)
    }
}

@MainActor
struct ResultsDisclaimerTests {
    /// App Review expects apps showing clinical measures to say what they are not.
    @Test func theResultsSayTheyDoNotDiagnose() throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 9)
        for (language, word) in [(Language.en, "does not diagnose"), (.de, "keine Diagnose")] {
            let model = ResultsModel(
                session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings(language))
            #expect(model.disclaimer.contains(word))
        }
    }
}

/// Writes down when the phone was kept awake.
@MainActor
final class RecordingProcessingActivity: ProcessingActivity {
    private(set) var calls: [String] = []
    func begin() { calls.append("begin") }
    func end() { calls.append("end") }
}

@MainActor
struct ResultsShapeTests {
    @Test func theResultsShowTheDeformityTheThreeDMeasuresAndTheAsymmetryMap() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 9)
        let head = try HeadModel(HeadParameters(cranialIndex: 92, cvai: 8, flatSide: .left))
        let mesh = HeadMesh.skull(head, segments: 120, elevationSteps: 50)
        try Data(PLY.encode(mesh)).write(to: session.meshURL)
        let landmarks = head.landmarks
        let measurement = try Cephalometer.measure(mesh, landmarks: landmarks).measurement
        try lib.library.saveMeasurement(MeasurementRecord(measurement: measurement, landmarks: landmarks, measuredAt: Date()), in: session)

        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings())
        #expect(model.deformity == "Positional plagiocephaly with brachycephaly (mild)")
        #expect(model.shapeRows.count == 7)
        #expect(model.shapeRows.first?.name == "Volume above the ear line")
        #expect(model.asymmetry == nil)
        await model.loadAsymmetry()
        let map = try #require(model.asymmetry)
        #expect(map.texts.contains("from behind") && map.texts.contains("left"))

        // In German, with a clinic that counts brachycephaly from 93.
        let settings = #"{"thresholds":{"brachycephalyCI":[93,96,99]}}"#
        try Data(settings.utf8).write(to: lib.library.root.appendingPathComponent("report-settings.json"))
        let german = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings(.de))
        #expect(german.deformity == "Lagebedingter Plagiozephalus")
        #expect(german.shapeRows.dropFirst().first?.value.contains(",") == true)
    }

    @Test func aMeasurementFromBeforeTheThreeDMeasuresShowsNoShapeRowsAndNoMap() async throws {
        let lib = TemporaryLibrary()
        defer { lib.cleanUp() }
        let session = try lib.savedSession(id: 2)
        try lib.library.saveMeasurement(
            MeasurementRecord(
                measurement: FakeProcessing.measurement,
                landmarks: HeadLandmarks(
                    nasion: SIMD3(0, 0.07, 0), noseTip: SIMD3(0, 0.09, -0.02), leftTragion: SIMD3(-0.06, 0, 0), rightTragion: SIMD3(0.06, 0, 0)),
                measuredAt: Date()), in: session)
        let model = ResultsModel(
            session: session, library: lib.library, processing: FakeProcessing(library: lib.library, mode: .fail), strings: strings())
        #expect(model.shapeRows.isEmpty)
        #expect(model.deformity == "Positional plagiocephaly")
        await model.loadAsymmetry()
        #expect(model.asymmetry == nil)
    }
}

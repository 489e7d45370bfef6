import Cephalometry
import Foundation
import Processing
import ScanLibrary
import Testing

/// A session is measured once: what `process` returns (and prints with `--json`), what
/// `measurement.json` keeps and what the report shows are the same figures to the last digit,
/// with the same warnings, whatever the measuring settings.
@Suite struct OneMeasurementTests {
    @Test func theResultTheRecordAndTheReportAgreeWithTheirSettingsAndWarnings() throws {
        let fixture = try LiftingFixture(withCap: true)
        defer { fixture.remove() }
        // The nasion picked where the nose tip is: surely more than 3 mm from the one found.
        var annotations = AnnotationsRecord()
        let frame = try #require(fixture.frames.firstIndex { $0.pixels[.noseTip] != nil })
        annotations.pick(.nasion, frameIndex: frame, pixel: try #require(fixture.frames[frame].pixels[.noseTip]))
        try fixture.library.saveAnnotations(annotations, in: fixture.session)
        var options = ProcessingOptions()
        options.measurement.lowestHeight = 0.035
        let result = try SessionProcessor(library: fixture.library, options: options).process(fixture.session)
        let stored = try #require(try fixture.library.measurement(in: fixture.session))
        // Loaded as the report command and the service's worker load it: measured again from the files.
        let loaded = try MeasuredSession.load(library: fixture.library, session: fixture.session)
        let report = try ClinicalReportWriter(library: fixture.library, session: fixture.session).content(loaded)

        #expect(result.measurement.sliceHeightMM >= 35)
        #expect(stored.options == options.measurement)
        #expect(result.measurement == stored.measurement)
        #expect(report.slice.measurement == stored.measurement)
        let disagreeing = stored.measurement.warnings.filter { $0.kind == .landmarksDisagree }
        #expect(disagreeing.count == 1, "\(stored.measurement.warnings)")
        #expect(result.measurement.warnings.contains(disagreeing[0]))
        #expect(report.report.warnings.contains(disagreeing[0].message))

        // Files written before the settings were kept read as measured with the defaults.
        var old = stored
        old.options = nil
        #expect(old.measuredWith == MeasurementOptions())
    }
}

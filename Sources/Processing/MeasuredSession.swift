import Cephalometry
import Foundation
import Geometry
import ScanLibrary

/// A session's measurement, built once: `measurement.json` as saved, the mesh it was measured
/// on (as stored, 32-bit) and the measured slice with its outline. Processing hands on the
/// value it measured; the report command, the service's worker and anyone else who opens a
/// measured session load it, which measures the stored mesh again with the record's own
/// settings (the outline is not stored) and so gives the same figures to the last digit.
public struct MeasuredSession {
    public let record: MeasurementRecord
    public let mesh: TriangleMesh
    public let slice: MeasuredSlice

    public init(record: MeasurementRecord, mesh: TriangleMesh, slice: MeasuredSlice) {
        self.record = record
        self.mesh = mesh
        self.slice = slice
    }

    /// The measured `session` of `library`, from its `measurement.json` and its own `head.ply`.
    public static func load(library: ScanLibrary, session: ScanSession) throws -> MeasuredSession {
        guard let record = try library.measurement(in: session) else {
            throw ProcessingReportError.notMeasured(session.name.rawValue)
        }
        // Always the session's own mesh: `meshFile` is what a document from elsewhere says, and
        // following it would open any file its path reaches.
        let mesh = try PLY.decode([UInt8](Data(contentsOf: session.meshURL)))
        return MeasuredSession(record: record, mesh: mesh, slice: try measured(mesh, record))
    }

    /// The record's mesh measured again as it was measured (the same settings, so the same
    /// figures to the last digit), with every warning the record carries (those of how its
    /// landmarks were chosen, which the mesh alone does not give) and its intervals (which need
    /// the landmarks' uncertainties, known only while processing).
    static func measured(_ mesh: TriangleMesh, _ record: MeasurementRecord) throws -> MeasuredSlice {
        var slice = try Cephalometer.measure(mesh, landmarks: record.landmarks, options: record.measuredWith)
        let recorded = record.measurement.warnings
        slice.measurement.warnings = recorded + slice.measurement.warnings.filter { !recorded.contains($0) }
        slice.measurement.intervals = record.measurement.intervals
        return slice
    }
}

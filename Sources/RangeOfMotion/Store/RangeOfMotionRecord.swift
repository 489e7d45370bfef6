import Foundation

/// One knee measurement as stored: who, when, from what, and the whole analysis, so the
/// report can be written again from it.
public struct RangeOfMotionRecord: Sendable, Equatable, Codable {
    /// The version this code writes and the newest it reads.
    public static let currentVersion = 1

    public var version: Int
    public var patientID: String
    public var date: Date
    /// Where the poses came from (a file name, "video"), for the record.
    public var source: String
    public var analysis: RangeOfMotionAnalysis

    public init(patientID: String, date: Date, source: String, analysis: RangeOfMotionAnalysis) {
        version = Self.currentVersion
        self.patientID = patientID
        self.date = date
        self.source = source
        self.analysis = analysis
    }

    /// "5-0-140", or nil when the video was refused.
    public var neutralZero: String? { analysis.accepted ? analysis.neutralZero?.notation : nil }
}

/// A stored record and where it is.
public struct StoredRecord: Sendable, Equatable {
    public var record: RangeOfMotionRecord
    public var url: URL
}

/// A patient's stored measurements, oldest first, and the files that could not be read.
public struct RangeOfMotionHistory: Sendable, Equatable {
    public var records: [StoredRecord]
    public var problems: [RangeOfMotionError]
}

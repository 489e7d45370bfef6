import ArgumentParser
import Foundation
import Recording

/// `headscan inspect`: what a recording holds, and whether any of it is damaged.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a scan file holds and check every frame's checksum.",
        discussion: """
            Reads the header and the seek index, then verifies the checksum of every record \
            (without decoding pictures). A recording that was cut off (app killed, battery \
            empty) has no index: it is rebuilt by scanning and every complete frame is listed.

            Examples:
              headscan inspect scan.hscan
              headscan inspect scan.hscan --json | jq .frames
            """)

    @Argument(help: "The scan file (.hscan).", completion: .file(extensions: ["hscan"]))
    var file: String

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let reader = try ScanReader(url: fileURL(file))
        var bar = ProgressBar("Checking")
        let problems = reader.verify { bar.update($0, of: reader.frameCount) }
        let report = try ScanReport(reader: reader, problems: problems)
        try outputOptions.emit(report)
    }
}

/// The facts `inspect` reports; the JSON field names are a contract scripts depend on.
struct ScanReport: TextReport {
    var frames: Int
    var durationSeconds: Double
    var width: Int
    var height: Int
    var depthWidth: Int
    var depthHeight: Int
    var colorCodec: String
    var bytes: Int
    var rawBytes: Int
    var damagedRecords: Int
    var damagedFrames: [Int]
    var indexRebuilt: Bool
    var formatVersion: Int
    var device: String
    var appVersion: String
    var capLayout: String
    var createdAt: String
    var problems: [String]

    init(reader: ScanReader, problems: [ScanFileError]) throws {
        let first = reader.frames().lazy.compactMap { try? $0.get() }.first
        frames = reader.frameCount
        durationSeconds = reader.durationSeconds
        width = first?.color.width ?? reader.header.colorIntrinsics.width
        height = first?.color.height ?? reader.header.colorIntrinsics.height
        depthWidth = first?.depth.width ?? reader.header.depthIntrinsics.width
        depthHeight = first?.depth.height ?? reader.header.depthIntrinsics.height
        colorCodec = reader.colorCodec().map { "\($0)" } ?? "unknown"
        bytes = try reader.fileSize()
        rawBytes = frames * (width * height * 4 + depthWidth * depthHeight * 2)
        damagedFrames = problems.compactMap {
            if case .damagedFrame(let index, _) = $0 { index } else { nil }
        }
        damagedRecords = problems.count + reader.damagedRecords.count
        indexRebuilt = reader.indexWasRebuilt
        formatVersion = reader.formatVersion
        device = reader.header.device
        appVersion = reader.header.appVersion
        capLayout = reader.header.capLayoutName
        createdAt = ISO8601DateFormatter().string(from: reader.header.createdAt)
        self.problems =
            problems.map(\.description)
            + reader.damagedRecords.map { "unreadable bytes at offset \($0.offset) (\($0.skippedBytes) skipped)" }
    }

    var text: String {
        let ratio = rawBytes > 0 ? Double(bytes) / Double(rawBytes) : 0
        var lines = [
            "frames:      \(frames) over \(String(format: "%.2f", durationSeconds)) s",
            "colour:      \(width)x\(height) \(colorCodec)",
            "depth:       \(depthWidth)x\(depthHeight) lossless",
            "size:        \(bytes) bytes (\(String(format: "%.1f", ratio * 100)) % of raw \(rawBytes))",
            "recorded:    \(createdAt) on \(device), app \(appVersion), cap \(capLayout)",
            "format:      version \(formatVersion)\(indexRebuilt ? ", index rebuilt (recording was cut off)" : "")",
            "damaged:     \(damagedRecords == 0 ? "none" : "\(damagedRecords) record(s)")",
        ]
        lines += problems.map { "  - \($0)" }
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import Foundation
import Imaging
import Markers

/// `headscan detect`: find markers in pictures.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find ArUco/AprilTag markers in a PNG or JPEG and print their IDs and corners.",
        discussion: """
            Corners are in pixels, pixel centres at integers (OpenCV's convention), in OpenCV's \
            order: the marker's top-left, top-right, bottom-right, bottom-left as drawn. \
            `milliseconds` is the detection time alone, without reading the file. Each marker \
            also carries how sure its reading is: `correctedBits` (bits that differed from the \
            dictionary's code), `decisionMargin` (mean distance of its cells from the black/white \
            threshold, in gray levels; below about 20 a wrong bit becomes likely) and \
            `minimumMargin` (the cell closest to flipping). --diagnostics adds per-stage counts \
            and every rejected candidate with its reason, for tuning.

            Examples:
              headscan detect frame.png --json
              headscan detect frame.png --diagnostics
              headscan detect --batch list.txt --dictionary 4x4_100 --json   (one JSON line per image)
            """)

    @Argument(help: "The image (PNG or JPEG).")
    var image: String?

    @Option(help: "Dictionary, OpenCV's name without DICT_ (4x4_100, aruco_original, apriltag_36h11, ...).")
    var dictionary = MarkerDictionary.standardCap

    @Option(help: "A file listing one image path per line; prints one JSON line per image.")
    var batch: String?

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Also print per-stage candidate counts and the rejected candidates with their reasons.")
    var diagnostics = false

    func validate() throws {
        guard (image == nil) != (batch == nil) else {
            throw ValidationError("give either one IMAGE or --batch LIST")
        }
    }

    func run() throws {
        let detector = MarkerDetector(dictionary: dictionary)
        if let batch {
            let list = try String(contentsOf: fileURL(batch), encoding: .utf8)
            for path in list.split(whereSeparator: \.isNewline).map(String.init) where !path.isEmpty {
                let (markers, milliseconds, report) = try detect(path, with: detector)
                print(jsonLine(markers, milliseconds: milliseconds, image: path, diagnostics: report))
            }
        } else if let image {
            let (markers, milliseconds, report) = try detect(image, with: detector)
            if outputOptions.json {
                print(jsonLine(markers, milliseconds: milliseconds, image: nil, diagnostics: report))
            } else {
                print("\(markers.count) markers in \(String(format: "%.2f", milliseconds)) ms")
                for marker in markers.sorted(by: { $0.id < $1.id }) {
                    let corners = marker.corners.map { String(format: "(%.2f, %.2f)", $0.x, $0.y) }
                    let sure = String(
                        format: "margin %.0f (min %.0f), %d bits corrected", marker.decisionMargin,
                        marker.minimumMargin, marker.correctedBits)
                    print("  id \(marker.id): \(corners.joined(separator: " "))  \(sure)")
                }
                if let report { print(text(report)) }
            }
        }
    }

    private func detect(
        _ path: String, with detector: MarkerDetector
    ) throws -> ([DetectedMarker], Double, DetectionDiagnostics?) {
        let bytes = Array(try Data(contentsOf: fileURL(path)))
        let gray = try ImageCodecs.system.decodeAny(bytes).grayscale()
        let clock = ContinuousClock()
        var markers: [DetectedMarker] = []
        var report: DetectionDiagnostics?
        let elapsed = clock.measure {
            if diagnostics {
                var collected = DetectionDiagnostics()
                markers = detector.detect(in: gray, diagnostics: &collected)
                report = collected
            } else {
                markers = detector.detect(in: gray)
            }
        }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return (markers, milliseconds, report)
    }

    private func text(_ report: DetectionDiagnostics) -> String {
        var lines = [
            "contours \(report.contours), quadrilaterals \(report.quadrilaterals), border checked \(report.borderChecked), "
                + "refined \(report.refined), decoded \(report.decoded), reported \(report.reported), "
                + "recovery regions \(report.recoveryRegions)"
        ]
        for rejection in report.rejections {
            let corners = rejection.corners.map { String(format: "(%.1f, %.1f)", $0.x, $0.y) }.joined(separator: " ")
            let nearest = rejection.nearestDistance.map { ", nearest code \($0) bits away" } ?? ""
            lines.append("  rejected \(rejection.reason.rawValue)\(nearest): \(corners)")
        }
        return lines.joined(separator: "\n")
    }

    /// The documented output, written by hand so the key order is exactly
    /// `{"markers":[{"id":N,"corners":[[x,y],...],"correctedBits":B,"decisionMargin":M,"minimumMargin":m}],
    /// "milliseconds":T}`, with `"diagnostics":{...}` last when asked for.
    private func jsonLine(
        _ markers: [DetectedMarker], milliseconds: Double, image: String?, diagnostics: DetectionDiagnostics?
    ) -> String {
        let entries = markers.map { marker in
            let corners = marker.corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",")
            return "{\"id\":\(marker.id),\"corners\":[\(corners)],\"correctedBits\":\(marker.correctedBits),"
                + "\"decisionMargin\":\(number(marker.decisionMargin)),\"minimumMargin\":\(number(marker.minimumMargin))}"
        }
        let prefix = image.map { "{\"image\":\(quoted($0))," } ?? "{"
        var line = prefix + "\"markers\":[\(entries.joined(separator: ","))],\"milliseconds\":\(number(milliseconds))"
        if let diagnostics {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(diagnostics)) ?? Data("{}".utf8)
            line += ",\"diagnostics\":" + String(decoding: data, as: UTF8.self)
        }
        return line + "}"
    }

    private func number(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    private func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

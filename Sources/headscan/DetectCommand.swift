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
            `milliseconds` is the detection time alone, without reading the file.

            Examples:
              headscan detect frame.png --json
              headscan detect --batch list.txt --dictionary 4x4_100 --json   (one JSON line per image)
            """)

    @Argument(help: "The image (PNG or JPEG).")
    var image: String?

    @Option(help: "Dictionary, OpenCV's name without DICT_ (4x4_100, aruco_original, apriltag_36h11, ...).")
    var dictionary = CapLayout.standard.dictionaryName

    @Option(help: "A file listing one image path per line; prints one JSON line per image.")
    var batch: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (image == nil) != (batch == nil) else {
            throw ValidationError("give either one IMAGE or --batch LIST")
        }
    }

    func run() throws {
        let detector = MarkerDetector(dictionary: try MarkerDictionary.named(dictionary))
        if let batch {
            let list = try String(contentsOf: fileURL(batch), encoding: .utf8)
            for path in list.split(whereSeparator: \.isNewline).map(String.init) where !path.isEmpty {
                let (markers, milliseconds) = try detect(path, with: detector)
                print(jsonLine(markers, milliseconds: milliseconds, image: path))
            }
        } else if let image {
            let (markers, milliseconds) = try detect(image, with: detector)
            if json {
                print(jsonLine(markers, milliseconds: milliseconds, image: nil))
            } else {
                print("\(markers.count) markers in \(String(format: "%.2f", milliseconds)) ms")
                for marker in markers.sorted(by: { $0.id < $1.id }) {
                    let corners = marker.corners.map { String(format: "(%.2f, %.2f)", $0.x, $0.y) }
                    print("  id \(marker.id): \(corners.joined(separator: " "))")
                }
            }
        }
    }

    private func detect(_ path: String, with detector: MarkerDetector) throws -> ([DetectedMarker], Double) {
        let bytes = Array(try Data(contentsOf: fileURL(path)))
        let gray = try ImageCodecs.system.decodeAny(bytes).grayscale()
        let clock = ContinuousClock()
        var markers: [DetectedMarker] = []
        let elapsed = clock.measure { markers = detector.detect(in: gray) }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return (markers, milliseconds)
    }

    /// The documented output, written by hand so the key order is exactly
    /// `{"markers":[{"id":N,"corners":[[x,y],...]}],"milliseconds":T}`.
    private func jsonLine(_ markers: [DetectedMarker], milliseconds: Double, image: String?) -> String {
        let entries = markers.map { marker in
            let corners = marker.corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",")
            return "{\"id\":\(marker.id),\"corners\":[\(corners)]}"
        }
        let prefix = image.map { "{\"image\":\(quoted($0))," } ?? "{"
        return prefix + "\"markers\":[\(entries.joined(separator: ","))],\"milliseconds\":\(number(milliseconds))}"
    }

    private func number(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    private func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

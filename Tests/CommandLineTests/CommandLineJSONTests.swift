import ChildProcesses
import Foundation
import Testing

/// The JSON that the user guide (docs/user-guide.md, "The `headscan` tool") promises scripts,
/// read from the real `headscan` binary.
struct CommandLineJSONTests {
    @Test func inspectPrintsEveryFieldTheReadmeNames() throws {
        let folder = try TemporaryFolder()
        let scan = folder.path("synthetic.hscan")
        _ = try headscan(["synthesize", "--out", scan, "--seconds", "0.2"])
        let report = try jsonObject(headscan(["inspect", scan, "--json"]))
        for key in ["frames", "durationSeconds", "width", "height", "colorCodec", "bytes", "rawBytes", "damagedRecords"] {
            #expect(report[key] != nil, "inspect --json lacks \(key)")
        }
        #expect(report["frames"] as? Int == 6)
        #expect(report["width"] as? Int == 640)
        #expect(report["damagedRecords"] as? Int == 0)
        let bytes = try #require(report["bytes"] as? Int), raw = try #require(report["rawBytes"] as? Int)
        #expect(raw == 6 * 640 * 480 * 6)  // colour 4 B and depth 2 B per pixel
        #expect(bytes > 0 && bytes < raw)
    }

    /// `simulate` and `bench markerless` share the options of a given head surface, and each
    /// refuses them half given, before reading a file.
    @Test func aGivenHeadSurfaceIsRefusedHalfGivenByBothCommands() throws {
        let cases: [([String], String)] = [
            (["simulate", "--out", "x.hscan", "--head-circumference-mm", "420"], "scales a --head-mesh"),
            (["bench", "markerless", "--head-circumference-mm", "420"], "scales a --head-mesh"),
            (["bench", "markerless", "--head-mesh", "h.ply"], "go together"),
            (["bench", "markerless", "--head-mesh", "h.ply", "--head-landmarks", "h.json", "--heads", "2"], "drop --heads"),
            (["bench", "markerless", "--head-mesh", "h.ply", "--head-landmarks", "h.json", "--caps", "bare-dark"], "drawn heads only"),
        ]
        for (arguments, message) in cases {
            do {
                _ = try headscan(arguments)
                Issue.record("headscan \(arguments.joined(separator: " ")) succeeded")
            } catch let failure as CommandFailed {
                #expect(failure.status == 64 && failure.standardError.contains(message), "\(failure)")
            }
        }
    }

    @Test func measureGivesTheSimulatedHeadsTrueValuesAtTheTopLevel() throws {
        let folder = try TemporaryFolder()
        _ = try headscan([
            "simulate", "--out", folder.path("s.hscan"), "--truth", folder.path("s.truth.json"), "--seconds", "0.1", "--cvai", "8",
        ])
        let truth = try jsonObject(Data(contentsOf: URL(fileURLWithPath: folder.path("s.truth.json"))))
        let landmarks = try JSONSerialization.data(withJSONObject: try #require(truth["landmarks"]))
        try landmarks.write(to: URL(fileURLWithPath: folder.path("landmarks.json")))
        let measured = try jsonObject(headscan(["measure", folder.path("s.truth.ply"), "--landmarks", folder.path("landmarks.json"), "--json"]))
        let cvai = try #require(measured["cvai"] as? Double)
        #expect(abs(cvai - 8) < 0.05)
        for key in ["cvaMM", "ci", "circumferenceMM", "diagonalAMM", "diagonalBMM", "severityLevel", "warnings"] {
            #expect(measured[key] != nil, "measure --json lacks \(key)")
        }
        #expect(measured["calliper"] == nil)

        // The 3D measures, the grade and, when asked for, the asymmetry map under their keys.
        let shape = try #require(measured["shape"] as? [String: Any])
        for key in [
            "cranialVolumeCM3", "quadrantVolumes", "anteriorSymmetryRatio", "posteriorSymmetryRatio", "overallSymmetryRatio",
            "radialSymmetryIndexMM", "cranialHeightMM", "earOffsetMM", "longestDiagonalMM", "longestDiagonalAngleDegrees",
        ] {
            #expect(shape[key] != nil, "measure --json lacks shape.\(key)")
        }
        let assessment = try #require(measured["assessment"] as? [String: Any])
        #expect(assessment["type"] as? String == "plagiocephaly" && assessment["choaLevel"] as? Int == 3)
        #expect(measured["asymmetry"] == nil)
        try Data(#"{"choaCVAI":[3.5,6.25,7.5,11]}"#.utf8).write(to: URL(fileURLWithPath: folder.path("clinic.json")))
        let mapped = try jsonObject(
            headscan([
                "measure", folder.path("s.truth.ply"), "--landmarks", folder.path("landmarks.json"), "--thresholds", folder.path("clinic.json"),
                "--asymmetry-ply", folder.path("map.ply"), "--json",
            ]))
        #expect((mapped["assessment"] as? [String: Any])?["choaLevel"] as? Int == 4)
        let asymmetry = try #require(mapped["asymmetry"] as? [String: Any])
        #expect(asymmetry["plane"] as? String == "landmarks")
        let deepest = try #require(asymmetry["maximumInwardMM"] as? Double)
        #expect(deepest < -3)
        #expect(FileManager.default.fileExists(atPath: folder.path("map.ply")))
    }

    @Test func measureRefusesABadThresholdsFileAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        _ = try headscan(["simulate", "--out", folder.path("s.hscan"), "--truth", folder.path("s.truth.json"), "--seconds", "0.1"])
        let truth = try jsonObject(Data(contentsOf: URL(fileURLWithPath: folder.path("s.truth.json"))))
        try JSONSerialization.data(withJSONObject: try #require(truth["landmarks"])).write(to: URL(fileURLWithPath: folder.path("landmarks.json")))
        try Data(#"{"brachycephalyCI":[90,93]}"#.utf8).write(to: URL(fileURLWithPath: folder.path("clinic.json")))
        do {
            _ = try headscan([
                "measure", folder.path("s.truth.ply"), "--landmarks", folder.path("landmarks.json"), "--thresholds", folder.path("clinic.json"),
            ])
            Issue.record("a two-number brachycephaly scale was accepted")
        } catch let failure as CommandFailed {
            #expect(failure.status != 0)
            #expect(failure.standardError.contains("brachycephalyCI needs 3 rising numbers"), "\(failure.standardError)")
        }
    }

    @Test func markersBoardRecordsTheSideActuallyPrintedAndEveryMarkerReads() throws {
        let folder = try TemporaryFolder()
        _ = try headscan(["markers", "board", "--rows", "2", "--columns", "3", "--size-mm", "12", "--dpi", "150", "--out", folder.path("b.png")])
        let layout = try jsonObject(Data(contentsOf: URL(fileURLWithPath: folder.path("b.json"))))
        // 12 mm at 150 dpi is 70.87 px, drawn as 71 px = 12.02 mm.
        let side = try #require(layout["markerSideMillimetres"] as? Double)
        #expect(abs(side - 71 * 25.4 / 150) < 1e-9)
        let markers = try #require(layout["markers"] as? [[String: Any]])
        #expect(markers.count == 6)
        // Printed positions: neighbours one pitch apart (71 px + a 5 mm gap of 30 px), rows downward.
        func position(_ i: Int) -> (Double, Double)? {
            (markers[i]["boardPosition"] as? [String: Double]).flatMap { p in p["xMillimetres"].flatMap { x in p["yMillimetres"].map { (x, $0) } } }
        }
        let first = try #require(position(0)), right = try #require(position(1)), below = try #require(position(3))
        #expect(abs(right.0 - first.0 - 101 * 25.4 / 150) < 1e-9 && right.1 == first.1)
        #expect(abs(first.1 - below.1 - 101 * 25.4 / 150) < 1e-9 && below.0 == first.0)
        let found = try JSONSerialization.jsonObject(with: headscan(["detect", folder.path("b.png"), "--json"]))
        let detected = (found as? [String: Any])?["markers"] as? [[String: Any]] ?? []
        #expect(Set(detected.compactMap { $0["id"] as? Int }) == Set(0..<6))
    }

    @Test func reconstructAsksForAMeshOrMapOnly() throws {
        for (arguments, message) in [
            (["reconstruct", "scan.hscan"], "--map-only"), (["reconstruct", "scan.hscan", "--map-only", "--out", "a.ply"], "drop --out"),
            (["reconstruct", "scan.hscan", "--without-markers", "--map-only"], "--map-only needs the markers"),
            (["reconstruct", "scan.hscan", "--without-markers", "--out", "a.ply", "--align-to", "t.json"], "--align-to needs the markers"),
            (["reconstruct", "scan.hscan", "--out", "a.ply", "--landmarks-out", "l.json"], "--landmarks-out is for a scan without markers"),
            (["reconstruct", "scan.hscan", "--out", "a.ply", "--whole-view", "1.5"], "--whole-view is for a scan without markers"),
            (["reconstruct", "scan.hscan", "--without-markers", "--out", "a.ply", "--whole-view", "0.1"], "--whole-view must be in 0.2...10"),
            (["reconstruct", "scan.hscan", "--without-markers", "--out", "a.ply", "--whole-view", "nan"], "--whole-view must be in 0.2...10"),
        ] {
            #expect {
                _ = try headscan(arguments)
            } throws: { error in
                (error as? CommandFailed)?.standardError.contains(message) == true
            }
        }
    }

    /// A cap without stickers: the depth alone places the frames and writes the mesh.
    @Test func reconstructWithoutMarkersPlacesAPlainCapsFrames() throws {
        let folder = try TemporaryFolder()
        let scan = folder.path("plain.hscan")
        _ = try headscan(["simulate", "--out", scan, "--truth", folder.path("t.json"), "--seconds", "1", "--lost-share", "1"])
        let report = try jsonObject(headscan(["reconstruct", scan, "--without-markers", "--out", folder.path("head.ply"), "--json"]))
        #expect(report["framesExamined"] as? Int == 10)
        #expect(report["framesPlaced"] as? Int == 10)
        #expect((report["triangles"] as? Int ?? 0) > 1000)
        #expect(report["matchedColour"] as? Bool == false, "a plain cap shows no print")
        #expect(FileManager.default.fileExists(atPath: folder.path("head.ply")))
    }

    /// Landmarks without markers need the print: a plain cap says so and leaves the mesh
    /// written and no landmarks file. A printed cap seen for one second reads its head frame
    /// and finds all four, at the truth's distances from each other (before holes in the view
    /// were left out, the far side of the head seen through them hid the right ear's notch).
    @Test func landmarksWithoutMarkersNeedThePrint() throws {
        let folder = try TemporaryFolder()
        _ = try headscan(["simulate", "--out", folder.path("plain.hscan"), "--seconds", "1", "--lost-share", "1"])
        #expect {
            _ = try headscan([
                "reconstruct", folder.path("plain.hscan"), "--without-markers", "--out", folder.path("plain.ply"), "--landmarks-out",
                folder.path("plain.json"),
            ])
        } throws: { error in
            (error as? CommandFailed)?.standardError.contains("the cap showed no print") == true
        }
        #expect(FileManager.default.fileExists(atPath: folder.path("plain.ply")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("plain.json")))

        _ = try headscan([
            "simulate", "--out", folder.path("printed.hscan"), "--truth", folder.path("truth.json"), "--seconds", "1", "--lost-share", "1",
            "--printed-cap",
        ])
        _ = try headscan([
            "reconstruct", folder.path("printed.hscan"), "--without-markers", "--out", folder.path("printed.ply"), "--landmarks-out",
            folder.path("printed.json"),
        ])
        func points(_ object: [String: Any]) -> [String: SIMD3<Double>] {
            object.compactMapValues { value in
                guard let c = value as? [Double], c.count == 3 else { return nil }
                return SIMD3(c[0], c[1], c[2])
            }
        }
        let found = points(try jsonObject(Data(contentsOf: URL(fileURLWithPath: folder.path("printed.json")))))
        let truthObject = try jsonObject(Data(contentsOf: URL(fileURLWithPath: folder.path("truth.json"))))
        let truth = points(truthObject["landmarks"] as? [String: Any] ?? [:])
        let names = ["nasion", "noseTip", "leftTragion", "rightTragion"]
        #expect(names.allSatisfy { found[$0] != nil && truth[$0] != nil })
        for (k, a) in names.enumerated() {
            for b in names.dropFirst(k + 1) {
                guard let fa = found[a], let fb = found[b], let ta = truth[a], let tb = truth[b] else { continue }
                func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
                let off = abs(length(fa - fb) - length(ta - tb))
                #expect(off < 0.002, "\(a) to \(b): \(off * 1000) mm off the truth's distance")
            }
        }
    }

    @Test func aPrintedCapIsPlacedByItsColoursToo() throws {
        let folder = try TemporaryFolder()
        let scan = folder.path("printed.hscan")
        _ = try headscan(["simulate", "--out", scan, "--seconds", "1", "--lost-share", "1", "--printed-cap"])
        let report = try jsonObject(headscan(["reconstruct", scan, "--without-markers", "--out", folder.path("head.ply"), "--json"]))
        #expect(report["matchedColour"] as? Bool == true)
        #expect(report["framesPlaced"] as? Int == 10)
    }

    @Test func aPrintedCapNeitherSlidesNorStretchesAndBenchCapsAreNamed() throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (["simulate", "--out", folder.path("a.hscan"), "--printed-cap", "--cap-slide-deg", "8"], "does not slide or stretch"),
            (["bench", "markerless", "--caps", "plain,striped"], "'striped' is not a cap"),
        ] {
            #expect {
                _ = try headscan(arguments)
            } throws: { error in
                (error as? CommandFailed)?.standardError.contains(message) == true
            }
        }
    }

    @Test func benchLandmarksReusesOnlyScansKeptBefore() throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (["--keep", folder.path("a"), "--reuse", folder.path("b")], "exclude each other"),
            (["--reuse", folder.path("none")], "keep the scans first with --keep"),
        ] {
            #expect {
                _ = try headscan(["bench", "landmarks", "--only", "0"] + arguments)
            } throws: { error in
                (error as? CommandFailed)?.standardError.contains(message) == true
            }
        }
    }

    @Test func benchFormatPrintsSpeedsAndRatios() throws {
        let result = try jsonObject(headscan(["bench", "format", "--frames", "2", "--json"]))
        for key in ["writeFPS", "readFPS", "sizeRatio", "depthRatio", "pngDepthRatio"] {
            let value = try #require(result[key] as? Double, "bench format --json lacks \(key)")
            #expect(value > 0)
        }
        // Ratios are stored size over raw size: the depth codec beats 16-bit PNG.
        let depth = try #require(result["depthRatio"] as? Double), png = try #require(result["pngDepthRatio"] as? Double)
        #expect(depth < png && png < 1)
        #expect(try #require(result["sizeRatio"] as? Double) < 1)
    }
}

/// A folder removed when the test's value goes away.
final class TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("headscan-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A pipe read to its end on a thread of its own, so that a child filling it never blocks.
final class ReadToEnd: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

struct CommandFailed: Error, CustomStringConvertible {
    var arguments: [String], status: Int32, standardError: String
    var description: String { "headscan \(arguments.joined(separator: " ")) exited with \(status): \(standardError)" }
}

/// Runs the `headscan` built beside the test bundle and returns its standard output.
func headscan(_ arguments: [String]) throws -> Data {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("headscan")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw CommandFailed(arguments: arguments, status: -1, standardError: "no headscan binary at \(binary.path); build it first")
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = try ChildPipe(), errors = try ChildPipe()
    try process.run(input: nil, output: output, errors: errors)
    let errorReader = ReadToEnd(errors.reading)
    let data = output.reading.readDataToEndOfFile()
    let end = process.waitForEnd()
    let errorText = String(decoding: errorReader.wait(), as: UTF8.self)
    switch end {
    case .exited(0): break
    case .exited(let status): throw CommandFailed(arguments: arguments, status: status, standardError: errorText)
    case .signalled(let signal): throw CommandFailed(arguments: arguments, status: 128 + signal, standardError: errorText)
    }
    return data
}

func jsonObject(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

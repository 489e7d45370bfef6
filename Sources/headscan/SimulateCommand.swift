import ArgumentParser
import Cephalometry
import Evaluation
import Foundation
import Geometry
import Markers
import Recording
import ScanLibrary
import Simulation

/// `headscan simulate`: a synthetic scan of an infant head with exact ground truth.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a scan: an infant head with a marker cap seen by a virtual TrueDepth camera.",
        discussion: """
            Writes the scan, the true head mesh (PLY, metres, head frame: x to the right ear, \
            y forward, z up, reference plane z = 0) next to the truth file, and the truth JSON: \
            landmarks, marker corners in 3D, the true CVAI, CVA, cranial index and \
            circumference, and per frame the camera pose and the exact marker corners. The \
            same seed gives a byte-identical scan.

            Scenarios: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")).

            With --library DIR the scan becomes a session of that scan library instead, as \
            the app would record it, with truth.json and a simulated therapist's landmark \
            picks (annotations.json: each landmark in 2–3 frames where it is in view, up to \
            2 px off), ready for `headscan process`.

            Examples:
              headscan simulate --out scan.hscan --truth scan.truth.json
              headscan simulate --cap mycap.json --out scan.hscan   # the scan keeps the layout
              headscan simulate --library Scans --cvai 8      # then: headscan process Scans/new_…_Scan
              headscan simulate --scenario restless --cvai 8.5 --flat-side left --seconds 90 \\
                --out restless.hscan --truth restless.truth.json
              headscan simulate --head-mesh person.ply --head-landmarks person.json \\
                --head-circumference-mm 420 --out person.hscan --truth person.truth.json
              headscan simulate --bare-head dark --bare-hair-mm 4 --library Scans   # no cap at all

            No cap: --bare-head light or dark scans an infant without any cap, its own hair on \
            the vault from a hairline high on the forehead down to the nape. The depth camera \
            meets the hair's surface, --bare-hair-mm (default 3) at most and a third of it at \
            least above the scalp, unevenly; dark hair returns little of the infrared pattern, \
            so its depth drops out in patches. The truth keeps the skull. Measure such a scan \
            with `headscan process --without-markers`; it has neither stickers nor a print.

            Any head: --head-mesh scans a head surface given as a PLY mesh in metres (a \
            person's scalp from an MRI, a template, a 3D scan) instead of a drawn one, with \
            its nasion, nose tip and tragions from --head-landmarks (the JSON of `headscan \
            measure`). The mesh is moved into the head frame its landmarks define and, with \
            --head-circumference-mm, scaled to that circumference (an adult head to an \
            infant's size; ratios such as CVAI and CI do not change). The cap is fitted onto \
            it; stickers whose spot is not flat (over an ear, or a hole in the mesh) are left \
            off. The truth's measures are what `headscan measure` gives on the placed mesh \
            with the same landmarks, so a scan is judged against its source. The --cvai, \
            --cranial-index, --length-mm, --flat-side and --hair-mm options do not apply.
            """)

    @Option(help: "The situation to simulate.")
    var scenario = Scenario.ideal

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "Length of the scan in seconds (30 frames per second).")
    var seconds: Double = 60

    @Option(help: "The scan file to create.", completion: .file(extensions: ["hscan"]))
    var out: String?

    @Option(help: "The truth JSON to create; the mesh goes beside it as NAME.ply.")
    var truth: String?

    @Option(
        help: "Record into a new session of this scan library, with truth and simulated landmark picks (instead of --out).", completion: .directory)
    var library: String?

    @Option(help: "Target CVAI in percent (0 = symmetric).")
    var cvai: Double = 0

    @Option(help: "Flattened side: left or right.")
    var flatSide = FlatSide.right

    @Option(help: "Target cranial index (width / length × 100).")
    var cranialIndex: Double = 82

    @Option(help: "Head length in millimetres.")
    var lengthMM: Double = 140

    @Option(help: "Markers fallen off the cap (default: the scenario's).")
    var drop: Int?

    @OptionGroup var camera: CameraErrorOptions

    @Option(help: "Share of frames (0-1), in half-second spells, whose markers cannot be read (blank stickers; depth unchanged).")
    var unreadableFrames: Double = 0

    @Option(help: "Hair under the cap: the cap stands off the skull by up to this many millimetres, unevenly (0-10; an infant's hair 0-3).")
    var hairMm: Double = 0

    @Flag(help: "A cap too small that rides up: its lowest ring of stickers (forehead, ears, neck) is folded under.")
    var capRidesUp = false

    @Option(help: "Share of the stickers (0-1) that fell off, e.g. 0.33 for a third.")
    var lostShare: Double = 0

    @Option(help: "Share of the stickers left (0-1) whose print is smeared, torn or creased.")
    var damagedShare: Double = 0

    @Option(
        help:
            "The cap slides on the head once, in the middle of the scan, turning by this many degrees over 1.5 s (0-20; 8 moves a sticker about 10 mm)."
    )
    var capSlideDeg: Double = 0

    @Option(help: "The fabric stretches: stickers of the lower rings move against each other by up to this many millimetres (0-10).")
    var capStretchMm: Double = 0

    @Flag(help: "The cap's fabric is printed with blotches of two colours (navy and orange), to scan without stickers: add --lost-share 1.")
    var printedCap = false

    @Option(
        help: ArgumentHelp(
            "No cap at all: the infant's own hair covers the vault, light or dark (dark hair returns little depth to the infrared sensor).",
            valueName: "light|dark"))
    var bareHead: BareHair.Shade?

    @Option(help: "A bare head's hair stands off the scalp by up to this many millimetres, at least a third of it (0.5-15; default 3).")
    var bareHairMm: Double?

    @Flag(help: "The infant cries now and then: its jaw opens by up to 14° (15 mm at the chin) in 3 s spells while the skull stays still.")
    var crying = false

    @Flag(help: "The parent's hand cups the infant's nape, fingers up the back of the head; it stays with the parent while the head turns.")
    var parentHand = false

    @OptionGroup var meshOptions: HeadMeshOptions

    @OptionGroup var colorOptions: ColorOptions

    @OptionGroup var cap: CapOption

    @Flag(help: "Replace output files that exist.")
    var overwrite = false

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in 0...600") }
        guard unreadableFrames >= 0, unreadableFrames <= 1 else { throw ValidationError("--unreadable-frames must be in 0...1") }
        guard hairMm >= 0, hairMm <= 10 else { throw ValidationError("--hair-mm must be in 0...10") }
        guard lostShare >= 0, lostShare <= 1 else { throw ValidationError("--lost-share must be in 0...1") }
        guard damagedShare >= 0, damagedShare <= 1 else { throw ValidationError("--damaged-share must be in 0...1") }
        guard capSlideDeg >= 0, capSlideDeg <= 20 else { throw ValidationError("--cap-slide-deg must be in 0...20") }
        guard capStretchMm >= 0, capStretchMm <= 10 else { throw ValidationError("--cap-stretch-mm must be in 0...10") }
        guard (out == nil) != (library == nil) else { throw ValidationError("give either --out FILE or --library DIR") }
        if library != nil, truth != nil { throw ValidationError("--library keeps the truth in the session (truth.json); drop --truth") }
        if meshOptions.headMesh != nil, hairMm > 0 { throw ValidationError("--hair-mm is simulated on drawn heads only; drop it with --head-mesh") }
        if printedCap, capSlideDeg > 0 || capStretchMm > 0 {
            throw ValidationError("a --printed-cap is drawn on the head and does not slide or stretch; drop --cap-slide-deg and --cap-stretch-mm")
        }
        try validateBareHead()
    }

    /// A bare head wears nothing of a cap.
    private func validateBareHead() throws {
        guard let bareHead else {
            if bareHairMm != nil { throw ValidationError("--bare-hair-mm describes a --bare-head; give --bare-head light or dark") }
            return
        }
        if let bareHairMm, !(0.5...15).contains(bareHairMm) { throw ValidationError("--bare-hair-mm must be in 0.5...15") }
        if meshOptions.headMesh != nil { throw ValidationError("--bare-head is simulated on drawn heads only; drop it with --head-mesh") }
        let capOptions = [
            ("--hair-mm", hairMm > 0), ("--cap-rides-up", capRidesUp), ("--lost-share", lostShare > 0), ("--damaged-share", damagedShare > 0),
            ("--cap-slide-deg", capSlideDeg > 0), ("--cap-stretch-mm", capStretchMm > 0), ("--printed-cap", printedCap),
        ].filter(\.1).map(\.0)
        if !capOptions.isEmpty {
            throw ValidationError("a --bare-head \(bareHead.rawValue) wears no cap; drop \(capOptions.joined(separator: ", "))")
        }
    }

    func run() throws {
        let head = HeadParameters(lengthMM: lengthMM, cranialIndex: cranialIndex, cvai: cvai, flatSide: flatSide)
        var configuration = Simulator.Configuration(
            scenario: scenario, seed: seed, seconds: seconds, head: head,
            layout: try cap.layout() ?? .standard, droppedMarkers: drop, unreadableFrames: unreadableFrames)
        configuration.meshHead = try meshOptions.load()
        configuration.recordedFocalError = camera.focalError / 100
        configuration.sensor.depthScale = Float(1 + camera.depthScaleError / 100)
        configuration.sensor.depthShiftPixels = camera.depthShiftPixels.flatMap { $0 == .zero ? nil : $0 }
        configuration.recordedPrincipalShift = camera.shift ?? .zero
        configuration.intrinsics.distortion = camera.distortion ?? .none
        configuration.recordsDistortion = !camera.distortionUnrecorded
        configuration.capFit = CapFit(
            hairMillimetres: hairMm, ridesUp: capRidesUp, lostShare: lostShare, damagedShare: damagedShare, slideDegrees: capSlideDeg,
            stretchMillimetres: capStretchMm, printed: printedCap)
        if let bareHair { configuration.capFit = .bare(bareHair) }
        configuration.crying = crying
        configuration.parentHand = parentHand
        let simulator = try Simulator(configuration)
        let scanLibrary = library.map { ScanLibrary(root: fileURL($0)) }
        let session = try scanLibrary?.createSession(date: Date())
        let scanURL = session?.scanURL ?? fileURL(out!)
        let writer = try ScanWriter(
            url: scanURL, header: header(simulator), options: .init(colorCodec: colorOptions.codec, overwrite: overwrite))
        var frames: [FrameTruth] = []
        var bar = ProgressBar("Simulating")
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            while let simulated = simulator.nextFrame() {
                try writer.append(simulated.frame)
                frames.append(simulated.truth)
                bar.update(frames.count, of: simulator.frameCount)
            }
            try writer.close()
        }
        print("Wrote \(frames.count) frames to \(scanURL.path) (\(String(format: "%.1f", Double(frames.count) / elapsed.seconds)) frames/s)")
        if let truth { try writeTruth(simulator, frames: frames, to: fileURL(truth)) }
        if let scanLibrary, let session {
            try writeTruth(simulator, frames: frames, to: session.url.appendingPathComponent(SessionFolder.truthFileName))
            let picks = try SimulatedPicks.annotations(simulator, frames: frames, scan: scanURL, seed: seed)
            try scanLibrary.saveAnnotations(picks, in: session)
            print("Session \(session.url.path) with simulated landmark picks; measure it with: headscan process \(session.url.path)")
        }
        if configuration.meshHead != nil {
            print(
                "Cap: \(simulator.cap.stickers.count) of \(simulator.configuration.layout.markers.count) stickers placed, "
                    + "\(simulator.cap.folded.count) left off where the head is not flat enough to hold one (an ear, a hole in the mesh)")
        }
        let m = simulator.measurements
        print(String(format: "Head: CVAI %.2f %%, CVA %.2f mm, CI %.1f, circumference %.1f mm", m.cvai, m.cvaMM, m.ci, m.circumferenceMM))
    }

    private func header(_ simulator: Simulator) -> ScanHeader {
        let k = simulator.configuration.recordedIntrinsics
        var metadata = [
            "scenario": scenario.rawValue, "seed": "\(seed)", "unreadableFrames": "\(unreadableFrames)",
            "droppedMarkers": "\(simulator.cap.dropped.count)",
        ]
        if crying { metadata["crying"] = "true" }
        if parentHand { metadata["parentHand"] = "true" }
        metadata.merge(capFitMetadata(simulator)) { old, _ in old }
        metadata.merge(headMetadata(simulator)) { old, _ in old }
        return ScanHeader(
            device: "simulator", appVersion: HeadScanVersion.current, colorIntrinsics: k, depthIntrinsics: k,
            layout: simulator.configuration.layout, createdAt: Date(timeIntervalSince1970: 1_767_225_600), metadata: metadata)
    }

    /// The drawn head's target CVAI and flat side, or the given head's file name and scale.
    private func headMetadata(_ simulator: Simulator) -> [String: String] {
        guard let given = simulator.configuration.meshHead, let headMesh = meshOptions.headMesh else {
            return ["cvai": "\(cvai)", "flatSide": flatSide.rawValue]
        }
        return [
            "headMesh": URL(fileURLWithPath: headMesh).lastPathComponent, "headMeshScale": String(format: "%.4f", given.scale),
            "leftOffMarkers": "\(simulator.cap.folded.count)",
        ]
    }

    /// The hair of --bare-head and --bare-hair-mm, when the head is bare.
    private var bareHair: BareHair? {
        bareHead.map { BareHair(shade: $0, thicknessMillimetres: bareHairMm ?? 3) }
    }

    /// The cap's fit, only when it is not perfect (so a perfect cap's recording stays as it was).
    private func capFitMetadata(_ simulator: Simulator) -> [String: String] {
        guard simulator.configuration.capFit != .perfect else { return [:] }
        if let bareHair {
            return ["bareHead": bareHair.shade.rawValue, "bareHairMillimetres": "\(bareHair.thicknessMillimetres)"]
        }
        return [
            "hairMillimetres": "\(hairMm)", "capRidesUp": "\(capRidesUp)", "foldedMarkers": "\(simulator.cap.folded.count)",
            "damagedMarkers": "\(simulator.cap.stickers.count { $0.damage != nil })", "capSlideDegrees": "\(capSlideDeg)",
            "capStretchMillimetres": "\(capStretchMm)", "capPrinted": "\(printedCap)",
        ]
    }

    private func writeTruth(_ simulator: Simulator, frames: [FrameTruth], to url: URL) throws {
        let meshURL = url.deletingPathExtension().appendingPathExtension("ply")
        let meshName = meshURL.lastPathComponent
        for target in [url, meshURL] where !overwrite && FileManager.default.fileExists(atPath: target.path) {
            throw ToolError("\(target.path) exists; pass --overwrite to replace it")
        }
        try Data(PLY.encode(simulator.mesh, comment: "HeadScan simulated head, metres, head frame")).write(to: meshURL)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(simulator.truth(frames: frames, meshFile: meshName)).write(to: url)
        print("Wrote truth to \(url.path) and the mesh to \(meshURL.path)")
    }
}

import ArgumentParser
import Evaluation
import Foundation
import Geometry
import Reconstruction
import Simulation

/// `headscan bench markerless`: scans under a cap without stickers, reconstructed from the
/// depth alone.
struct MarkerlessBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markerless",
        abstract:
            "Benchmark scans without stickers: a plain cap placed by its depth, a printed one by its depth and colour, a bare head by its hair.",
        discussion: """
            Simulates --heads heads (length 120–160 mm, cranial index 72–98, CVAI 0–15 %) \
            wearing the cap with every sticker gone (--caps: plain, a stocking cap; printed, its \
            fabric printed with blotches of two colours), or no cap at all (bare-light, \
            bare-dark: the infant's own hair, standing off the scalp by up to --bare-hair-mm, \
            drawn per head, dark hair losing its depth in patches), ideal and restless, and reconstructs \
            each without markers: every third frame's depth and colour registered against the \
            surface fused so far, starting from where the camera was going (--no-colour: the \
            depth alone). Each frame reaches the reconstruction as its scan file gives it back \
            (JPEG colour at quality 92, read as reconstruct --without-markers reads it; \
            --raw-frames skips that). The reconstruction is placed in the \
            head frame by the first placed frame's true pose and compared with the truth: the \
            camera's placement over the scan (the largest turn and shift from the truth: drift), \
            the skull surface under the cap, and CVAI measured with the true landmarks, so that \
            the reconstruction alone is judged, not a landmark search ("fitted": the same after \
            the reconstruction was moved as a whole onto the true vault). A scan is refused when \
            too few frames could be placed (as soon as even the frames left could not make half), \
            or when a tenth of the frames checked afterwards (every fifth) have less than 92 % of \
            their points on the finished surface (on a printed cap, where a view shows the print, \
            less than 90 % of its print on the same colour of the finished surface's): the \
            placement went astray; how far each such scan had drifted is listed beside the refusal.

            On a printed cap the second table goes on as a clinic would, without the truth: \
            the head frame read from the print's colours on the reconstruction (its turn and \
            shift from the true head frame), HeadScan's landmark search from that frame (the \
            largest distance of the four landmarks from the true ones) and CVAI measured with \
            them; with --repeats, the largest spread of that CVAI over one head's scans \
            (`headscan process --without-markers` measures such a scan the same way).

            --head-mesh scans a head surface given as a mesh with its landmarks, as \
            `headscan simulate --head-mesh` does (Benchmarks/real-heads brings public real \
            heads), --repeats times per cap and scenario; CVAI's truth is then the mesh's own \
            with its landmarks.

            The simulated therapist walks a planned path round the head whatever the guide \
            says; --operator-follows has them do what the guide without markers tells them, as \
            the app asks: step back when too close, move the phone toward the head when it left \
            the picture, stop and point the phone at the head when told there is none in the \
            picture (at most 3 s), and when the head is in the picture but was lost ("slowly go \
            back to a part already scanned") walk back the way they came until it is found \
            again (at most 3 s), then carry on from there. The guide hears every frame, as it \
            does live.

            Examples:
              swift run -c release headscan bench markerless --heads 3 --seconds 20
              swift run -c release headscan bench markerless --heads 10 --seed 101 --json
              swift run -c release headscan bench markerless --caps plain --no-colour
              swift run -c release headscan bench markerless --caps printed --heads 10 --repeats 5
              swift run -c release headscan bench markerless --caps bare-light,bare-dark --bare-hair-mm 1-6
              swift run -c release headscan bench markerless --caps printed --crying --parent-hand
              swift run -c release headscan bench markerless --caps printed --heads 10 --operator-follows
              swift run -c release headscan bench markerless --caps printed --repeats 3 \\
                --head-mesh head.ply --head-landmarks head.landmarks.json --head-circumference-mm 420
            """)

    @Option(help: "Different heads per scenario (default: 3; with --head-mesh the one head given).")
    var heads: Int?

    @OptionGroup(title: "A given head surface instead of drawn heads (scanned --repeats times per cap and scenario)")
    var meshOptions: HeadMeshOptions

    @Option(help: "Scans of each head per scenario, each with its own motion and noise (the spread per head is then reported).")
    var repeats = 1

    @Option(help: "Seconds per scan.")
    var seconds = 20.0

    @Option(help: "Seed of the heads and scans.")
    var seed: UInt64 = 31

    @Option(help: "The caps, comma-separated: plain, printed, bare-light, bare-dark (no cap: the infant's own hair).")
    var caps = "plain,printed"

    @Option(help: "On a bare head, the most its hair stands off the scalp, millimetres: drawn per head from LOW-HIGH (within 0.5-15).")
    var bareHairMm = "1-6"

    @Flag(help: "The infants cry now and then: the jaw opens by up to 14° in 3 s spells while the skull stays still.")
    var crying = false

    @Flag(help: "The parent's hand cups each infant's nape, fingers up the back of the head, staying with the parent as the head turns.")
    var parentHand = false

    @Flag(help: "The simulated therapist does what the guide without markers says (walks back when the head was lost).")
    var operatorFollows = false

    @Flag(help: "Register the frames by their depth alone, not their colour too.")
    var noColour = false

    @Flag(help: "Give the reconstruction the rendered frames as they are, not as a scan file gives them back (JPEG colour).")
    var rawFrames = false

    @Option(help: "Trials run side by side; the figures do not depend on it.")
    var jobs = 2

    @Option(help: "Threads each reconstruction uses for fusion.")
    var threads = 1

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard (heads ?? 1) >= 1 else { throw ValidationError("--heads must be at least 1") }
        if meshOptions.headMesh != nil {
            if heads != nil { throw ValidationError("--head-mesh is the one head scanned; drop --heads (--repeats scans it more often)") }
            if try coverings().contains(where: { $0.shade != nil }) {
                throw ValidationError("a bare head's hair is simulated on drawn heads only; with --head-mesh choose --caps plain,printed")
            }
        }
        guard (1...20).contains(repeats) else { throw ValidationError("--repeats must be in 1...20") }
        guard seconds >= 5, seconds <= 120 else { throw ValidationError("--seconds must be in 5...120") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        _ = try coverings()
        _ = try hairRange()
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        var random = SplitMix64(seed: seed)
        let meshHead = try meshOptions.load()
        let drawn = (0..<(meshHead == nil ? heads ?? 3 : 1)).map { _ in LandmarkTrial.drawHead(&random) }
        let hair = try hairRange()
        // One head keeps one thickness of hair, light or dark, ideal or restless.
        var hairRandom = SplitMix64(seed: seed ^ 0x6861_6972)
        let thickness = drawn.map { _ in hair.lowerBound + (hair.upperBound - hair.lowerBound) * Double(hairRandom.next() >> 11) * 0x1p-53 }
        let cases = try coverings().flatMap { covering in
            [Scenario.ideal, .restless].flatMap { scenario in
                drawn.indices.flatMap { index in (0..<repeats).map { (covering: covering, scenario: scenario, index: index, repeat: $0) } }
            }
        }
        let options = {
            var options = ReconstructionOptions()
            options.frameStride = ReconstructionOptions.headScanStride
            options.threads = threads
            return options
        }()
        let slots = TrialSlots<MarkerlessTrial>(count: cases.count)
        let (jobs, seed, seconds, usesColour, recorded) = (self.jobs, self.seed, self.seconds, !noColour, !rawFrames)
        let (crying, parentHand, operatorFollows) = (self.crying, self.parentHand, self.operatorFollows)
        DispatchQueue.concurrentPerform(iterations: min(jobs, cases.count)) { worker in
            for k in stride(from: worker, to: cases.count, by: jobs) {
                let c = cases[k]
                slots.record(
                    k,
                    Result {
                        try MarkerlessTrial.run(
                            scenario: c.scenario, seed: Self.scanSeed(seed, head: c.index, repeat: c.repeat), head: drawn[c.index], seconds: seconds,
                            printed: c.covering == .printed,
                            bareHair: c.covering.shade.map { BareHair(shade: $0, thicknessMillimetres: thickness[c.index]) }, crying: crying,
                            parentHand: parentHand,
                            usesColour: usesColour, recorded: recorded, options: options, meshHead: meshHead,
                            operatorFollows: operatorFollows)
                    })
            }
        }
        let trials = try slots.results()
        try outputOptions.emit(MarkerlessBenchResult(trials: trials, heads: cases.map(\.index)))
    }

    /// The first scan of each head keeps the seed it had before repeats existed; the others
    /// are drawn far from every first one.
    static func scanSeed(_ seed: UInt64, head: Int, repeat r: Int) -> UInt64 {
        seed &+ UInt64(head) &+ UInt64(r) &* 100_003
    }

    /// What a benchmarked head wears.
    enum Covering: String, CaseIterable {
        case plain, printed
        case bareLight = "bare-light", bareDark = "bare-dark"

        /// The hair's shade when the head is bare.
        var shade: BareHair.Shade? {
            switch self {
            case .plain, .printed: nil
            case .bareLight: .light
            case .bareDark: .dark
            }
        }
    }

    /// `--caps` read.
    private func coverings() throws -> [Covering] {
        let names = caps.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let choices = Covering.allCases.map(\.rawValue).joined(separator: ", ")
        guard !names.isEmpty else { throw ValidationError("--caps needs at least one of \(choices)") }
        return try names.map { name in
            guard let covering = Covering(rawValue: name) else {
                throw ValidationError("--caps: '\(name)' is not a cap; choose from \(choices), comma-separated")
            }
            return covering
        }
    }

    /// `--bare-hair-mm` read: LOW-HIGH, or one value for both.
    private func hairRange() throws -> ClosedRange<Double> {
        let parts = bareHairMm.split(separator: "-", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil, low <= high,
            (0.5...15).contains(low), (0.5...15).contains(high)
        else { throw ValidationError("--bare-hair-mm must be LOW-HIGH millimetres within 0.5-15, e.g. 1-6, or one value such as 3") }
        return low...high
    }
}

extension MarkerlessBenchResult: TextReport {
    var text: String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
        var table = TextTable([
            .left("cap", 10), .left("scenario", 10), .right("surface", 8), .right("CVAI err median", 16), .right("max", 6), .right("fitted", 7),
            .right("max", 6),
            .right("≤0.3", 6),
            .right("≤0.5", 6), .right("surface mm", 11), .right("worst", 7), .right("drift °, median/worst", 22),
            .right("shift mm", 9), .right("≤5° for s", 10), .right("placed", 7), .right("s", 6),
        ])
        for g in groups {
            table.add([
                g.cap, g.scenario, "\(g.reconstructed)/\(g.scans)", f(g.cvaiErrorMedian), f(g.cvaiErrorMax), f(g.cvaiFittedErrorMedian),
                f(g.cvaiFittedErrorMax), "\(g.within03)", "\(g.within05)",
                f(g.surfaceMeanMM), f(g.surfaceWorstMM), "\(f(g.turnMaxMedianDegrees))/\(f(g.turnMaxWorstDegrees))",
                f(g.shiftMaxMedianMM), f(g.secondsWithinFiveDegreesMedian), g.placedShare.map { String(format: "%.0f %%", $0 * 100) } ?? "–",
                f(g.secondsMedian),
            ])
        }
        let astray =
            groups.filter { $0.refusedAstray > 0 }.map { g in
                "refused as placed astray (\(g.cap), \(g.scenario)): \(g.refusedAstray), drifted "
                    + g.astrayDrifts.map { String(format: "%.0f°", $0) }.joined(separator: ", ")
            }
            + groups.filter { $0.refusedForHole > 0 }.map { g in
                "refused for a part never placed (\(g.cap), \(g.scenario)): \(g.refusedForHole), measured CVAI would be off by "
                    + g.holeCVAIErrors.map { String(format: "%.2f", $0) }.joined(separator: ", ")
            }
        var byPrint = TextTable([
            .left("printed cap", 12), .left("scenario", 10), .right("head frame", 11), .right("turn °, median/worst", 21),
            .right("shift mm", 9), .right("landmarks", 10), .right("mm, median/worst", 17), .right("CVAI err median", 16),
            .right("max", 6), .right("≤0.3", 6), .right("≤0.5", 6), .right("spread per head, worst", 23), .right("s", 6),
        ])
        for g in groups where g.cap == "printed" {
            byPrint.add([
                g.cap, g.scenario, "\(g.printAligned)/\(g.reconstructed)", "\(f(g.printTurnMedianDegrees))/\(f(g.printTurnMaxDegrees))",
                f(g.printShiftMaxMM), "\(g.automatic)/\(g.printAligned)", "\(f(g.landmarkErrorMedianMM))/\(f(g.landmarkErrorMaxMM))",
                f(g.cvaiAutomaticErrorMedian), f(g.cvaiAutomaticErrorMax), "\(g.automaticWithin03)", "\(g.automaticWithin05)",
                f(g.automaticSpreadWorst), f(g.printSecondsMedian),
            ])
        }
        let printed =
            groups.contains { $0.cap == "printed" }
            ? ["", "The head frame read from the print, and the landmarks searched from it:"] + byPrint.lines : []
        let printRefusals = groups.flatMap { g in
            g.printRefusals.map { "print not read (\(g.cap), \(g.scenario)): \($0)" }
                + g.landmarkRefusals.map { "no landmarks (\(g.cap), \(g.scenario)): \($0)" }
        }
        return
            (table.lines + astray + groups.flatMap { g in g.refusals.map { "refused (\(g.cap), \(g.scenario)): \($0)" } } + printed
            + printRefusals)
            .joined(separator: "\n")
    }
}

import Cephalometry
import Feedback
import Foundation
import Geometry
import Imaging
import Processing
import Reconstruction
import Recording
import Scanning
import Simulation

/// One simulated scan without stickers (the plain cap: every sticker gone), reconstructed by
/// registering depth against the fused surface alone, against the truth: how far the camera's
/// placement drifted, the skull surface, and CVAI measured with the true landmarks (so that only
/// the reconstruction, not a landmark search, is judged).
public struct MarkerlessTrial: Codable, Sendable {
    /// "plain" (a stocking cap), "printed" (its fabric printed with a pattern), or no cap:
    /// "bare-light" or "bare-dark" (the infant's own hair).
    public var cap: String
    /// On a bare head, the most its hair stands off the scalp, mm.
    public var bareHairMM: Double?
    /// Whether the infant cried now and then (its jaw opening while the skull stays still).
    public var crying = false
    /// Whether the parent's hand cupped the infant's nape.
    public var parentHand = false
    /// Whether the simulated therapist did what the guide without markers said (as the app
    /// asks), or walked the planned path regardless; and for how many frames they walked back
    /// on being told the head was lost.
    public var operatorFollows = false
    public var framesWalkingBack = 0
    public var scenario: String
    public var seed: UInt64
    public var trueCVAI: Double
    /// CVAI of the reconstruction, placed in the head frame by the first placed frame's true
    /// pose, measured with the true landmarks.
    public var cvai: Double?
    /// Mean distance of the reconstructed vault (above the cap's edge) from the true skull, mm,
    /// placed the same way: drift shows here as a doubled or smeared surface.
    public var surfaceMeanMM: Double?
    /// The same after the reconstruction was moved as a whole onto the true vault (a best
    /// rigid fit), which a landmark search on the reconstruction itself would not see; and how
    /// far that fit moved it, mm at 70–90 mm from the head's centre.
    public var cvaiFitted: Double?
    public var surfaceFittedMM: Double?
    public var fitMillimetres: Double?
    /// The camera's placement against the truth over the placed frames: median and largest
    /// turn (degrees) and shift (mm), and at the last placed frame.
    public var turnMedianDegrees: Double?
    public var turnMaxDegrees: Double?
    public var shiftMedianMM: Double?
    public var shiftMaxMM: Double?
    /// How long after the first placed frame the placement first strayed more than 5° from
    /// the truth (the whole scan when it never did), seconds.
    public var secondsWithinFiveDegrees: Double?
    public var framesExamined = 0
    public var framesPlaced = 0
    public var framesFused = 0
    /// Frames placed again after the head was lost, and whether colour was matched (a print seen).
    public var framesFoundAgain = 0
    public var matchedColour = false
    /// The checked frames' share of points on the finished surface: median and lowest tenth.
    public var agreementMedian: Double?
    public var agreementLowTenth: Double?
    /// The lowest checked frame's share, and how many checked frames fell under their own
    /// least share (a placement astray for a moment shows in a few of them).
    public var agreementLowest: Double?
    /// What measuring with the true landmarks warned of (an outline bridged over holes, …).
    public var measureWarnings: [String] = []
    public var checkedBelow = 0
    public var checkedViews = 0
    /// The reconstruction's own time, the simulator's rendering left out, seconds.
    public var seconds: Double?
    /// On a printed cap: how far the head frame read from the print (`PrintAligner`) lies
    /// from the true one, the turn (degrees) and the largest shift of points 70–90 mm around
    /// the head's centre (mm); or why the print told nothing.
    public var printTurnDegrees: Double?
    public var printShiftMM: Double?
    public var printAgreement: Double?
    public var printRefusal: String?
    /// Then HeadScan's own landmark search from that head frame, as processing runs it from
    /// the stickers': the largest distance of the four landmarks from the true ones (mm), CVAI
    /// measured with them; or why the search found none.
    public var landmarkErrorMaxMM: Double?
    /// Each found landmark's distance from the true one, mm: nasion, nose tip, left and right
    /// tragion.
    public var landmarkErrorsMM: [Double]?
    /// The same as offsets in the true head frame (x right, y forward, z up), mm.
    public var landmarkOffsetsMM: [[Double]]?
    public var cvaiAutomatic: Double?
    public var landmarkRefusal: String?
    /// Where the whole search refused: each landmark searched alone from the same head frame
    /// (`LandmarkDetector.eachAlone`), the distance of those found from the true ones (mm) and
    /// why the others were not found, keyed by the landmark's name.
    public var aloneErrorsMM: [String: Double]?
    /// The same as offsets in the head frame (x to the right ear, y forward, z up), mm.
    public var aloneOffsetsMM: [String: [Double]]?
    public var aloneRefusals: [String: String]?
    /// The print's reading and the landmark search, seconds.
    public var printSeconds: Double?
    /// Why no surface came out, in the words a therapist would read.
    public var refusal: String?
    /// Refused because its views did not lie on the finished surface (its figures are those of
    /// the surface it would have given).
    public var refusedAstray = false
    /// Refused as processing refuses it: measured with the true landmarks, a diagonal or extent
    /// ends where the scan has no surface (its figures stand as measured; `refusal` says why).
    public var refusedForHole = false

    public var cvaiError: Double? { cvai.map { abs($0 - trueCVAI) } }
    public var cvaiAutomaticError: Double? { cvaiAutomatic.map { abs($0 - trueCVAI) } }
    public var cvaiFittedError: Double? { cvaiFitted.map { abs($0 - trueCVAI) } }

    /// Simulates the scan under a cap without stickers (`printed`: its fabric printed with a
    /// pattern) and reconstructs it without markers (`usesColour`: matching the frames' colour
    /// as well as their depth). `recorded`: each frame goes through the recording's codecs
    /// first (its colour as JPEG at the scan file's quality, its depth through the depth
    /// codec), as a scan read from its file does: JPEG's blocks and halved colour blur the
    /// print's edges that the colour matching reads.
    /// `bareHair`: no cap at all, the head's own hair (`printed` is then ignored); `crying`: the
    /// infant's jaw opens now and then; `parentHand`: the parent's hand cups the nape;
    /// `meshHead`: a head surface given as a mesh scanned instead of `head`. `operatorFollows`:
    /// the therapist hears the guide without markers on every frame and does what it says.
    public static func run(
        scenario: Scenario, seed: UInt64, head: HeadParameters, seconds: Double, printed: Bool = false, bareHair: BareHair? = nil,
        crying: Bool = false, parentHand: Bool = false, usesColour: Bool = true, recorded: Bool = true, options: ReconstructionOptions = .init(),
        meshHead: MeshHead? = nil, operatorFollows: Bool = false
    ) throws -> MarkerlessTrial {
        var configuration = Simulator.Configuration(scenario: scenario, seed: seed, seconds: seconds, head: head)
        configuration.meshHead = meshHead
        configuration.capFit = bareHair.map(CapFit.bare) ?? CapFit(lostShare: 1, printed: printed)
        configuration.crying = crying
        configuration.parentHand = parentHand
        let simulator = try Simulator(configuration)
        let cap = bareHair.map { "bare-\($0.shade.rawValue)" } ?? (printed ? "printed" : "plain")
        var trial = MarkerlessTrial(cap: cap, scenario: scenario.rawValue, seed: seed, trueCVAI: simulator.measurements.cvai)
        trial.bareHairMM = bareHair?.thicknessMillimetres
        trial.crying = crying
        trial.parentHand = parentHand
        trial.operatorFollows = operatorFollows
        let therapist = SimulatedOperator(follows: operatorFollows)
        let guide = try operatorFollows ? Self.surfaceGuide(telling: therapist) : nil
        // The simulator renders in order; the reconstruction asks for frames in order too.
        var truths: [Int: FrameTruth] = [:]
        var produced = -1
        // Rendering happens inside the reconstruction's reading; its time is taken out.
        let clock = ContinuousClock()
        var rendering = Duration.zero
        let frame: (Int) -> RGBDFrame? = { index in
            let start = clock.now
            defer { rendering += clock.now - start }
            while produced < index, let next = simulator.nextFrame(steering: therapist.steering) {
                produced = next.truth.index
                // The guide hears every frame the phone records, as it does live.
                if let guide {
                    _ = try? guide.process(next.frame)
                    if therapist.steering == .goBack { trial.framesWalkingBack += 1 }
                }
                if produced == index {
                    truths[index] = next.truth
                    return recorded ? Self.recorded(next.frame) : next.frame
                }
            }
            return nil
        }
        let result: MarkerlessReconstruction
        // Refused for views placed inconsistently: measured anyway, to show what it saved.
        var reconstructor = MarkerlessReconstructor(options: options)
        reconstructor.refusesAstray = false
        reconstructor.usesColour = usesColour
        do {
            result = try reconstructor.reconstruct(frameCount: simulator.frameCount, frame: frame)
            do {
                try result.checkAgreement(minimum: reconstructor.minimumAgreement, print: reconstructor.minimumPrintAgreement)
            } catch {
                trial.refusal = "\(error)"
                trial.refusedAstray = true
            }
        } catch {
            trial.refusal = "\(error)"
            return trial
        }
        trial.framesExamined = result.framesExamined
        trial.framesPlaced = result.poses.count
        trial.framesFused = result.framesFused
        trial.framesFoundAgain = result.framesFoundAgain
        trial.matchedColour = result.matchedColour
        let shares = result.checked.map(\.agreement).sorted()
        trial.agreementMedian = median(shares)
        trial.agreementLowTenth = shares.isEmpty ? nil : shares[shares.count / 10]
        trial.agreementLowest = shares.first
        trial.checkedViews = result.checked.count
        trial.checkedBelow =
            result.checked.filter {
                $0.agreement < ($0.byPrint ? reconstructor.minimumPrintAgreement : reconstructor.minimumAgreement)
            }.count
        trial.seconds = result.seconds - Double(rendering.components.seconds) - Double(rendering.components.attoseconds) * 1e-18
        guard let first = result.poses.first, let firstTruth = truths[first.frameIndex] else { return trial }
        let headFromWorld = rigid(firstTruth.meshFromCamera) * first.worldFromCamera.inverse
        var turns: [Double] = [], shifts: [Double] = []
        for pose in result.poses {
            guard let truth = truths[pose.frameIndex] else { continue }
            let error = (headFromWorld * pose.worldFromCamera).inverse * rigid(truth.meshFromCamera)
            turns.append(error.rotation.angle * 180 / Double.pi)
            if trial.secondsWithinFiveDegrees == nil, turns.last ?? 0 > 5 { trial.secondsWithinFiveDegrees = pose.timestamp - first.timestamp }
            shifts.append(length(error.translation) * 1000)
        }
        if trial.secondsWithinFiveDegrees == nil { trial.secondsWithinFiveDegrees = (result.poses.last?.timestamp ?? 0) - first.timestamp }
        trial.turnMedianDegrees = median(turns)
        trial.turnMaxDegrees = turns.max()
        trial.shiftMedianMM = median(shifts)
        trial.shiftMaxMM = shifts.max()
        let mesh = result.mesh.transformed(by: headFromWorld)
        let measured = try? Cephalometer.measure(mesh, landmarks: simulator.landmarks).measurement
        trial.cvai = measured?.cvai
        trial.measureWarnings = measured?.warnings.map(\.description) ?? []
        // Processing does not measure over a hole of a scan without stickers; nor does the bench.
        if let hole = measured.flatMap({ SessionProcessor.refusalWithoutMarkers($0.warnings) }) {
            trial.refusal = "\(hole)"
            trial.refusedForHole = true
        }
        if result.matchedColour { trial.measureByPrint(result.mesh, headFromWorld: headFromWorld, truth: simulator.landmarks) }
        guard let grid = ClosestPointGrid(simulator.mesh, cellSize: 0.005) else { return trial }
        trial.surfaceMeanMM = vaultDistance(mesh, grid)
        // The same surface moved as a whole onto the true vault: what is left is its shape.
        if let fit = bestFit(mesh, grid) {
            let fitted = mesh.transformed(by: fit)
            trial.cvaiFitted = try? Cephalometer.measure(fitted, landmarks: simulator.landmarks).measurement.cvai
            trial.surfaceFittedMM = vaultDistance(fitted, grid)
            trial.fitMillimetres = probes.map { length(fit.apply($0) - $0) }.max().map { $0 * 1000 }
        }
        return trial
    }

    /// The guide without markers as the app runs it, telling `therapist`.
    static func surfaceGuide(telling therapist: SimulatedOperator) throws -> ScanPipeline {
        var settings = FeedbackSettings()
        settings.withoutMarkers = true
        return ScanPipeline(guide: try FrameGuide(layout: .standard, settings: settings, sinks: [therapist]))
    }

    /// `frame` as `reconstruct --without-markers` reads it from its scan file: the colour
    /// through JPEG at the recording's quality, decoded with its colour interpolated back to
    /// full resolution (`ImageCodecs.colourExact`), the depth through the depth codec; nil
    /// (the frames end there, and the reconstruction says how many it saw) when a codec fails.
    static func recorded(_ frame: RGBDFrame) -> RGBDFrame? {
        guard case .jpeg(let quality) = ColorCodec.standard,
            let bytes = try? ImageCodecs.system.encodeJPEG(frame.color, quality: quality),
            let color = try? ImageCodecs.colourExact.decodeJPEG(bytes),
            let depth = try? DepthCodec.decode(DepthCodec.encode(frame.depth))
        else { return nil }
        var copy = frame
        copy.color = color
        copy.depth = depth
        return copy
    }

    /// The head frame read from the print on `world` (the reconstruction as it came out), the
    /// landmarks searched from it, and CVAI measured with them, against the truth.
    mutating func measureByPrint(_ world: TriangleMesh, headFromWorld truth: RigidTransform, truth landmarks: HeadLandmarks) {
        let clock = ContinuousClock()
        let started = clock.now
        defer { printSeconds = (clock.now - started).seconds }
        let alignment: PrintAlignment
        do {
            alignment = try PrintAligner.align(world)
        } catch {
            printRefusal = "\(error)"
            return
        }
        let error = alignment.headFromMesh * truth.inverse
        printTurnDegrees = error.rotation.angle * 180 / Double.pi
        printShiftMM = Self.probes.map { length(error.apply($0) - $0) }.max().map { $0 * 1000 }
        printAgreement = alignment.agreement
        let orientation = HeadOrientation(headFromMesh: alignment.headFromMesh, capRim: alignment.capRim)
        do {
            let found = try LandmarkDetector.detect(world, orientation: orientation)
            let inHead = found.landmarks.transformed(by: truth)
            let errors = [
                length(inHead.nasion - landmarks.nasion), length(inHead.noseTip - landmarks.noseTip),
                length(inHead.leftTragion - landmarks.leftTragion), length(inHead.rightTragion - landmarks.rightTragion),
            ].map { $0 * 1000 }
            landmarkErrorsMM = errors
            landmarkOffsetsMM = [
                inHead.nasion - landmarks.nasion, inHead.noseTip - landmarks.noseTip, inHead.leftTragion - landmarks.leftTragion,
                inHead.rightTragion - landmarks.rightTragion,
            ].map { [$0.x * 1000, $0.y * 1000, $0.z * 1000] }
            landmarkErrorMaxMM = errors.max()
            let automatic = try? Cephalometer.measure(world, landmarks: found.landmarks).measurement
            if let hole = automatic.flatMap({ SessionProcessor.refusalWithoutMarkers($0.warnings) }) {
                landmarkRefusal = "\(hole)"
            } else {
                cvaiAutomatic = automatic?.cvai
            }
        } catch {
            landmarkRefusal = "\(error)"
            measureAlone(world, orientation: orientation, headFromWorld: truth, truth: landmarks)
        }
    }

    /// Each landmark searched alone, for a head the whole search refused.
    private mutating func measureAlone(
        _ world: TriangleMesh, orientation: HeadOrientation, headFromWorld truth: RigidTransform, truth landmarks: HeadLandmarks
    ) {
        var errors: [String: Double] = [:], offsets: [String: [Double]] = [:], refusals: [String: String] = [:]
        for (landmark, result) in LandmarkDetector.eachAlone(world, orientation: orientation) {
            switch result {
            case .success(let point):
                let offset = (truth.apply(point) - landmarks[landmark]) * 1000
                errors[landmark.rawValue] = length(offset)
                offsets[landmark.rawValue] = [offset.x, offset.y, offset.z]
            case .failure(let error): refusals[landmark.rawValue] = "\(error)"
            }
        }
        aloneErrorsMM = errors
        aloneOffsetsMM = offsets
        aloneRefusals = refusals
    }

    /// Points 70 mm around the head's centre, where a fit's move is read.
    static let probes = [SIMD3(0.07, 0, 0.02), SIMD3(-0.07, 0, 0.02), SIMD3(0, 0.07, 0.02), SIMD3(0, -0.07, 0.02), SIMD3(0, 0, 0.09)]

    /// The vault's vertices (above the cap's edge) within 10 mm of the true skull.
    static func vault(_ mesh: TriangleMesh, _ grid: ClosestPointGrid) -> [(SIMD3<Double>, ClosestPointGrid.Hit)] {
        mesh.vertices.filter { $0.z > Cap.lowerEdge + 0.01 }.compactMap { v in grid.closest(to: v, maximumDistance: 0.01).map { (v, $0) } }
    }

    /// Mean distance of the vault from the true skull, mm.
    static func vaultDistance(_ mesh: TriangleMesh, _ grid: ClosestPointGrid) -> Double? {
        let hits = vault(mesh, grid)
        return hits.isEmpty ? nil : hits.map(\.1.distance).reduce(0, +) / Double(hits.count) * 1000
    }

    /// The rigid move that puts the vault on the true skull (point-to-point ICP, every 7th
    /// vertex, 15 rounds).
    static func bestFit(_ mesh: TriangleMesh, _ grid: ClosestPointGrid) -> RigidTransform? {
        var total = RigidTransform.identity
        let points = mesh.vertices.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        for _ in 0..<15 {
            let pairs = points.map(total.apply).filter { $0.z > Cap.lowerEdge + 0.01 }.compactMap { p in
                grid.closest(to: p, maximumDistance: 0.01).map { (p, $0.point) }
            }
            guard let step = try? RigidAlignment.fit(from: pairs.map(\.0), to: pairs.map(\.1)) else { return nil }
            total = step.transform * total
        }
        return total
    }

    /// A row-major 4×4 rigid transform.
    static func rigid(_ m: [Double]) -> RigidTransform {
        RigidTransform(
            rotation: Rotation3(columns: (SIMD3(m[0], m[4], m[8]), SIMD3(m[1], m[5], m[9]), SIMD3(m[2], m[6], m[10]))),
            translation: SIMD3(m[3], m[7], m[11]))
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    init(cap: String, scenario: String, seed: UInt64, trueCVAI: Double) {
        self.cap = cap
        self.scenario = scenario
        self.seed = seed
        self.trueCVAI = trueCVAI
    }
}

/// What `bench markerless` reports: per cap and scenario, the scans reconstructed, their drift, surface
/// and CVAI errors, and every refusal.
public struct MarkerlessBenchResult: Encodable {
    public struct Group: Encodable {
        public var cap: String
        public var scenario: String
        public var scans: Int
        public var reconstructed: Int
        public var cvaiErrorMedian: Double?
        public var cvaiErrorMax: Double?
        /// The same after the best rigid fit onto the true vault.
        public var cvaiFittedErrorMedian: Double?
        public var cvaiFittedErrorMax: Double?
        public var within03: Int
        public var within05: Int
        public var surfaceMeanMM: Double?
        public var surfaceWorstMM: Double?
        public var turnMaxMedianDegrees: Double?
        public var turnMaxWorstDegrees: Double?
        public var shiftMaxMedianMM: Double?
        public var secondsWithinFiveDegreesMedian: Double?
        public var placedShare: Double?
        public var secondsMedian: Double?
        public var refusals: [String]
        /// Scans refused for views placed inconsistently, and how far each had drifted (the
        /// largest turn from the truth, degrees).
        public var refusedAstray: Int
        public var astrayDrifts: [Double]
        /// On a printed cap, of the accepted scans: those whose head frame the print gave, its
        /// error (turn in degrees, shift in mm), those whose landmarks the search then found,
        /// their largest error (mm), CVAI with them against the truth, and why the others were not.
        public var printAligned = 0
        public var printTurnMedianDegrees: Double?
        public var printTurnMaxDegrees: Double?
        public var printShiftMaxMM: Double?
        public var automatic = 0
        public var landmarkErrorMedianMM: Double?
        public var landmarkErrorMaxMM: Double?
        public var cvaiAutomaticErrorMedian: Double?
        public var cvaiAutomaticErrorMax: Double?
        public var automaticWithin03 = 0
        public var automaticWithin05 = 0
        public var printSecondsMedian: Double?
        /// With several scans of a head: the largest spread (largest minus smallest) of CVAI
        /// with the automatic landmarks over one head's scans, and over how many heads.
        public var automaticSpreadWorst: Double?
        public var headsRepeated = 0
        /// Scans refused as processing refuses a measurement over a hole, and how far off CVAI
        /// with the true landmarks would have been on each.
        public var refusedForHole = 0
        public var holeCVAIErrors: [Double] = []
        public var printRefusals: [String] = []
        public var landmarkRefusals: [String] = []
    }

    public var groups: [Group]
    public var trials: [MarkerlessTrial]
    /// Which drawn head each trial scanned (several trials of one head: its repeats).
    public var heads: [Int]

    public init(trials: [MarkerlessTrial], heads: [Int]? = nil) {
        let heads = heads ?? Array(trials.indices)
        self.trials = trials
        self.heads = heads
        var kinds: [[String]] = []
        for trial in trials where !kinds.contains([trial.cap, trial.scenario]) { kinds.append([trial.cap, trial.scenario]) }
        groups = kinds.map { kind in
            var g = Self.group(trials, cap: kind[0], scenario: kind[1])
            // One head's accepted scans with automatic landmarks, per head scanned more than once.
            var byHead: [Int: [Double]] = [:]
            for (trial, head) in zip(trials, heads) where trial.cap == kind[0] && trial.scenario == kind[1] && trial.refusal == nil {
                if let cvai = trial.cvaiAutomatic { byHead[head, default: []].append(cvai) }
            }
            let spreads = byHead.values.filter { $0.count >= 2 }.map { ($0.max() ?? 0) - ($0.min() ?? 0) }
            g.headsRepeated = spreads.count
            g.automaticSpreadWorst = spreads.max()
            return g
        }
    }

    static func group(_ trials: [MarkerlessTrial], cap: String, scenario: String) -> Group {
        let group = trials.filter { $0.cap == cap && $0.scenario == scenario }
        let done = group.filter { $0.refusal == nil && $0.cvai != nil }
        let errors = done.compactMap(\.cvaiError), surfaces = done.compactMap(\.surfaceMeanMM)
        let placed = group.map { Double($0.framesPlaced) / Double(max(1, $0.framesExamined)) }
        var g = Group(
            cap: cap, scenario: scenario, scans: group.count, reconstructed: done.count, cvaiErrorMedian: MarkerlessTrial.median(errors),
            cvaiErrorMax: errors.max(), cvaiFittedErrorMedian: MarkerlessTrial.median(done.compactMap(\.cvaiFittedError)),
            cvaiFittedErrorMax: done.compactMap(\.cvaiFittedError).max(), within03: errors.filter { $0 <= 0.3 }.count,
            within05: errors.filter { $0 <= 0.5 }.count,
            surfaceMeanMM: MarkerlessTrial.median(surfaces), surfaceWorstMM: surfaces.max(),
            turnMaxMedianDegrees: MarkerlessTrial.median(done.compactMap(\.turnMaxDegrees)),
            turnMaxWorstDegrees: done.compactMap(\.turnMaxDegrees).max(),
            shiftMaxMedianMM: MarkerlessTrial.median(done.compactMap(\.shiftMaxMM)),
            secondsWithinFiveDegreesMedian: MarkerlessTrial.median(group.compactMap(\.secondsWithinFiveDegrees)),
            placedShare: MarkerlessTrial.median(placed),
            secondsMedian: MarkerlessTrial.median(group.compactMap(\.seconds)), refusals: group.compactMap(\.refusal),
            refusedAstray: group.filter(\.refusedAstray).count, astrayDrifts: group.filter(\.refusedAstray).compactMap(\.turnMaxDegrees))
        let holes = group.filter(\.refusedForHole)
        g.refusedForHole = holes.count
        g.holeCVAIErrors = holes.compactMap(\.cvaiError)
        let aligned = done.filter { $0.printTurnDegrees != nil }
        g.printAligned = aligned.count
        g.printTurnMedianDegrees = MarkerlessTrial.median(aligned.compactMap(\.printTurnDegrees))
        g.printTurnMaxDegrees = aligned.compactMap(\.printTurnDegrees).max()
        g.printShiftMaxMM = aligned.compactMap(\.printShiftMM).max()
        let automatic = aligned.filter { $0.cvaiAutomatic != nil }
        let automaticErrors = automatic.compactMap(\.cvaiAutomaticError)
        g.automatic = automatic.count
        g.landmarkErrorMedianMM = MarkerlessTrial.median(automatic.compactMap(\.landmarkErrorMaxMM))
        g.landmarkErrorMaxMM = automatic.compactMap(\.landmarkErrorMaxMM).max()
        g.cvaiAutomaticErrorMedian = MarkerlessTrial.median(automaticErrors)
        g.cvaiAutomaticErrorMax = automaticErrors.max()
        g.automaticWithin03 = automaticErrors.filter { $0 <= 0.3 }.count
        g.automaticWithin05 = automaticErrors.filter { $0 <= 0.5 }.count
        g.printSecondsMedian = MarkerlessTrial.median(done.compactMap(\.printSeconds))
        g.printRefusals = done.compactMap(\.printRefusal)
        g.landmarkRefusals = done.compactMap(\.landmarkRefusal)
        return g
    }
}

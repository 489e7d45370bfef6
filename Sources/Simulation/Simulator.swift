import Cephalometry
import Foundation
import Geometry
import Imaging
import Markers
import Recording

/// A simulated frame and the truth about it.
public struct SimulatedFrame: Sendable {
    /// What the virtual TrueDepth camera delivered.
    public var frame: RGBDFrame
    /// The exact poses and marker corners behind it.
    public var truth: FrameTruth
}

/// A simulated scan: an infant head with a marker cap, an operator walking around it with a
/// virtual TrueDepth camera, frame after frame. Seeded and deterministic.
public final class Simulator {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// The situation to play out.
        public var scenario: Scenario
        /// Seed of every random choice.
        public var seed: UInt64
        /// Length of the scan in seconds.
        public var seconds: Double
        /// The head to build.
        public var head: HeadParameters
        /// A head given as a mesh with its landmarks, scanned instead of `head` when set.
        public var meshHead: MeshHead?
        /// The cap the infant wears.
        public var layout: CapLayout
        /// Markers that fall off; nil uses the scenario's number.
        public var droppedMarkers: Int?
        /// Share of frames (0...1) in which no marker can be read, in half-second spells (a
        /// hand or a muslin cloth passing over the cap, glare): the stickers show as blank
        /// paper, depth is unchanged. Chosen from its own random stream, so the rest of the
        /// scan is the same as without it.
        public var unreadableFrames: Double
        /// How badly the cap sits (hair under it, riding up, stickers lost); perfect by default.
        public var capFit = CapFit.perfect
        /// The infant cries now and then: its jaw opens by up to about 14° (15 mm at the chin)
        /// in spells of three seconds, one every ten, and babbles a little between them; the
        /// skull, the nose and the ears stay still.
        public var crying = false
        /// The parent's hand cups the infant's nape, its fingers up the back of the head below
        /// its widest outline; it stays with the parent while the head turns.
        public var parentHand = false
        /// The sensor's imperfections.
        public var sensor: SensorModel
        /// The camera model (640x480 TrueDepth by default).
        public var intrinsics: CameraIntrinsics
        /// Relative error of the focal length the frames and the header record (a factory
        /// calibration that is off, say after a repair): the pictures are rendered with
        /// `intrinsics`, the recording claims `recordedIntrinsics`.
        public var recordedFocalError = 0.0
        /// How far the recorded principal point is from the true one, pixels.
        public var recordedPrincipalShift = SIMD2<Double>.zero

        /// Whether the recording states the lens's distortion (`intrinsics.distortion`), as a
        /// phone that reports its calibration does; false: the recording claims a pinhole.
        public var recordsDistortion = true

        /// The camera model the recording claims.
        public var recordedIntrinsics: CameraIntrinsics {
            var k = CameraCorrection(focalScale: 1 + recordedFocalError, principalShift: recordedPrincipalShift).applied(to: intrinsics)
            if !recordsDistortion { k.distortion = .none }
            return k
        }

        /// A configuration with the standard cap, a typical head and TrueDepth's camera.
        public init(
            scenario: Scenario = .ideal, seed: UInt64 = 1, seconds: Double = 60, head: HeadParameters = HeadParameters(),
            layout: CapLayout = .standard, droppedMarkers: Int? = nil, unreadableFrames: Double = 0,
            sensor: SensorModel = SensorModel(), intrinsics: CameraIntrinsics = Simulator.trueDepthIntrinsics
        ) {
            self.unreadableFrames = unreadableFrames
            self.scenario = scenario
            self.seed = seed
            self.seconds = seconds
            self.head = head
            self.layout = layout
            self.droppedMarkers = droppedMarkers
            self.sensor = sensor
            self.intrinsics = intrinsics
        }
    }

    /// A 640x480 TrueDepth stream's camera model (front camera of recent iPhones).
    public static let trueDepthIntrinsics = CameraIntrinsics(fx: 591.2, fy: 591.2, cx: 320.6, cy: 238.9, width: 640, height: 480)
    /// Frames per second.
    public static let frameRate = 30.0
    /// The middle of the vault in the head frame, metres: where the simulated operator aims.
    public static var vaultCentre: SIMD3<Double> { OperatorPath.aimPoint }

    /// The configuration in force.
    public let configuration: Configuration
    /// The drawn head (built from `configuration.head` also when a mesh head is scanned).
    public let head: HeadModel
    /// The head's surface (skull, ears, nose) in the head frame: the true mesh.
    public let mesh: TriangleMesh
    /// The head as the depth camera sees it: `mesh` with the cap lifted off the skull by the
    /// hair under it, or a bare head's hair standing off the scalp (else `mesh` itself).
    public let seenMesh: TriangleMesh
    /// The scanned head's landmarks in the head frame.
    public var landmarks: HeadLandmarks { configuration.meshHead?.landmarks ?? head.landmarks }
    /// The scanned head's true measures: the drawn head's exact ones, or what `Cephalometer`
    /// measures on a mesh head.
    public var measurements: TrueHeadMeasures { configuration.meshHead?.measurements ?? head.measurements }
    /// The cap on the head, as it was put on.
    public let cap: Cap
    /// How the cap moves on the head during the scan, when it does.
    private let capMotion: CapMotion?
    private let hair: HairField?
    /// The surface the cap sits on.
    private let surface: any CapSurface
    /// The stickers where they are in the current frame.
    private var stickersNow: [MarkerSticker]
    /// Number of frames in the scan.
    public let frameCount: Int
    /// Index of the next frame.
    public private(set) var nextIndex = 0

    /// Frames whose markers cannot be read.
    public let unreadable: Set<Int>
    private let renderer: SceneRenderer
    /// A crying infant's jaw, and the face's vertices that follow it with their shares.
    private let jaw: JawMotion?
    private let jawVertices: [(index: Int, share: Double)]
    private var operatorPath: OperatorPath
    private let infant: InfantMotion
    private var previous: (camera: RigidTransform, head: RigidTransform)?

    /// Builds the head, the cap and the scene.
    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        head = try HeadModel(configuration.head)
        var rng = Xoshiro256(seed: configuration.seed)
        guard configuration.capFit.isValid else {
            throw SimulationError.invalidCap(
                "hair must be 0–10 mm (a bare head's 0.5–15 mm, and nothing else of a cap), the share of lost stickers 0–1, and a printed cap neither slides nor stretches"
            )
        }
        // A bare head wears no cap: every sticker is left off.
        let lostShare = configuration.capFit.bareHair == nil ? configuration.capFit.lostShare : 1
        let lost = Int((lostShare * Double(configuration.layout.markers.count)).rounded())
        let dropCount = min(
            max(lost, configuration.droppedMarkers ?? configuration.scenario.droppedMarkerCount), configuration.layout.markers.count)
        var ids = configuration.layout.ids
        var dropped = Set<Int>()
        for _ in 0..<dropCount { dropped.insert(ids.remove(at: rng.below(ids.count))) }
        let fit = configuration.capFit
        let hair = fit.hairMillimetres > 0 ? HairField(heightMillimetres: fit.hairMillimetres, seed: configuration.seed) : nil
        if configuration.meshHead != nil, hair != nil || fit.bareHair != nil {
            throw SimulationError.invalidCap("hair is simulated on drawn heads only; scan a mesh head without it")
        }
        let surface: any CapSurface = configuration.meshHead ?? head
        self.surface = surface
        var fitted = try Cap(layout: configuration.layout, head: surface, dropped: dropped, hair: hair, ridesUp: fit.ridesUp)
        try fitted.damage(share: fit.damagedShare, seed: configuration.seed)
        cap = fitted
        stickersNow = fitted.stickers
        self.hair = hair
        capMotion = fit.moves ? CapMotion(fit: fit, ids: fitted.stickers.map(\.id), duration: configuration.seconds, seed: configuration.seed) : nil
        let skullFaces: Int
        if let given = configuration.meshHead {
            mesh = given.mesh
            // A given head has no separate ears and nose: all of it is skin or cap.
            skullFaces = given.mesh.faces.count
        } else {
            mesh = HeadMesh.make(head)
            skullFaces = HeadMesh.skull(head).faces.count
        }
        var seen = hair.map { [mesh, head] in HeadMesh.lifted(mesh, of: head, by: $0) } ?? mesh
        if let bare = fit.bareHair { seen = HeadMesh.lifted(mesh, of: head, byBareHair: bare.field(seed: configuration.seed)) }
        seenMesh = seen
        jaw = configuration.crying ? JawMotion(duration: configuration.seconds, seed: configuration.seed) : nil
        jawVertices =
            configuration.crying
            ? seen.vertices.indices.compactMap { i in
                let share = JawMotion.share(at: seen.vertices[i])
                return share > 0 ? (i, share) : nil
            } : []
        frameCount = max(1, Int((configuration.seconds * Self.frameRate).rounded()))
        unreadable = Self.spells(share: configuration.unreadableFrames, frameCount: frameCount, seed: configuration.seed)
        operatorPath = OperatorPath(scenario: configuration.scenario, duration: configuration.seconds, rng: &rng)
        infant = InfantMotion(scenario: configuration.scenario, duration: configuration.seconds, rng: &rng)
        renderer = try SceneRenderer(
            headMesh: seen, skullFaceCount: skullFaces, cap: cap, intrinsics: configuration.intrinsics,
            sensor: configuration.sensor, hand: configuration.parentHand)
        renderer.printedFabric = fit.printed
        renderer.bareHair = fit.bareHair
    }

    /// How far the jaw is open at `t`, degrees; nil when the infant does not cry.
    public func jawDegrees(at t: Double) -> Double? { jaw.map { $0.angle(at: t) * 180 / Double.pi } }

    /// Renders the next frame after the operator followed `steering` since the last one;
    /// nil when the scan is over.
    public func nextFrame(steering: Steering = .none) -> SimulatedFrame? {
        guard let (index, t, worldFromCamera, worldFromHead) = step(steering) else { return nil }
        let blur = previous.map { motion(from: $0, to: (worldFromCamera, worldFromHead)) } ?? .zero
        previous = (worldFromCamera, worldFromHead)
        if let capMotion {
            stickersNow = capMotion.stickers(of: cap, at: t, on: surface, hair: hair)
            renderer.move(stickersNow)
        }
        if let jaw {
            let angle = jaw.angle(at: t)
            renderer.moveJaw(
                jawVertices.map { ($0.index, JawMotion.moved(seenMesh.vertices[$0.index], share: $0.share, angle: angle)) }, angle: angle)
        }
        let (color, depth) = renderer.render(
            worldFromCamera: worldFromCamera, worldFromHead: worldFromHead, bodyShift: infant.bodyShift(at: t), blur: blur,
            noiseSeed: configuration.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index), blankStickers: unreadable.contains(index))
        let intrinsics = configuration.recordedIntrinsics
        let frame = RGBDFrame(timestamp: t, color: color, depth: depth, colorIntrinsics: intrinsics, depthIntrinsics: intrinsics)
        let meshFromCamera = worldFromHead.inverse * worldFromCamera
        return SimulatedFrame(
            frame: frame,
            truth: FrameTruth(
                index: index, timestamp: t, meshFromCamera: meshFromCamera.matrixRowMajor,
                markers: unreadable.contains(index) ? [] : visibleMarkers(cameraFromMesh: meshFromCamera.inverse, depth: renderer.trueDepth),
                capTurnDegrees: capTurn(at: t)))
    }

    /// Half-second spells covering `share` of the frames, picked without replacement.
    static func spells(share: Double, frameCount: Int, seed: UInt64) -> Set<Int> {
        let spell = Int(Self.frameRate / 2)
        let count = (frameCount + spell - 1) / spell
        let wanted = Int((min(1, max(0, share)) * Double(count)).rounded())
        guard wanted > 0 else { return [] }
        var rng = Xoshiro256(seed: seed, stream: 0x6D61_726B)
        var order = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) { order.swapAt(i, rng.below(i + 1)) }
        var frames = Set<Int>()
        for s in order.prefix(wanted) { frames.formUnion((s * spell)..<min(frameCount, (s + 1) * spell)) }
        return frames
    }

    /// Moves the scan on by one frame without rendering it, for quick closed-loop runs. Its
    /// markers face the camera and lie inside the picture; hiding behind other parts of the
    /// scene is not checked.
    public func advance(steering: Steering = .none) -> FrameTruth? {
        guard let (index, t, worldFromCamera, worldFromHead) = step(steering) else { return nil }
        previous = nil
        if let capMotion { stickersNow = capMotion.stickers(of: cap, at: t, on: surface, hair: hair) }
        let meshFromCamera = worldFromHead.inverse * worldFromCamera
        return FrameTruth(
            index: index, timestamp: t, meshFromCamera: meshFromCamera.matrixRowMajor,
            markers: visibleMarkers(cameraFromMesh: meshFromCamera.inverse, depth: nil), capTurnDegrees: capTurn(at: t))
    }

    private func capTurn(at t: Double) -> Double? {
        capMotion.map { $0.slideRadians * $0.slideShare(at: t) * 180 / Double.pi }
    }

    private func step(_ steering: Steering) -> (Int, Double, RigidTransform, RigidTransform)? {
        guard nextIndex < frameCount else { return nil }
        let index = nextIndex
        nextIndex += 1
        let t = Double(index) / Self.frameRate
        let worldFromHead = infant.worldFromHead(at: t)
        let worldFromCamera = operatorPath.pose(
            at: t, dt: 1 / Self.frameRate, steering: steering, headAim: worldFromHead.apply(OperatorPath.aimPoint))
        return (index, t, worldFromCamera, worldFromHead)
    }

    /// Markers in front of the camera, facing it, wholly inside the picture and, when a depth
    /// buffer is given, not hidden.
    private func visibleMarkers(cameraFromMesh: RigidTransform, depth: [Float]? = nil) -> [MarkerTruth] {
        let k = configuration.intrinsics
        return stickersNow.compactMap { sticker in
            guard let truth = MarkerTruth(sticker, cameraFromMesh: cameraFromMesh, intrinsics: k) else { return nil }
            if let depth {
                let centre = cameraFromMesh.apply(sticker.centre)
                // The true depth is the pinhole render's, before the lens's warp.
                guard let c = k.pinhole.project(centre) else { return nil }
                let pixel = Int(c.y.rounded()) * k.width + Int(c.x.rounded())
                guard depth.indices.contains(pixel), Double(depth[pixel]) > centre.z - 0.002 else { return nil }
            }
            return truth
        }
    }

    /// Image travel of the head's centre during the exposure (half the frame interval).
    private func motion(
        from a: (camera: RigidTransform, head: RigidTransform), to b: (camera: RigidTransform, head: RigidTransform)
    )
        -> SIMD2<Double>
    {
        let k = configuration.intrinsics
        let centre = OperatorPath.aimPoint
        guard let p = k.project(a.camera.inverse.apply(a.head.apply(centre))),
            let q = k.project(b.camera.inverse.apply(b.head.apply(centre)))
        else { return .zero }
        return (q - p) * 0.5
    }

    /// Truth for the whole scan, given the frames' truth; its markers are where the stickers
    /// sat when the scan started (a cap that moves carries them elsewhere later).
    public func truth(frames: [FrameTruth], meshFile: String) -> ScanTruth {
        let markers = cap.stickers.map { s in
            MarkerCorners3D(id: s.id, region: s.region.rawValue, corners: s.corners.map { [$0.x, $0.y, $0.z] })
        }
        return ScanTruth(
            meshFile: meshFile, scenario: configuration.scenario.rawValue, seed: configuration.seed,
            head: configuration.head, landmarks: landmarks, markers3D: markers,
            droppedMarkers: cap.dropped, measurements: measurements, frames: frames)
    }
}

import Foundation
import Geometry
import Imaging
import Markers
import Recording

/// A simulated recording of a printed marker board held still while a hand-held camera looks
/// at it from about `distance`: sweeping left and right, up and down, and standing still for
/// a second every few seconds. Seeded and deterministic; the truth is the board frame.
public final class BoardSimulator {
    /// What to simulate.
    public struct Configuration: Sendable {
        public var board: MarkerBoard
        public var seed: UInt64
        public var seconds: Double
        /// Distance from the camera to the board's centre, metres.
        public var distance: Double
        /// Largest angle of the view to the board's normal, left and right, degrees.
        public var sweepDegrees: Double
        public var sensor: SensorModel
        /// The true camera.
        public var intrinsics: CameraIntrinsics
        /// Relative error of the focal length the recording claims (see `Simulator`).
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

        /// A board at a metre, seen by TrueDepth's camera with its noise.
        public init(
            board: MarkerBoard = .aprilGrid3x4, seed: UInt64 = 1, seconds: Double = 10, distance: Double = 1.0, sweepDegrees: Double = 25,
            sensor: SensorModel = SensorModel(), intrinsics: CameraIntrinsics = Simulator.trueDepthIntrinsics
        ) {
            self.board = board
            self.seed = seed
            self.seconds = seconds
            self.distance = distance
            self.sweepDegrees = sweepDegrees
            self.sensor = sensor
            self.intrinsics = intrinsics
        }
    }

    public let configuration: Configuration
    /// The board's markers in the board frame.
    public let stickers: [MarkerSticker]
    public let frameCount: Int
    public private(set) var nextIndex = 0
    private let renderer: SceneRenderer
    private let tremor: (SmoothNoise, SmoothNoise, SmoothNoise)
    private let aim: (SmoothNoise, SmoothNoise)
    private let roll: SmoothNoise

    /// Seconds the camera stands still at the start of every period, and the period.
    static let hold = 1.0, period = 3.0

    /// Builds the board and the scene.
    public init(_ configuration: Configuration) throws {
        try configuration.board.validate()
        guard configuration.distance >= 0.15, configuration.distance <= 3 else {
            throw SimulationError.invalidBoard("the distance must be 0.15 to 3 m")
        }
        self.configuration = configuration
        let board = configuration.board
        stickers = board.stickers
        frameCount = max(1, Int((configuration.seconds * Simulator.frameRate).rounded()))
        var rng = Xoshiro256(seed: configuration.seed)
        tremor = (
            SmoothNoise(rng: &rng, lowest: 0.5, highest: 3), SmoothNoise(rng: &rng, lowest: 0.5, highest: 3),
            SmoothNoise(rng: &rng, lowest: 0.5, highest: 3)
        )
        aim = (SmoothNoise(rng: &rng), SmoothNoise(rng: &rng))
        roll = SmoothNoise(rng: &rng)
        let dictionary = try MarkerDictionary.named(board.dictionaryName)
        let cells = dictionary.markerSize + 2
        // The sheet has a white margin of two cells around the printed area.
        let margin = 2 * board.markerSide / Double(cells)
        let half = board.size / 2 + SIMD2(margin, margin)
        let sheet = [SIMD3(-half.x, half.y, 0), SIMD3(half.x, half.y, 0), SIMD3(half.x, -half.y, 0), SIMD3(-half.x, -half.y, 0)]
        // Printed on the sheet: a hair above it, so the print wins the depth test.
        var printed = stickers
        for i in printed.indices { printed[i].centre.z = 0.00002 }
        renderer = try SceneRenderer(
            geometry: SceneGeometry(sheet: sheet, stickers: printed, cells: cells), stickers: printed, dictionary: dictionary,
            intrinsics: configuration.intrinsics, sensor: configuration.sensor)
    }

    /// The camera's pose in the board frame at time `t`.
    public func boardFromCamera(at t: Double) -> RigidTransform {
        // Moving time: the clock stops during the holds.
        let periods = (t / Self.period).rounded(.down)
        let moving = periods * (Self.period - Self.hold) + max(0, t - periods * Self.period - Self.hold)
        let total = max(1e-9, configuration.seconds * (Self.period - Self.hold) / Self.period)
        let s = moving / total
        let deg = Double.pi / 180
        let azimuth = configuration.sweepDegrees * sin(2 * Double.pi * s) * deg
        let elevation = 0.5 * configuration.sweepDegrees * sin(4 * Double.pi * s + 0.7) * deg
        let direction = SIMD3(cos(elevation) * sin(azimuth), sin(elevation), cos(elevation) * cos(azimuth))
        // A hand's tremor moves the phone by a millimetre or two even when it "stands still".
        let shake = SIMD3(tremor.0.value(at: t), tremor.1.value(at: t), tremor.2.value(at: t)) * 0.0015
        let eye = direction * configuration.distance + shake
        let target = SIMD3(aim.0.value(at: t), aim.1.value(at: t), 0) * 0.04
        let forward = normalized(target - eye)
        let up = Rotation3(axis: forward, angle: 0.06 * roll.value(at: t)).apply(SIMD3(0, 1, 0))
        return RigidTransform.camera(at: eye, lookingAt: target, up: up)
    }

    /// Renders the next frame; nil when the recording is over.
    public func nextFrame() -> SimulatedFrame? {
        guard nextIndex < frameCount else { return nil }
        let index = nextIndex
        nextIndex += 1
        let t = Double(index) / Simulator.frameRate
        let pose = boardFromCamera(at: t)
        let (color, depth) = renderer.render(
            worldFromCamera: pose, worldFromHead: .identity, bodyShift: .zero, blur: .zero,
            noiseSeed: configuration.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let k = configuration.recordedIntrinsics
        let frame = RGBDFrame(timestamp: t, color: color, depth: depth, colorIntrinsics: k, depthIntrinsics: k)
        return SimulatedFrame(
            frame: frame,
            truth: FrameTruth(
                index: index, timestamp: t, meshFromCamera: pose.matrixRowMajor, markers: visibleMarkers(cameraFromBoard: pose.inverse)))
    }

    /// Markers wholly inside the picture (a flat board hides none of its own).
    private func visibleMarkers(cameraFromBoard: RigidTransform) -> [MarkerTruth] {
        stickers.compactMap { MarkerTruth($0, cameraFromMesh: cameraFromBoard, intrinsics: configuration.intrinsics) }
    }

    /// The board's markers in the board frame, as the truth file lists them.
    public var markers3D: [MarkerCorners3D] {
        stickers.map { MarkerCorners3D(id: $0.id, region: "board", corners: $0.corners.map { [$0.x, $0.y, $0.z] }) }
    }
}

/// Everything known about a simulated board recording, written next to it as JSON.
public struct BoardTruth: Sendable, Codable {
    public var seed: UInt64
    /// Rows, columns, marker side and gap (metres) and the dictionary.
    public var rows: Int
    public var columns: Int
    public var markerSide: Double
    public var gap: Double
    public var dictionary: String
    /// Distance from the camera to the board, metres.
    public var distance: Double
    /// The true camera: fx, fy, cx, cy, width, height.
    public var intrinsics: [Double]
    /// The true lens's radial distortion: k1, k2 (OpenCV's).
    public var distortion: [Double]
    /// The markers' corners in the board frame (z = 0).
    public var markers3D: [MarkerCorners3D]
    /// Per-frame truth; `meshFromCamera` is the camera's pose in the board frame.
    public var frames: [FrameTruth]

    public init(_ simulator: BoardSimulator, frames: [FrameTruth]) {
        let c = simulator.configuration
        seed = c.seed
        rows = c.board.rows
        columns = c.board.columns
        markerSide = c.board.markerSide
        gap = c.board.gap
        dictionary = c.board.dictionaryName
        distance = c.distance
        let k = c.intrinsics
        intrinsics = [k.fx, k.fy, k.cx, k.cy, Double(k.width), Double(k.height)]
        distortion = [k.distortion.k1, k.distortion.k2]
        markers3D = simulator.markers3D
        self.frames = frames
    }
}

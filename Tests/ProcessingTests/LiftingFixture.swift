import Cephalometry
import Foundation
import Geometry
import Imaging
import Processing
import Recording
import ScanLibrary
import Simulation

/// A session whose frames, poses and head are known exactly: the simulated head's mesh, and
/// cameras 0.3 m out from each landmark's surface point looking at it. Each frame's depth is
/// the exact ray-cast distance at the landmark's pixel and a hole everywhere else, which is
/// all lifting reads; its stored reconstruction makes processing skip the slow part.
struct LiftingFixture {
    static let k = CameraIntrinsics(fx: 300, fy: 300, cx: 80, cy: 60, width: 160, height: 120)

    let library: ScanLibrary
    let session: ScanSession
    let mesh: TriangleMesh
    /// The landmarks as surface points of the mesh.
    let truth: [Landmark: SIMD3<Double>]
    /// Per frame: the camera pose, and the pixel of each landmark seen in it.
    let frames: [(pose: RigidTransform, pixels: [Landmark: SIMD2<Double>])]

    /// The cap's markers as the reconstruction's map (so processing can find the landmarks on
    /// the head), or none.
    let capMarkers: [String: [SIMD3<Double>]]
    /// The simulated head's landmarks, as anatomy defines them.
    let anatomical: HeadLandmarks

    /// `hairMillimetres` lifts the cap off the skull, and the mesh is the lifted surface.
    /// How the stored reconstruction was placed without markers (`placedWithoutMarkers`): a
    /// printed cap whose print gave the head frame (the mesh's own, the cap's edge where the
    /// simulated cap's is), or a plain cap that gave none.
    enum Unmarked { case printed, plain }

    /// `guidedWithoutMarkers`: the recording's header says it was made with the guide that
    /// follows the head's surface, as the app writes when scanning without stickers.
    init(
        holes: Set<Int> = [], withCap: Bool = false, hairMillimetres: Double = 0, placedWithoutMarkers: Unmarked? = nil,
        guidedWithoutMarkers: Bool = false
    ) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("processing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        library = ScanLibrary(root: root, timeZone: TimeZone(identifier: "UTC")!)
        session = try library.createSession(date: Date(timeIntervalSince1970: 1_780_000_000))
        var configuration = Simulator.Configuration(scenario: .ideal, seed: 1, seconds: 1)
        configuration.capFit.hairMillimetres = hairMillimetres
        let simulator = try Simulator(configuration)
        mesh = try PLY.decode(PLY.encode(simulator.seenMesh))
        capMarkers = withCap ? Dictionary(uniqueKeysWithValues: simulator.cap.stickers.map { ("\($0.id)", $0.corners) }) : [:]
        anatomical = simulator.landmarks
        let l = simulator.landmarks
        let named: [(Landmark, SIMD3<Double>)] = [
            (.nasion, l.nasion), (.noseTip, l.noseTip), (.leftTragion, l.leftTragion), (.rightTragion, l.rightTragion),
        ]
        var truth: [Landmark: SIMD3<Double>] = [:]
        var frames: [(RigidTransform, [Landmark: SIMD2<Double>])] = []
        let centre = SIMD3<Double>(0, 0, 0.02)
        for (landmark, point) in named {
            let outward = normalized(point - centre)
            let outside = point + outward * 0.3
            let surface = outside - outward * mesh.firstHit(origin: outside, direction: -outward)!
            truth[landmark] = surface
            // Two views: straight on, and 12° to the side.
            for tilt in [0.0, 0.21] {
                let axis = Rotation3(axis: SIMD3(0, 0, 1), angle: tilt).apply(outward)
                let pose = RigidTransform.camera(at: surface + axis * 0.3, lookingAt: surface, up: SIMD3(0, 0, 1))
                frames.append((pose, [landmark: Self.k.project(pose.inverse.apply(surface))!]))
            }
        }
        self.truth = truth
        self.frames = frames
        try writeScan(holes: holes, truth: truth, settings: guidedWithoutMarkers ? ["withoutMarkers": "true"] : [:])
        try library.saveMesh(plyData: Data(PLY.encode(mesh)), in: session)
        try writeReconstruction(placedWithoutMarkers)
    }

    private func writeScan(holes: Set<Int>, truth: [Landmark: SIMD3<Double>], settings: [String: String]) throws {
        let header = ScanHeader(
            device: "test", appVersion: "0", colorIntrinsics: Self.k, depthIntrinsics: Self.k, capLayoutName: "standard-57", settings: settings)
        let writer = try ScanWriter(url: session.scanURL, header: header, options: .init(colorCodec: .png))
        for (index, frame) in frames.enumerated() {
            var depth = DepthImage(width: Self.k.width, height: Self.k.height, repeating: .nan)
            if !holes.contains(index) {
                // Each camera looks straight at its landmark, which lands on the principal point,
                // a pixel centre: the depth there is the landmark's distance along the axis.
                for (landmark, pixel) in frame.pixels {
                    depth[Int(pixel.x), Int(pixel.y)] = Float(frame.pose.inverse.apply(truth[landmark]!).z)
                }
            }
            try writer.append(
                RGBDFrame(
                    timestamp: Double(index) / 30,
                    color: RGBAImage(width: Self.k.width, height: Self.k.height, repeating: RGBA8(r: 90, g: 90, b: 90, a: 255)),
                    depth: depth, colorIntrinsics: Self.k, depthIntrinsics: Self.k))
        }
        try writer.close()
    }

    private func writeReconstruction(_ unmarked: Unmarked?) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: session.scanURL.path)
        let fingerprint = ReconstructionRecord.ScanFingerprint(
            bytes: (attributes[.size] as! NSNumber).intValue, modified: (attributes[.modificationDate] as! Date).timeIntervalSince1970)
        let keyframes = frames.enumerated().map { ReconstructionRecord.KeyframePose(frame: $0.offset, mapFromCamera: $0.element.pose.matrixRowMajor) }
        var record = ReconstructionRecord(
            scan: fingerprint, capLayout: "standard-57", markers: capMarkers, keyframes: keyframes, statistics: .init(), reconstructedAt: Date())
        if let unmarked {
            let printed = unmarked == .printed
            record.withoutMarkers = PlacedWithoutMarkers(
                framesExamined: frames.count, framesPlaced: frames.count, framesLost: 0, framesFused: frames.count, printSeen: printed,
                headFromMesh: printed ? RigidTransform.identity.matrixRowMajor : nil, capRim: printed ? Cap.lowerEdge : nil,
                printAgreement: printed ? 0.97 : nil, printRunnerUp: printed ? 0.55 : nil)
        }
        try library.save(record, in: session)
    }

    /// Every landmark picked at its exact pixel in both of its frames.
    func exactPicks() -> AnnotationsRecord {
        var annotations = AnnotationsRecord()
        for (index, frame) in frames.enumerated() {
            for (landmark, pixel) in frame.pixels { annotations.pick(landmark, frameIndex: index, pixel: pixel) }
        }
        return annotations
    }

    func remove() { try? FileManager.default.removeItem(at: library.root) }
}

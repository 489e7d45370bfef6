import Cephalometry
import Geometry
import Reconstruction
import Recording
import ScanLibrary

/// Lifts every landmark's picks into the mesh's frame and combines them: frames are read once
/// each and placed on the marker map by `FrameLocator`.
struct PickLifter {
    let reader: ScanReader
    let locator: FrameLocator
    let mesh: TriangleMesh
    /// The camera the reconstruction settled on: the frames are read with it.
    let camera: SettledCamera
    /// The camera the reconstruction read the frames with instead of the recorded one (a
    /// camera checked with a board), or nil.
    let frameCamera: CameraIntrinsics?
    private var frames: [Int: (RGBDFrame, RigidTransform)] = [:]

    init(reader: ScanReader, locator: FrameLocator, mesh: TriangleMesh, camera: SettledCamera, frameCamera: CameraIntrinsics? = nil) {
        self.reader = reader
        self.locator = locator
        self.mesh = mesh
        self.camera = camera
        self.frameCamera = frameCamera
    }

    /// The estimate of each landmark from its picks.
    mutating func estimates(_ annotations: AnnotationsRecord, progress: (Int, Int) -> Void) throws(ProcessingError) -> [Landmark: LandmarkEstimate] {
        let total = annotations.landmarks.values.reduce(0) { $0 + $1.count }
        var done = 0
        var out: [Landmark: LandmarkEstimate] = [:]
        for landmark in Landmark.allCases {
            var points: [SIMD3<Double>] = [], residuals: [Double?] = [], lifted: [Int] = []
            var failures: [ProcessingError] = []
            for (index, pick) in (annotations.landmarks[landmark] ?? []).enumerated() {
                progress(done, total)
                done += 1
                do {
                    let (point, residual) = try lift(pick, of: landmark)
                    points.append(point)
                    residuals.append(residual)
                    lifted.append(index)
                } catch {
                    failures.append(error)
                }
            }
            // A pick that cannot be lifted (its frame is damaged, or shows too few markers to
            // place the camera) is set aside while the landmark has others; with none left,
            // the first reason is the error.
            guard !points.isEmpty else {
                if let first = failures.first { throw first }
                continue
            }
            var estimate = LandmarkEstimate(points: points, residuals: residuals)
            estimate.used = estimate.used.map { lifted[$0] }
            estimate.picks += failures.count
            estimate.unusable = failures.map(\.description)
            out[landmark] = estimate
        }
        return out
    }

    private mutating func lift(_ pick: LandmarkPick, of landmark: Landmark) throws(ProcessingError) -> (SIMD3<Double>, Double?) {
        switch pick {
        case .point(let p):
            return (p, mesh.distance(to: p))
        case .pixel(let index, let pixel):
            let (frame, pose) = try located(index, for: landmark)
            do {
                let lifted = try HeadLandmarks.lift(pixel: pixel, in: frame, meshFromCamera: pose, mesh: mesh)
                return (lifted.point, lifted.residual)
            } catch {
                throw .cannotLift(landmark: landmark, frame: index, reason: error.description)
            }
        }
    }

    private mutating func located(_ index: Int, for landmark: Landmark) throws(ProcessingError) -> (RGBDFrame, RigidTransform) {
        if let known = frames[index] { return known }
        guard index < reader.frameCount else {
            throw .unreadableFrame(landmark: landmark, frame: index, reason: "the scan has \(reader.frameCount) frames, numbered from 0")
        }
        let frame: RGBDFrame
        do {
            frame = camera.reading(try reader.frame(at: index).reading(with: frameCamera))
        } catch {
            throw .unreadableFrame(landmark: landmark, frame: index, reason: "\(error)")
        }
        do {
            let pose = try locator.locate(frame, index: index).mapFromCamera
            frames[index] = (frame, pose)
            return (frame, pose)
        } catch {
            throw .cannotLift(landmark: landmark, frame: index, reason: error.description)
        }
    }
}

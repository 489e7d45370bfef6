import ArgumentParser
import Cephalometry
import Evaluation
import Foundation
import Geometry
import Reconstruction
import Recording

extension ReconstructCommand {
    /// `reconstruct --without-markers`: the depth placed on the surface fused so far.
    func runWithoutMarkers(_ reader: ScanReader) throws {
        var options = ReconstructionOptions()
        options.frameStride = stride
        if let threads { options.threads = threads }
        options.voxelSize = voxelMM / 1000
        options.truncation = 4 * options.voxelSize
        options.camera = try camera.map { path in
            try TUMFormat.cameraFile(Array(try Data(contentsOf: fileURL(path))), path: path).color
        }
        var bar = StagedProgressBar("Reconstructing without markers")
        var reconstructor = MarkerlessReconstructor(options: options)
        if let metres = wholeViewMetres {
            // The poses are what a whole view is reconstructed for: they are written however
            // well the views agree, for the benchmark to judge against the recording's own.
            reconstructor.space = .wholeView(maximumDepth: metres)
            reconstructor.refusesAstray = false
        }
        let result = try reconstructor.reconstruct(
            frameCount: reader.frameCount, frame: { try reader.frame(at: $0) },
            progress: { bar.update(stage: $0.stage.label, $0.done + 1, of: $0.total) })
        if let out {
            let url = fileURL(out)
            try Data(ReconstructionExport.meshBytes(result.mesh, fileExtension: url.pathExtension, ascii: ascii)).write(to: url)
        }
        if let posesOut {
            let poses = result.poses.map {
                PoseRecord(frameIndex: $0.frameIndex, timestamp: $0.timestamp, worldFromCamera: $0.worldFromCamera.matrixRowMajor)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(poses).write(to: fileURL(posesOut))
        }
        var report = WithoutMarkersReport(result)
        if let landmarksOut { try findLandmarks(result, into: landmarksOut, report: &report) }
        if outputOptions.json {
            try printJSON(report)
        } else {
            print(
                "Frames: \(report.framesPlaced) placed, \(report.framesLost) lost, \(report.framesUnreadable) unreadable of "
                    + "\(report.framesExamined) examined; \(report.framesFused) fused"
                    + (report.framesSearched > 0
                        ? "; the lost head searched for in \(report.framesSearched), found again in \(report.framesFoundAgain)" : ""))
            print(
                report.matchedColour
                    ? "Cap: printed; its colours placed the views as well as the depth"
                    : "Cap: no print seen; the views were placed by their depth alone (turns about the head's centre are not seen)")
            if let out { print("Mesh: \(report.vertices) vertices, \(report.triangles) triangles → \(out) (the first placed frame's camera frame)") }
            if let agreement = report.printAgreement {
                print(
                    String(
                        format: "Head frame: read from the cap's print (%.0f %% of its colours agree; %.0f %% at the next best place)",
                        agreement * 100, (report.printRunnerUp ?? 0) * 100))
            }
            if let landmarksOut, report.landmarksFound == true { print("Landmarks: found on the head → \(landmarksOut)") }
            print(String(format: "Time: %.1f s", report.seconds))
        }
    }
}

extension ReconstructCommand {
    /// The head frame from the cap's print and the landmarks searched from it, written to
    /// `path`; throws with what to do when the cap shows no print, the print does not match
    /// or a landmark is not found (the mesh is written by then).
    func findLandmarks(_ result: MarkerlessReconstruction, into path: String, report: inout WithoutMarkersReport) throws {
        guard result.matchedColour else {
            throw ValidationError(
                "--landmarks-out: the cap showed no print, and without one nothing tells how the head lies; pick the landmarks on the mesh, or scan a printed cap"
            )
        }
        let alignment = try PrintAligner.align(result.mesh)
        report.printAgreement = alignment.agreement
        report.printRunnerUp = alignment.runnerUp
        let found = try LandmarkDetector.detect(
            result.mesh, orientation: HeadOrientation(headFromMesh: alignment.headFromMesh, capRim: alignment.capRim))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(found.landmarks).write(to: fileURL(path), options: .atomic)
        report.landmarksFound = true
    }
}

/// One placed frame in `--poses-out`'s file.
private struct PoseRecord: Encodable {
    var frameIndex: Int
    var timestamp: Double
    /// Camera to the first placed frame's camera, row-major 4x4, metres.
    var worldFromCamera: [Double]
}

/// The JSON printed by `headscan reconstruct --without-markers --json`.
struct WithoutMarkersReport: Encodable {
    var framesExamined, framesPlaced, framesLost, framesUnreadable, framesFused, framesFoundAgain, vertices, triangles: Int
    /// Frames on which the lost head was searched for (the search runs ever more rarely as a loss goes on).
    var framesSearched: Int
    /// Whether the cap showed a print, so that colour was matched as well as depth.
    var matchedColour: Bool
    /// The space fused: centre (the first placed frame's camera frame) and radius, metres.
    var regionCentre: [Double]
    var regionRadius: Double
    var seconds: Double
    /// With --landmarks-out: the share of the print's colours the head frame read from it
    /// agrees with, the same at the next best place, and whether the landmarks were found.
    var printAgreement: Double?
    var printRunnerUp: Double?
    var landmarksFound: Bool?

    init(_ r: MarkerlessReconstruction) {
        framesExamined = r.framesExamined
        framesPlaced = r.poses.count
        framesLost = r.framesLost
        framesUnreadable = r.framesUnreadable
        framesFused = r.framesFused
        framesFoundAgain = r.framesFoundAgain
        framesSearched = r.framesSearched
        matchedColour = r.matchedColour
        vertices = r.mesh.vertices.count
        triangles = r.mesh.faces.count
        regionCentre = [r.region.centre.x, r.region.centre.y, r.region.centre.z]
        regionRadius = r.region.radius
        seconds = r.seconds
    }
}

import ArgumentParser
import Cephalometry
import Foundation
import Geometry
import ScanLibrary

/// `headscan measure`: CVAI, CVA, cranial index, circumference and severity of a head mesh.
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract:
            "Measure a head mesh: CVAI, CVA, cranial index, circumference, CHOA severity, volumes and symmetry ratios, deformity type, asymmetry map.",
        discussion: """
            MESH is a PLY triangle mesh in metres, in any pose. The landmarks JSON gives the \
            nasion, nose tip and both tragions in the mesh's frame, in metres: \
            {"nasion":[x,y,z],"noseTip":[x,y,z],"leftTragion":[x,y,z],"rightTragion":[x,y,z]}; \
            a scan session's annotations.json or measurement.json is read as well. \
            The head is measured in the slice of greatest outline length above the plane \
            through both tragions and the nasion, from 20 mm above that plane so the ears \
            do not make the longest outline. Warnings say when to trust the \
            values less; they do not change the exit status.

            Beyond the calliper's values it gives the head's volume above the reference plane \
            by quadrant with the anterior, posterior and overall symmetry ratios, the radial \
            symmetry index, cranial height, ear offset, the longest diagonal and the forehead's \
            angle, and the deformity type and severity. --thresholds sets a clinic's own \
            thresholds: {"choaCVAI":[3.5,6.25,8.75,11],"brachycephalyCI":[90,93,97],\
            "dolichocephalyCI":76,"foreheadAngleDegrees":125,"specialistCI":[70,105]} (any \
            subset). --asymmetry-ply writes the head coloured by its distance to its own \
            mirror image (blue flatter, red fuller, ±5 mm) and adds the map's figures.

            The optional calliper JSON holds hand measurements in millimetres: \
            {"lengthMM":…,"widthMM":…,"diagonalAMM":…,"diagonalBMM":…,"circumferenceMM":…} \
            (circumference optional); the output then compares them with the 3D values.

            Examples:
              headscan simulate --out s.hscan --truth s.truth.json --cvai 8
              headscan measure s.truth.ply --landmarks landmarks.json --svg slice.svg --json
              headscan measure head.ply --landmarks measurement.json --asymmetry-ply map.ply
            """)

    @Argument(help: "The head mesh (PLY, metres).", completion: .file(extensions: ["ply"]))
    var mesh: String

    @Option(help: "Landmarks JSON (metres, the mesh's frame).")
    var landmarks: String

    @Option(help: "Calliper measurements JSON (millimetres) to compare with.")
    var calliper: String?

    @Option(help: "Write the slice with its diagonals and values as SVG.")
    var svg: String?

    @Option(
        help:
            "Lowest slice height above the reference plane, millimetres (default 20: above the ears; a measurement.json given as --landmarks brings its own)."
    )
    var lowestSliceMM: Double?

    @Option(help: "A clinic's thresholds for deformity type and severity (JSON).")
    var thresholds: String?

    @Option(help: "Write the head coloured by its asymmetry map as PLY.")
    var asymmetryPly: String?

    @OptionGroup var outputOptions: OutputOptions

    func run() throws {
        let meshData = try read(mesh, what: "mesh")
        let headMesh = try PLY.decode([UInt8](meshData))
        let landmarkData = try read(landmarks, what: "landmarks")
        let points = try Self.landmarks(from: landmarkData)
        // A measurement.json measures again as it was measured, unless told otherwise.
        var options = Self.recordedOptions(landmarkData) ?? MeasurementOptions()
        if let lowestSliceMM { options.lowestHeight = lowestSliceMM / 1000 }
        let slice = try Cephalometer.measure(headMesh, landmarks: points, options: options)
        var comparison: CalliperComparison?
        if let calliper {
            let values: CalliperMeasurements
            do {
                values = try JSONDecoder().decode(CalliperMeasurements.self, from: read(calliper, what: "calliper values"))
            } catch let error as DecodingError {
                throw ValidationError(
                    "--calliper: expected {\"lengthMM\", \"widthMM\", \"diagonalAMM\", \"diagonalBMM\"[, \"circumferenceMM\"]} in millimetres (\(error))"
                )
            }
            comparison = try CalliperComparison(slice.measurement, calliper: values)
        }
        if let svg {
            do {
                try Data(SliceSVG.render(slice).utf8).write(to: fileURL(svg))
            } catch {
                throw ToolError("--svg: cannot write \(svg): \(error.localizedDescription)")
            }
        }
        var grading = ShapeThresholds()
        if let thresholds { grading = try ShapeThresholds.decode(json: read(thresholds, what: "thresholds")) }
        var asymmetry: AsymmetrySummary?
        if let asymmetryPly {
            let map = try AsymmetryMap.compute(headMesh, landmarks: points)
            do {
                try Data(PLY.encode(map.colored(headMesh), comment: "HeadScan asymmetry map: blue flatter, red fuller, saturating at 5 mm")).write(
                    to: fileURL(asymmetryPly))
            } catch {
                throw ToolError("--asymmetry-ply: cannot write \(asymmetryPly): \(error.localizedDescription)")
            }
            asymmetry = map.summary
        }
        let report = MeasureReport(
            measurement: slice.measurement, assessment: ShapeAssessment(slice.measurement, thresholds: grading), asymmetry: asymmetry,
            calliper: comparison)
        try outputOptions.emit(report)
    }

    /// The landmarks of a plain landmarks file, or of a scan session's annotations.json or
    /// measurement.json, so a session's files can be measured again as they are.
    /// The settings a `measurement.json` was measured with, nil for other landmark files.
    static func recordedOptions(_ data: Data) -> MeasurementOptions? {
        (try? MeasurementRecord.decode(from: data))?.measuredWith
    }

    static func landmarks(from data: Data) throws -> HeadLandmarks {
        do {
            return try HeadLandmarks.decode(json: data)
        } catch {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            if let annotations = try? decoder.decode(AnnotationsRecord.self, from: data) {
                guard let points = annotations.headLandmarks else {
                    throw ToolError(
                        "the annotations pick the landmarks on frames, not yet in 3D; measure the session with `headscan process SESSION_DIR` (it lifts the picks), or give measurement.json or points in metres"
                    )
                }
                return points
            }
            if let record = try? decoder.decode(MeasurementRecord.self, from: data) { return record.landmarks }
            throw error
        }
    }

    private func read(_ path: String, what: String) throws -> Data {
        do {
            return try Data(contentsOf: fileURL(path))
        } catch {
            throw ToolError("cannot read the \(what) file \(path): \(error.localizedDescription)")
        }
    }
}

/// What `headscan measure` prints: the measurement's fields at the top level, then the
/// calliper comparison when one was asked for.
struct MeasureReport: TextReport {
    var measurement: HeadMeasurement
    var assessment: ShapeAssessment
    var asymmetry: AsymmetrySummary?
    var calliper: CalliperComparison?

    private enum CodingKeys: String, CodingKey { case assessment, asymmetry, calliper }

    func encode(to encoder: any Encoder) throws {
        try measurement.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(assessment, forKey: .assessment)
        try container.encodeIfPresent(asymmetry, forKey: .asymmetry)
        try container.encodeIfPresent(calliper, forKey: .calliper)
    }

    var text: String {
        let m = measurement
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        var lines = [
            "CVAI            \(f(m.cvai)) %   (CHOA \(m.severityLevel))",
            "CVA             \(f(m.cvaMM)) mm, flattened side: \(m.flattenedSide.rawValue)",
            "diagonal A / B  \(f(m.diagonalAMM)) / \(f(m.diagonalBMM)) mm",
            "cranial index   \(f(m.ci))   (length \(f(m.lengthMM)) mm, width \(f(m.widthMM)) mm)",
            "circumference   \(f(m.circumferenceMM)) mm",
            "slice height    \(f(m.sliceHeightMM)) mm above the reference plane",
        ]
        if let c = calliper {
            lines.append(
                "calliper        CVAI \(f(c.calliperCVAI)) % (3D − calliper \(f(c.cvaiDifference))), CI \(f(c.calliperCI)) (\(f(c.ciDifference))), severity \(c.severityAgrees ? "agrees" : "differs: level \(c.calliperSeverityLevel.rawValue)")"
            )
        }
        lines += ConventionLines.lines(m.conventions)
        lines += ShapeLines.lines(shape: m.shape, assessment: assessment, asymmetry: asymmetry)
        lines += m.warnings.map { "warning: \($0.message)" }
        return lines.joined(separator: "\n")
    }
}

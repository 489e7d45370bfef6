import Foundation
import HeadGestures

/// What `headscan gestures --json` prints.
struct GesturesOutput: TextReport {
    var events: [GestureEventRecord]
    var calibration: CalibrationRecord?
    var frames: FrameCounts

    init(events: [TimedGestureEvent], engine: GestureEngine) {
        self.events = events.map(GestureEventRecord.init)
        calibration = engine.calibration.map { CalibrationRecord($0, counts: engine.counts) }
        frames = engine.counts
    }

    /// The human-readable form: one line per event, then calibration and frame counts.
    var text: String {
        var lines = events.map(\.text)
        if let c = calibration {
            lines.append(
                String(
                    format: "calibrated at %.2f s: centre (%.1f, %.1f) px, eye distance %.1f px (%d calibrations, %d restarts)",
                    c.t, c.centre[0], c.centre[1], c.eyeDistance, c.calibrations, c.restarts))
        } else {
            lines.append("never calibrated: no steady face in \(frames.frames) frames")
        }
        lines.append(
            "\(frames.frames) frames: \(frames.analysed) analysed, \(frames.withoutFace) without a face, "
                + "\(frames.degenerate) unusable, \(frames.skippedByRate) skipped for the detection rate, \(frames.badTime) out of order")
        let counts = Dictionary(grouping: events.filter { $0.type != "moved" }, by: \.type).mapValues(\.count)
        lines.append(
            "events: " + (counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }
}

/// One event in the output.
struct GestureEventRecord: Encodable {
    var t: Double
    var type: String
    var direction: String?
    var distance: Double?
    var centre: [Double]?
    var pointer: [Double]?

    init(_ e: TimedGestureEvent) {
        t = e.time
        type = e.event.typeName
        direction = e.event.direction?.rawValue
        distance = e.event.distance
        switch e.event {
        case .startedTracking(let c, _): centre = [c.x, c.y]
        case .moved(let m):
            pointer = [m.to.x, m.to.y]
            centre = [m.centre.x, m.centre.y]
            distance = (m.offset * m.offset).sum().squareRoot()
        default: break
        }
    }

    var text: String {
        var line = String(format: "%8.3f s  ", t) + type
        if let direction { line += " \(direction)" }
        if let distance { line += String(format: " (%.2f eye distances)", distance) }
        if let pointer { line += String(format: " at (%.1f, %.1f)", pointer[0], pointer[1]) }
        return line
    }
}

/// The latest calibration in the output.
struct CalibrationRecord: Encodable {
    var t: Double
    var centre: [Double]
    var eyeDistance: Double
    var calibrations: Int
    var restarts: Int

    init(_ c: Calibration, counts: FrameCounts) {
        t = c.time
        centre = [c.centre.x, c.centre.y]
        eyeDistance = c.eyeDistance
        calibrations = counts.calibrations
        restarts = counts.calibrationRestarts
    }
}

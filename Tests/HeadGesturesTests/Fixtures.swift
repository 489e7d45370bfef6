import HeadGestures

/// Frames whose head pointer sits exactly where a test wants it.
///
/// The face is an upright isosceles triangle: eyes `eyeDistance` apart, the mouth 1.09 eye
/// distances below them; its circumcentre lies 0.43 eye distances below the eyes' line.
struct FaceMaker {
    var eyeDistance = 64.0
    var width = 640
    var height = 480
    var fps = 30.0

    /// Circumcentre drop below the eye line for this triangle.
    var drop: Double {
        let a = eyeDistance / 2, h = eyeDistance * 70 / 64
        return (h * h - a * a) / (2 * h)
    }

    /// Landmarks whose circumcentre is `pointer`.
    func landmarks(pointer: SIMD2<Double>) -> FaceLandmarks {
        let eyeY = pointer.y - drop
        return FaceLandmarks(
            leftEye: SIMD2(pointer.x + eyeDistance / 2, eyeY), rightEye: SIMD2(pointer.x - eyeDistance / 2, eyeY),
            mouth: SIMD2(pointer.x, eyeY + eyeDistance * 70 / 64))
    }

    /// Frame `index` with the pointer at `pointer`.
    func frame(_ index: Int, pointer: SIMD2<Double>) -> FaceFrame {
        FaceFrame(time: Double(index) / fps, width: width, height: height, face: landmarks(pointer: pointer))
    }

    /// Frame `index` without a face.
    func empty(_ index: Int) -> FaceFrame {
        FaceFrame(time: Double(index) / fps, width: width, height: height, face: nil)
    }
}

/// An engine fed frame by frame from a fixed centre, offsets in eye distances in the
/// person's terms: +x is toward the person's left, +y down.
struct Driver {
    var engine: GestureEngine
    var maker = FaceMaker()
    var centre = SIMD2(320.0, 240.0)
    var index = 0
    var log: [TimedGestureEvent] = []

    init(_ configure: (inout GestureSettings) -> Void = { _ in }) throws {
        var settings = GestureSettings()
        settings.centreFollowSeconds = 0  // exact thresholds: the centre must stay put
        configure(&settings)
        engine = try GestureEngine(settings: settings)
    }

    /// Calibrates at rest; returns the events of the calibration frames.
    @discardableResult
    mutating func calibrate() -> [GestureEvent] {
        hold(SIMD2(0, 0), frames: engine.settings.calibrationSamples)
    }

    /// Feeds `frames` frames with the pointer at `offset` eye distances from the centre.
    @discardableResult
    mutating func hold(_ offset: SIMD2<Double>, frames: Int = 1) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for _ in 0..<frames {
            let frame = maker.frame(index, pointer: centre + offset * maker.eyeDistance)
            index += 1
            for e in engine.process(frame) {
                events.append(e)
                log.append(TimedGestureEvent(time: frame.time, event: e))
            }
        }
        return events.filter { if case .moved = $0 { false } else { true } }
    }

    /// Feeds `frames` frames without a face.
    @discardableResult
    mutating func noFace(frames: Int) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for _ in 0..<frames {
            events += engine.process(maker.empty(index))
            index += 1
        }
        return events
    }

    /// The last pointer move the engine reported.
    var lastMove: PointerMove? {
        for e in log.reversed() { if case .moved(let m) = e.event { return m } }
        return nil
    }
}

/// Offsets along a direction, in the person's terms.
func toward(_ d: GestureDirection, _ distance: Double) -> SIMD2<Double> {
    switch d {
    case .left: SIMD2(distance, 0)
    case .right: SIMD2(-distance, 0)
    case .down: SIMD2(0, distance)
    case .up: SIMD2(0, -distance)
    }
}

/// Whether two event lists agree, distances within 1e-9 (they pass through pixels).
func same(_ a: [GestureEvent], _ b: [GestureEvent]) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { x, y in
        x.typeName == y.typeName && x.direction == y.direction
            && abs((x.distance ?? 0) - (y.distance ?? 0)) < 1e-9
    }
}

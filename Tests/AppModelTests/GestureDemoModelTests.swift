import AppModel
import GestureFeature
import HeadGestures
import Testing

@MainActor
struct GestureDemoModelTests {
    /// Frame `k` with the head pointer at `pointer` (eyes 64 px apart, mouth 70 px below them).
    func frame(_ k: Int, _ pointer: SIMD2<Double>?) -> FaceFrame {
        let face = pointer.map { p in
            let eyeY = p.y - (70.0 * 70 - 32 * 32) / 140
            return FaceLandmarks(leftEye: SIMD2(p.x + 32, eyeY), rightEye: SIMD2(p.x - 32, eyeY), mouth: SIMD2(p.x, eyeY + 70))
        }
        return FaceFrame(time: Double(k) / 30, width: 640, height: 480, face: face)
    }

    func feed(_ model: GestureDemoModel, from k: inout Int, _ pointer: SIMD2<Double>?, frames: Int) {
        for _ in 0..<frames {
            model.receive(frame(k, pointer))
            k += 1
        }
    }

    @Test func showsCalibrationThenThePointerAndTheIdleZone() throws {
        let model = try GestureDemoModel(strings: strings(.en))
        #expect(model.status == "Looking for a face" && model.pointer == nil && model.idleZone == nil)
        var k = 0
        feed(model, from: &k, SIMD2(320, 240), frames: 5)
        #expect(model.calibrationProgress == 0.5)
        #expect(model.status == "Hold your head still … 50 %")
        #expect(model.facePoints.count == 3)
        feed(model, from: &k, SIMD2(320, 240), frames: 5)
        #expect(model.state == .tracking && model.calibrationProgress == nil)
        #expect(model.idleZone?.centre == SIMD2(320, 240))
        #expect(abs((model.idleZone?.radius ?? 0) - 12.8) < 1e-9)
        #expect(model.entries.map(\.text) == ["Head found, idle zone set"])
        feed(model, from: &k, SIMD2(325, 240), frames: 1)
        #expect(model.pointer == SIMD2(325, 240) && model.isInIdleZone)
    }

    @Test func listsLooksNewestFirstInTheAppsLanguage() throws {
        let model = try GestureDemoModel(strings: strings(.de))
        var k = 0
        feed(model, from: &k, SIMD2(320, 240), frames: 10)
        // Turning to one's own left moves the face to the right of the picture.
        feed(model, from: &k, SIMD2(350, 240), frames: 25)
        #expect(!model.isInIdleZone)
        feed(model, from: &k, SIMD2(320, 240), frames: 2)
        feed(model, from: &k, SIMD2(320, 210), frames: 25)
        feed(model, from: &k, SIMD2(320, 240), frames: 2)
        #expect(model.entries.map(\.text) == ["Nach oben geschaut", "Nach links geschaut", "Kopf erkannt, Ruhezone gesetzt"])
        #expect(model.entries.map(\.id) == [3, 2, 1])
    }

    @Test func continuousModeShowsLooksWhileTheyLast() throws {
        let model = try GestureDemoModel(strings: strings(.en))
        var k = 0
        feed(model, from: &k, SIMD2(320, 240), frames: 10)
        model.setMode(.continuous)
        #expect(model.mode == .continuous && model.state == .tracking)
        feed(model, from: &k, SIMD2(290, 240), frames: 3)
        #expect(model.entries.first?.text == "Looking right")
        model.setMode(.discrete)
        #expect(model.entries.first?.text == "Stopped looking right")
        #expect(model.label(for: .continuous) == "While looking")
    }

    @Test func keepsOnlyTheLatestEntries() throws {
        let model = try GestureDemoModel(strings: strings(.en))
        var k = 0
        feed(model, from: &k, SIMD2(320, 240), frames: 10)
        for _ in 0..<10 {
            feed(model, from: &k, SIMD2(320, 270), frames: 25)
            feed(model, from: &k, SIMD2(320, 240), frames: 20)
        }
        #expect(model.entries.count == GestureDemoModel.maxEntries)
        #expect(model.entries.allSatisfy { $0.text == "Looked down" })
        #expect(model.entries.first?.id == 11)
    }

    @Test func losingTheFaceClearsThePointerUntilRecalibrated() throws {
        let model = try GestureDemoModel(strings: strings(.en))
        var k = 0
        feed(model, from: &k, SIMD2(320, 240), frames: 10)
        feed(model, from: &k, nil, frames: 20)
        #expect(model.pointer == nil && model.idleZone == nil && model.facePoints.isEmpty)
        #expect(model.entries.first?.text == "Face lost")
        #expect(model.status == "Looking for a face")
        feed(model, from: &k, SIMD2(400, 260), frames: 10)
        #expect(model.idleZone?.centre == SIMD2(400, 260))
        #expect(model.entries.first?.text == "Head found, idle zone set")
        model.recalibrate()
        #expect(model.state == .searching && model.idleZone == nil)
        #expect(model.entries.count == 3)
    }
}

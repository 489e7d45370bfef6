import Foundation
import HeadGestures
import Testing

struct FormatAndSettingsTests {
    @Test func readsFacesAndMissingFaces() throws {
        let text = """
            {"t":0.033,"width":640,"height":480,"leftEye":[352,210],"rightEye":[288,211],"mouth":[320,285]}

            {"t":0.067,"face":null}
            {"t":0.1,"width":480,"height":640,"leftEye":[1,2],"rightEye":[3,4],"mouth":[5,6],"bounds":[0,0,100,120],"orientation":"right"}
            """
        let frames = try FaceStreamFormat.frames(in: text)
        #expect(frames.count == 3)
        #expect(frames[0].face?.leftEye == SIMD2(352, 210) && frames[0].width == 640)
        #expect(frames[1].face == nil && frames[1].time == 0.067)
        #expect(frames[2].orientation == .right && frames[2].face?.bounds?.height == 120)
    }

    @Test(arguments: [
        (#"{"t":0.1,"width":640,"height":480,"leftEye":[1,2],"rightEye":[3,4]}"#, "mouth"),
        (#"{"t":0.1}"#, "face"),
        (#"{"t":0.1,"width":640,"height":480,"leftEye":[1],"rightEye":[3,4],"mouth":[5,6]}"#, "leftEye"),
        (#"{"t":0.1,"face":{}}"#, "null"),
        (#"{"width":640}"#, "\"t\""),
        (#"{"t":0.1,"leftEye":[1,2],"rightEye":[3,4],"mouth":[5,6]}"#, "width"),
        ("not json", "JSON"),
    ])
    func aBadLineIsNamedByItsNumber(line: String, mentions: String) {
        let text = #"{"t":0,"face":null}"# + "\n" + #"{"t":0.03,"face":null}"# + "\n" + line
        do {
            _ = try FaceStreamFormat.frames(in: text)
            Issue.record("expected an error for \(line)")
        } catch {
            #expect(error.description.hasPrefix("line 3: "))
            #expect(error.description.contains(mentions))
            #expect(error.errorDescription == error.description)
        }
    }

    @Test func anEmptyStreamIsAnError() {
        #expect(throws: GestureError.emptyStream) { try FaceStreamFormat.frames(in: "\n\n") }
    }

    @Test func linesRoundTrip() throws {
        let face = FaceLandmarks(leftEye: SIMD2(352.125, 210.5), rightEye: SIMD2(288, 211), mouth: SIMD2(320, 285.25))
        for frame in [
            FaceFrame(time: 1.5, width: 640, height: 480, face: face),
            FaceFrame(time: 1.5333, width: 480, height: 640, face: face, orientation: .left),
            FaceFrame(time: 2, width: 640, height: 480, face: nil),
        ] {
            let back = try FaceStreamFormat.frame(line: FaceStreamFormat.line(for: frame), number: 1)
            #expect(back.face == frame.face && back.time == frame.time && back.orientation == frame.orientation)
        }
    }

    @Test func settingsNameOnlyWhatTheyChange() throws {
        let settings = try GestureSettings.decode(json: #"{"mode":"continuous","idleZoneDiameter":0.5,"movementThreshold":0.35}"#)
        #expect(settings.mode == .continuous && settings.idleRadius == 0.25 && settings.movementThreshold == 0.35)
        #expect(settings.calibrationSamples == GestureSettings().calibrationSamples)
    }

    @Test func badSettingsSayWhatToChange() {
        do {
            _ = try GestureSettings.decode(json: #"{"idleZoneDiamter":0.5}"#)
            Issue.record("a misspelt key must be an error")
        } catch {
            #expect(error.description.contains("idleZoneDiamter") && error.description.contains("idleZoneDiameter"))
        }
        do {
            _ = try GestureSettings.decode(json: #"{"idleZoneDiameter":0.8}"#)
            Issue.record("a threshold inside the idle zone must be an error")
        } catch {
            #expect(
                error
                    == .invalidSetting(
                        name: "movementThreshold", rule: "must be at least the idle radius (0.4); raise it or make idleZoneDiameter smaller"))
            #expect(error.localizedDescription.contains("movementThreshold"))
        }
        #expect(throws: GestureError.self) { try GestureSettings.decode(json: #"{"calibrationSamples":3}"#) }
        #expect(throws: GestureError.self) { try GestureSettings.decode(json: #"{"mode":"sometimes"}"#) }
    }
}

struct OrientationTests {
    @Test func deviceOrientationsGiveTheSeedsImageOrientations() {
        // Front camera, per the seed: portrait has the 0th row on the right (EXIF 6), upside
        // down on the left (8), landscape left at the bottom (3), landscape right on top (1).
        #expect(DeviceOrientation.portrait.frontCameraImageOrientation.exifValue == 6)
        #expect(DeviceOrientation.portraitUpsideDown.frontCameraImageOrientation.exifValue == 8)
        #expect(DeviceOrientation.landscapeLeft.frontCameraImageOrientation.exifValue == 3)
        #expect(DeviceOrientation.landscapeRight.frontCameraImageOrientation.exifValue == 1)
    }

    @Test(arguments: ImageOrientation.allCases)
    func storedAndUprightAreInverse(orientation: ImageOrientation) {
        let p = SIMD2(17.0, 301.5)
        let up = orientation.upright(p, width: 640, height: 480)
        let size = orientation.uprightSize(width: 640, height: 480)
        let stored = orientation.stored(up, width: 640, height: 480)
        #expect(abs(stored.x - p.x) < 1e-12 && abs(stored.y - p.y) < 1e-12)
        #expect(up.x >= 0 && up.x <= Double(size.width - 1) && up.y >= 0 && up.y <= Double(size.height - 1))
    }

    @Test func rightMeansTheZerothRowIsOnTheRight() {
        // EXIF 6: the stored first row appears as the upright picture's right column.
        let topLeft = ImageOrientation.right.upright(SIMD2(0, 0), width: 640, height: 480)
        #expect(topLeft == SIMD2(479, 0))
    }

    @Test(arguments: DeviceOrientation.allCases)
    func aLookLeftIsLeftWhicheverWayThePhoneIsHeld(device: DeviceOrientation) throws {
        var simulator = HeadMotionSimulator()
        simulator.noisePixels = 0
        simulator.dropoutRate = 0
        simulator.orientation = device.frontCameraImageOrientation
        if device == .portrait || device == .portraitUpsideDown {
            simulator.camera = .init(fx: 500, fy: 500, cx: 239.5, cy: 319.5, width: 480, height: 640)
        }
        let script = HeadMotionScript(
            motions: [.rest(seconds: 1), .look(.left, degrees: 25, rampSeconds: 0.3, holdSeconds: 0.8), .rest(seconds: 1)],
            start: SIMD3(0, 0, 0.45))
        let stream = simulator.run(script, face: SimulatedFace(), seed: 1)
        let events = try GestureEvaluation.events(of: stream.frames, settings: GestureSettings()).filter(\.event.isGesture)
        #expect(events.map(\.event.direction) == [.left])
    }
}

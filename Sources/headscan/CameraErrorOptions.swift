import ArgumentParser
import Geometry

/// How the simulated phone's camera differs from what its recording claims.
struct CameraErrorOptions: ParsableArguments {
    @Option(
        help:
            "Percent by which the recorded (factory) focal length is off from the true one, e.g. 6 or -3; the pictures are rendered with the true one."
    )
    var focalError = 0.0

    @Option(help: "Percent by which the sensor's depth is off, e.g. 1 reads everything 1 % too far.")
    var depthScaleError = 0.0

    @Option(help: "Pixels by which the recorded principal point is off from the true one, X,Y (e.g. 4,-3).")
    var principalShift = "0,0"

    @Option(
        help: "Pixels by which the depth map lies shifted against the colour picture, X,Y (a depth-to-colour registration that is off, e.g. 3,0).")
    var depthShift = "0,0"

    @Option(
        help: ArgumentHelp(
            "The lens's radial distortion, K1 or K1,K2 (OpenCV's terms; e.g. -0.05 is a mild barrel).",
            discussion: "The recording states it, as a phone that reports its calibration does, unless --distortion-unrecorded."))
    var lensDistortion = "0"

    @Flag(help: "The recording claims a pinhole camera although the lens distorts (a phone that does not report it).")
    var distortionUnrecorded = false

    /// The principal point shift in pixels; nil when the option does not parse.
    var shift: SIMD2<Double>? {
        let parts = numbers(principalShift)
        guard parts.count == 2, parts.allSatisfy({ abs($0) <= 100 }) else { return nil }
        return SIMD2(parts[0], parts[1])
    }

    /// The depth map's shift against colour in whole pixels; nil when the option does not parse.
    var depthShiftPixels: SIMD2<Int>? {
        let parts = numbers(depthShift)
        guard parts.count == 2, parts.allSatisfy({ abs($0) <= 50 && $0 == $0.rounded() }) else { return nil }
        return SIMD2(Int(parts[0]), Int(parts[1]))
    }

    /// The lens's distortion; nil when the option does not parse.
    var distortion: RadialDistortion? {
        let parts = numbers(lensDistortion)
        guard (1...2).contains(parts.count), parts.allSatisfy({ abs($0) <= 0.5 }) else { return nil }
        return RadialDistortion(k1: parts[0], k2: parts.count > 1 ? parts[1] : 0)
    }

    func validate() throws {
        guard abs(focalError) <= 30 else { throw ValidationError("--focal-error is in percent, between -30 and 30") }
        guard abs(depthScaleError) <= 30 else { throw ValidationError("--depth-scale-error is in percent, between -30 and 30") }
        guard shift != nil else { throw ValidationError("--principal-shift is X,Y in pixels, each within 100, e.g. 4,-3") }
        guard depthShiftPixels != nil else { throw ValidationError("--depth-shift is X,Y in whole pixels, each within 50, e.g. 3,0") }
        guard distortion != nil else { throw ValidationError("--lens-distortion is K1 or K1,K2, each within 0.5, e.g. -0.05 or -0.05,0.01") }
    }

    private func numbers(_ text: String) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? [] : parts.compactMap { $0 }.filter(\.isFinite)
    }
}

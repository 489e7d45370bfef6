import ArgumentParser
import Foundation
import RangeOfMotion

/// `headscan rom bench`: accuracy and gate figures on simulated videos, by view angle.
struct RomBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the knee measurement on simulated videos: angle errors by posture and view angle, gate rates, time.",
        discussion: """
            Simulates knee flexion filmed at 3 frames per second for 20 s in the three postures \
            physiotherapists use: standing with the heel drawn up behind, lying on the back \
            sliding the heel towards the buttock, and sitting with the shank swinging under the \
            chair. Each video bends a leg in 3D through its own known range (flexion 60…150°, \
            extension -5…10°) in strokes of its own shape, from a harmonic swing to a \
            minimum-jerk stroke that lingers at the ends, bending faster or slower than it \
            straightens; left and right knees alternately, every other pair mirrored as a \
            front camera's video is. A pinhole camera films from the patient's side and turned \
            30° and 60° toward the front (portrait for standing, landscape otherwise); each \
            phone's focal length is 0.85…1.15 times the assumed one and each patient's pelvis \
            turned up to 8° against the moving leg. Keypoint noise is 3 px (about 1.4 % of \
            the thigh's length in the picture) and 20 % of the frames are spoiled: a joint \
            below 0.3 confidence, the legs swapped, knee and ankle swapped, or hip and knee \
            swapped.

            A second table measures every posture and view again with the knee turning \
            straight back at both ends instead of holding them (a smooth cycle without a \
            pause, whose extremes fall between the frames). A third measures the side views \
            with the original app's gates, which assume \
            a standing patient; a fourth shows, standing from the side, how the errors grow with \
            the noise (1.5, 3, 6 px) and with a per-video joint offset (2, 4 px: the pose model \
            marking a joint consistently off its centre, which no smoothing removes).

            Errors compare the measured angle with the true 3D angle. Seen at a slant the \
            image angle is not the 3D angle, so the errors grow with the view angle; the \
            targets: from the side median ≤ 2° and the smallest and largest angle within 2° \
            at 30° and from the side, held or turning, the gates passing ≥ 95 % of the clean frames and rejecting \
            ≥ 90 % of the spoiled ones. A spoiled frame counts as harmful when its mistake \
            moves the image angle by more than 5° (or its joint is unsure). Beside the \
            share of videos with both ends within 2° stands the frames' own limit: the share \
            an estimator that knew the motion's true shape would reach from the same passed \
            frames (the mean error of those within a quarter of the motion of each end), so \
            what the frames allow and what the reading of the ends loses can be told apart. \
            Each end is given with its uncertainty (the frames' scatter, the fit's shape, the \
            plane's error and the phone's unknown field of view); "within 2 uncertainties" is \
            the share of ends whose error it holds twice over, about 95 % when it is honest.

            Examples:
              swift run -c release headscan rom bench --json
              swift run -c release headscan rom bench --first-video 40
              swift run -c release headscan rom bench --settings '{"correctSlant": false}'
            """)

    @Option(help: "Simulated videos per posture and view angle.")
    var videos = 40

    @Option(
        help:
            "Number of the first video. Each video draws its patient, motion and camera from its number, so --first-video 40 measures a fresh set of videos: figures that hold only on one set were tuned to it."
    )
    var firstVideo = 0

    @Option(help: "Settings to measure with: a JSON file or inline JSON, as for rom analyze (e.g. '{\"correctSlant\": false}').")
    var settings: String?

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        guard videos > 0 else { throw ValidationError("--videos must be at least 1") }
        guard firstVideo >= 0, firstVideo <= 1_000_000 else { throw ValidationError("--first-video must be 0 to 1000000") }
    }

    func run() throws {
        var benchmark = SimulationBenchmark()
        benchmark.videosPerView = videos
        benchmark.firstVideo = firstVideo
        benchmark.settings = try RomInput.settings(settings)
        var bar = ProgressBar("views")
        let views = try benchmark.run { bar.update($0, of: $1) }
        var turningBar = ProgressBar("turning ends")
        let turning = try benchmark.turningEnds { turningBar.update($0, of: $1) }
        var originalBar = ProgressBar("original gates")
        let original = try benchmark.originalGates { originalBar.update($0, of: $1) }
        var noiseBar = ProgressBar("noise and offsets")
        let sensitivity = try benchmark.sensitivity { noiseBar.update($0, of: $1) }
        let result = RomBenchResult(
            firstVideo: firstVideo, framesPerVideo: Int(benchmark.simulation.duration * benchmark.simulation.framesPerSecond),
            noisePixels: benchmark.simulation.noisePixels, corruptedShare: benchmark.simulation.corruptedShare,
            views: views, turningEnds: turning, originalGates: original, sensitivity: sensitivity)
        try outputOptions.emit(result)
    }
}

/// Everything `headscan rom bench` reports.
struct RomBenchResult: TextReport {
    /// Videos firstVideo, firstVideo + 1, … were measured.
    var firstVideo: Int
    var framesPerVideo: Int
    var noisePixels: Double
    var corruptedShare: Double
    var views: [ViewFigures]
    /// The same videos with the knee turning straight back at its ends, by posture and view.
    var turningEnds: [ViewFigures]
    /// From the side with the original app's gates, by posture.
    var originalGates: [ViewFigures]
    /// Standing, from the side, at other noise levels and joint offsets.
    var sensitivity: [ViewFigures]

    var text: String {
        func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
        func p(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
        var lines = [
            "\(views.first?.videos ?? 0) videos per posture and view from video \(firstVideo), \(framesPerVideo) frames each; keypoint noise \(f(noisePixels, 1)) px, \(p(corruptedShare)) of frames spoiled"
        ]
        for v in views {
            lines.append("")
            lines.append(
                "\(v.posture.rawValue), view \(Int(v.viewDegrees))° off the side (\(v.mirroredVideos) mirrored): \(v.acceptedVideos)/\(v.videos) videos accepted, \(v.notSideOnWarnings) warned 'not from the side', \(v.endLeftPictureWarnings) 'left the picture at an end' (\(v.boundEndsHeld) of \(v.boundEnds) ends given as 'at least' hold)"
            )
            lines.append(
                "  angle error   median \(f(v.medianError))°, p95 \(f(v.p95Error))°   (before smoothing \(f(v.medianRawError))°, \(f(v.p95RawError))°)"
            )
            lines.append(
                "  min angle     median \(f(v.minAngleMedianError))°, worst \(f(v.minAngleWorstError))°   "
                    + "lean inward \(f(v.minAngleMedianInward))° / \(f(v.maxAngleMedianInward))° (min / max), "
                    + "within 2 uncertainties \(p(v.extremesWithinTwoUncertainties))")
            lines.append(
                "  max angle     median \(f(v.maxAngleMedianError))°, worst \(f(v.maxAngleWorstError))°   both within 3°: \(p(v.extremesWithin3Degrees)), within 2°: \(p(v.extremesWithin2Degrees)) (the frames' own limit \(p(v.shapeKnownWithin2Degrees)))"
            )
            lines.append(
                "  gates         clean frames passed \(p(v.cleanPassShare)); spoiled rejected \(p(v.corruptedRejectedShare)) (\(v.corruptedFrames)), harmful rejected \(p(v.harmfulRejectedShare)) (\(v.harmfulFrames))"
            )
            lines.append(
                "  by mistake    " + v.rejectedShareByCorruption.sorted { $0.key < $1.key }.map { "\($0.key) \(p($0.value))" }.joined(separator: ", ")
            )
            lines.append("  time          \(f(v.secondsPerVideo * 1000, 3)) ms per video")
        }
        lines.append("")
        lines.append(
            "turning ends (no hold):         min angle median / worst   max angle median / worst   "
                + "both within 2° (frames' limit)   lean inward min / max")
        for v in turningEnds {
            let name = "\(v.posture.rawValue), \(Int(v.viewDegrees))°".padding(toLength: 30, withPad: " ", startingAt: 0)
            lines.append(
                "  \(name)\(f(v.minAngleMedianError))° / \(f(v.minAngleWorstError))°            "
                    + "\(f(v.maxAngleMedianError))° / \(f(v.maxAngleWorstError))°            "
                    + "\(p(v.extremesWithin2Degrees)) (\(p(v.shapeKnownWithin2Degrees)))          "
                    + "\(f(v.minAngleMedianInward))° / \(f(v.maxAngleMedianInward))°"
            )
        }
        lines.append("")
        lines.append("original gates, from the side:  accepted  clean passed  spoiled rejected  worst min/max")
        for v in originalGates {
            lines.append(
                "  \(v.posture.rawValue.padding(toLength: 30, withPad: " ", startingAt: 0))\(v.acceptedVideos)/\(v.videos)     \(p(v.cleanPassShare))       \(p(v.corruptedRejectedShare))           \(v.acceptedVideos > 0 ? "\(f(v.minAngleWorstError))° / \(f(v.maxAngleWorstError))°" : "none accepted")"
            )
        }
        lines.append("")
        lines.append("standing, from the side: noise  offset   median   p95     worst min/max   clean passed  accepted")
        for v in sensitivity {
            lines.append(
                "                         \(f(v.noisePixels, 1)) px \(f(v.offsetPixels, 1)) px   \(f(v.medianError))°   \(f(v.p95Error))°   \(f(v.minAngleWorstError))° / \(f(v.maxAngleWorstError))°   \(p(v.cleanPassShare))       \(v.acceptedVideos)/\(v.videos)"
            )
        }
        return lines.joined(separator: "\n")
    }
}

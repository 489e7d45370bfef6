import ArgumentParser
import Foundation
import RangeOfMotion

/// `headscan rom simulate`: a poses file of a simulated knee with its truth.
struct RomSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write the poses of a simulated knee bending and straightening, with the truth.",
        discussion: """
            A patient bends one knee and straightens it again, holding a moment at each end \
            (--hold 0: turning straight back, a smooth cycle without a pause): \
            standing with the heel drawn up behind, lying on the back sliding the heel towards \
            the buttock, or sitting with the shank swinging under the chair (--posture). A phone \
            films from the side (or --view degrees toward the front), portrait for standing and \
            landscape otherwise, mirrored with --mirrored as a front camera films; a pose \
            model's keypoints come out with noise, and with --spoiled a share of frames carries \
            the pose model's typical mistakes. The truth file holds the true 3D knee angle of \
            every frame.

            Examples:
              headscan rom simulate --out poses.json --truth truth.json
              headscan rom simulate --out slanted.json --view 30 --extension=-10 --flexion 120 --side right
              headscan rom simulate --out lying.json --posture lying --flexion 145 --mirrored
              headscan rom simulate --out turning.json --extension=-2 --flexion 137 --hold 0
            """)

    @Option(help: "The poses file to write.")
    var out: String

    @Option(help: "Write the truth (true angles, mistakes per frame) to this JSON file.")
    var truth: String?

    @Option(help: "The knee that moves.")
    var side: BodySide = .left

    @Option(help: "How the patient holds the leg.")
    var posture: KneePosture = .standing

    @Flag(help: "Mirror the video left to right, as a front camera films.")
    var mirrored = false

    @Option(help: "Degrees past straight at the straight end (negative: stops short of straight).")
    var `extension` = 5.0

    @Option(help: "Knee flexion at the bent end, degrees.")
    var flexion = 130.0

    @Option(help: "Seconds of one bend and straighten.")
    var cycle = 5.0

    @Option(help: "Seconds held at each end (0: the knee turns straight back).")
    var hold = 0.8

    @Option(help: "Camera direction, degrees off the patient's side toward the front.")
    var view = 0.0

    @Option(help: "Seconds of video.")
    var seconds = 20.0

    @Option(help: "Keypoint noise, pixels.")
    var noise = 3.0

    @Option(help: "Share of frames with a pose model's mistake (0...1).")
    var spoiled = 0.2

    @Option(help: "Seed of the random numbers.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (-30...30).contains(`extension`), (0...160).contains(flexion), flexion + `extension` > 0 else {
            throw ValidationError("--extension must be -30…30 and --flexion 0…160, bending at least a little")
        }
        guard cycle >= 1, cycle <= 60, hold >= 0, 2 * hold < cycle else {
            throw ValidationError("--cycle must be 1…60 s and --hold 0 or more, less than half the cycle")
        }
        guard (0...80).contains(view) else { throw ValidationError("--view must be 0…80 degrees") }
        guard seconds >= 1, seconds <= 600 else { throw ValidationError("--seconds must be 1…600") }
        guard noise >= 0, (0...1).contains(spoiled) else { throw ValidationError("--noise must be 0 or more and --spoiled 0…1") }
    }

    func run() throws {
        var simulation = LegSimulation()
        simulation.leg.side = side
        simulation.leg.posture = posture
        simulation.mirrored = mirrored
        simulation.camera = SideCamera(filming: posture, viewDegrees: view)
        simulation.leg.motion.extensionDegrees = `extension`
        simulation.leg.motion.flexionDegrees = flexion
        simulation.leg.motion.cycleSeconds = cycle
        simulation.leg.motion.holdSeconds = hold
        simulation.duration = seconds
        simulation.noisePixels = noise
        simulation.corruptedShare = spoiled
        let video = LegSimulator(simulation).video(seed: seed)
        try write(video.poses.encodedJSON(), to: out)
        if let truth {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try write(encoder.encode(SimulationTruth(video, posture: posture, view: view)), to: truth)
        }
        let nz = NeutralZero(minAngle: video.trueMinimum, maxAngle: video.trueMaximum)
        print(
            "wrote \(out): \(video.poses.frames.count) frames of the \(side.rawValue) knee, \(posture.rawValue)\(mirrored ? ", mirrored" : ""), true extension/flexion \(nz.notation)"
        )
    }

    private func write(_ data: Data, to path: String) throws {
        do { try data.write(to: fileURL(path)) } catch {
            throw ToolError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// The truth behind a simulated poses file.
struct SimulationTruth: Encodable {
    struct Frame: Encodable {
        var t: Double
        var trueAngle: Double
        var mistake: String?
    }
    var side: String
    var posture: String
    var mirrored: Bool
    var viewDegrees: Double
    var trueMinAngle: Double
    var trueMaxAngle: Double
    var neutralZero: String
    var frames: [Frame]

    init(_ video: SimulatedVideo, posture: KneePosture, view: Double) {
        side = video.side.rawValue
        self.posture = posture.rawValue
        mirrored = video.mirrored
        viewDegrees = view
        trueMinAngle = video.trueMinimum
        trueMaxAngle = video.trueMaximum
        neutralZero = NeutralZero(minAngle: video.trueMinimum, maxAngle: video.trueMaximum).notation
        frames = video.poses.frames.indices.map {
            Frame(t: video.poses.frames[$0].time, trueAngle: video.trueAngles[$0], mistake: video.corruptions[$0]?.rawValue)
        }
    }
}

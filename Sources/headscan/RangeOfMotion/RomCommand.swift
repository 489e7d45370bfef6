import ArgumentParser

/// `headscan rom`: the knee's range of motion from the poses of a phone video.
struct RomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rom",
        abstract: "Knee range of motion from a video's poses: quality gates, angles, neutral-zero form, report.",
        discussion: """
            The patient films the knee bending and straightening, from the side; a pose model \
            finds hip, knee and ankle in frames sampled 3 times a second. `rom analyze` gates \
            the frames, reads the knee angle and writes extension and flexion in the neutral-zero \
            form (e.g. 5-0-140), with an HTML and PDF report and a history per patient. \
            `rom simulate` makes a poses file to try it with.

            Examples:
              headscan rom simulate --out poses.json
              headscan rom analyze poses.json --side left --report out
              headscan rom analyze poses.json --side left --patient 12 --root ROM
              headscan rom history --patient 12 --root ROM
            """,
        subcommands: [RomAnalyzeCommand.self, RomSimulateCommand.self, RomHistoryCommand.self, RomBenchCommand.self])
}

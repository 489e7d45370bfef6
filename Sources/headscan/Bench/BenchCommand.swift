import ArgumentParser

/// `headscan bench`: release-mode measurements of the parts that must be fast.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure speed and size (build with -c release for meaningful figures).",
        subcommands: [
            FormatBenchCommand.self, SimulationBenchCommand.self, FeedbackBenchCommand.self, MeasureBenchCommand.self, PipelineBenchCommand.self,
            ShapeBenchCommand.self, LandmarksBenchCommand.self, CapBenchCommand.self, MarkerlessBenchCommand.self,
        ])
}

import ArgumentParser
import CProcessControl
import Recording

/// The `headscan` command-line tool: inspect, convert and benchmark infant head scans.
@main
struct HeadScan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headscan",
        abstract: "Record, inspect and measure infant head scans (plagiocephaly).",
        discussion: """
            A scan is one .hscan file: colour and depth frames from the TrueDepth camera while \
            the operator walks around the infant. Start with `headscan demo`: it simulates a \
            guided scan, reconstructs and measures the head and writes a clinical report. \
            `headscan inspect FILE` shows what a recording holds.
            """,
        version: HeadScanVersion.current,
        subcommands: [DemoCommand.self],
        groupedSubcommands: [
            CommandGroup(
                name: "Measuring scans",
                subcommands: [
                    ProcessCommand.self, MeasureCommand.self, ReportCommand.self, TrendCommand.self, LibraryCommand.self,
                    ConsentCommand.self, UploadCommand.self,
                ]),
            CommandGroup(
                name: "Recordings and the camera",
                subcommands: [
                    InspectCommand.self, ReplayCommand.self, GuideCommand.self, ReconstructCommand.self, CheckPhoneCommand.self,
                    CalibrateCommand.self, ExportCommand.self, ImportTUMCommand.self, ImportStrayScannerCommand.self,
                ]),
            CommandGroup(
                name: "Development: simulation, markers, benchmarks",
                subcommands: [
                    SimulateCommand.self, SimulateBoardCommand.self, SynthesizeCommand.self, DetectCommand.self, MarkersCommand.self,
                    BenchCommand.self,
                ]),
            CommandGroup(name: "Related systems", subcommands: [RomCommand.self, GesturesCommand.self]),
        ])

    /// ArgumentParser's entry point, after one setting of the memory allocator: a scan's frames
    /// are decoded one after another into buffers of megabytes, and glibc gave each back to the
    /// kernel when it was freed and faulted the next one in again page by page (half a second
    /// of a 60 s scan's reconstruction, 190 000 page faults; 20 000 now).
    static func main() async {
        hs_keep_freed_memory()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

import ArgumentParser
import Recording

/// How a command stores colour when it writes a scan: `--color jpeg|png --quality N`.
struct ColorOptions: ParsableArguments {
    @Option(help: "Colour storage: jpeg (small) or png (lossless).")
    var color: ColorChoice = .jpeg

    @Option(help: "JPEG quality, 1...100.")
    var quality = 92

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1...100") }
    }

    /// The codec the options describe.
    var codec: ColorCodec { color == .png ? .png : .jpeg(quality: quality) }
}

/// Colour storage as named on the command line.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case jpeg, png
}

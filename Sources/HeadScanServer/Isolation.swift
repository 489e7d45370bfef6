import Foundation

/// Work on uploaded data in a process of its own: the service's own binary started with a
/// subcommand (`tum-export`, `process-folder`), so that a recording or document that trips a
/// fault fails its own download or job and never the service.
public struct Isolation: Sendable {
    /// The `headscan-server` binary.
    public var executable: URL

    public init(executable: URL) {
        self.executable = executable
    }

    /// The running binary, when it can be found.
    public static var currentExecutable: Isolation? {
        let url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if FileManager.default.isExecutableFile(atPath: url.path), url.path != "/proc/self/exe" { return Isolation(executable: url) }
        return Bundle.main.executableURL.map(Isolation.init)
    }

    /// Why isolated work failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs the binary with `arguments` and returns what it printed; a crash or a non-zero exit
    /// becomes a `Failure` with the end of what it wrote to standard error.
    func run(_ arguments: [String]) async throws -> Data {
        let executable = self.executable
        return try await ResearchServer.offload {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Read both while it runs, so a full pipe never blocks it.
            let errorText = Locked(Data())
            let reader = Thread { errorText.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
            reader.start()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                let tail = String(decoding: errorText.withLock { $0 }.suffix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let how = process.terminationReason == .uncaughtSignal ? "stopped by signal \(process.terminationStatus)" : "exited with \(process.terminationStatus)"
                throw Failure(description: "the \(arguments.first ?? "work") process \(how)\(tail.isEmpty ? "" : ": \(tail)")")
            }
            return data
        }
    }
}

import Feedback
import Foundation

// espeak-ng runs as a child process, which only the command line can start; the portable
// Feedback module stays free of it so the app can use it on iOS.
extension SpeechRenderer {
    /// A synthesizer running espeak-ng with `voice` (e.g. "de", "en"); throws
    /// `.speechSynthesizerMissing` with install instructions when it is not on the PATH.
    public static func espeak(voice: String) throws(FeedbackError) -> Synthesizer {
        guard let tool = findExecutable("espeak-ng") else { throw .speechSynthesizerMissing }
        return { (text: String) throws(FeedbackError) -> AudioClip in
            let process = Process()
            process.executableURL = tool
            process.arguments = ["-v", voice, "--stdout", text]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw .speechSynthesisFailed("cannot start espeak-ng: \(error)") }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw .speechSynthesisFailed("espeak-ng exited with status \(process.terminationStatus) for \"\(text)\"")
            }
            return try AudioClip(wav: Array(data))
        }
    }

    private static func findExecutable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }
}

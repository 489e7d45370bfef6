import ChildProcesses
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
            let data: Data
            do {
                let pipe = try ChildPipe()
                try process.run(input: nil, output: pipe, errors: nil)
                data = pipe.reading.readDataToEndOfFile()
            } catch { throw .speechSynthesisFailed("cannot start espeak-ng: \(error)") }
            switch process.waitForEnd() {
            case .exited(0): break
            case .exited(let status): throw .speechSynthesisFailed("espeak-ng exited with status \(status) for \"\(text)\"")
            case .signalled(let signal): throw .speechSynthesisFailed("espeak-ng stopped by signal \(signal) for \"\(text)\"")
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

import ChildProcesses
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The helpers' pipes: no child but the one they are meant for inherits an end, and the
/// parent's copy of the child's end is closed, so the parent sees the pipe end when the child
/// does.
@Suite(.timeLimit(.minutes(1))) struct ChildPipeTests {
    @Test func bothEndsAreClosedOnExecFromTheStart() throws {
        let pipe = try ChildPipe()
        for handle in [pipe.reading, pipe.writing] {
            #expect(fcntl(handle.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)
        }
    }

    /// Foundation's `Pipe`, for contrast: a child another thread starts while it is open keeps
    /// an end unless `Process` happens to list it first.
    @Test func foundationsPipeIsNot() {
        let pipe = Pipe()
        #expect(fcntl(pipe.fileHandleForWriting.fileDescriptor, F_GETFD) & FD_CLOEXEC == 0)
    }

    @Test func theChildsOutputEndsWhenTheChildEnds() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "read word; echo \"got $word\"; echo said >&2; exit 3"]
        let input = try ChildPipe(), output = try ChildPipe(), errors = try ChildPipe()
        try process.run(input: input, output: output, errors: errors)
        try input.writing.write(contentsOf: Data("this\n".utf8))
        try input.writing.close()
        // Both reads return only because this process no longer holds the child's ends.
        #expect(String(decoding: output.reading.readDataToEndOfFile(), as: UTF8.self) == "got this\n")
        #expect(String(decoding: errors.reading.readDataToEndOfFile(), as: UTF8.self) == "said\n")
        #expect(process.waitForEnd() == .exited(3))
    }
}

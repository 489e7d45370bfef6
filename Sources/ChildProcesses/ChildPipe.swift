import CProcessControl
import Foundation

/// A pipe to or from one child process that no other child inherits.
///
/// Foundation's `Pipe` opens both ends without close-on-exec, and `Process` closes the parent's
/// other descriptors in the child from a list it takes just before starting it: a pipe another
/// thread opens in between is inherited. A child that inherits the writing end of someone
/// else's pipe keeps that pipe's reader from ever seeing its end (a parallel test run once
/// waited ten minutes on a `sleep` that held an upload helper's output). Both ends here are
/// opened closed-on-exec in one step; `Process.run(input:output:errors:)` hands the child its
/// end as a standard stream and closes that end in this process.
public final class ChildPipe: Sendable {
    /// The end this process reads (a pipe for the child's output).
    public let reading: FileHandle
    /// The end this process writes (a pipe for the child's input).
    public let writing: FileHandle

    public init() throws(ChildPipeError) {
        var fds: [Int32] = [-1, -1]
        guard hs_pipe_closed_on_exec(&fds) == 0 else { throw ChildPipeError(errno: errno) }
        reading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
    }
}

/// A pipe could not be opened: the process has run out of file descriptors or the system of
/// pipes.
public struct ChildPipeError: Error, CustomStringConvertible {
    public let errno: Int32

    public var description: String {
        "cannot open a pipe to a helper process (\(String(cString: strerror(errno)))); close other programs or raise the open-file limit"
    }
}

extension Process {
    /// Starts the child with `input` as its standard input and `output` and `errors` as its
    /// standard output and error (each nil: the null device), then closes the child's ends in
    /// this process, so that the parent's end sees the pipe end when the child does.
    public func run(input: ChildPipe?, output: ChildPipe?, errors: ChildPipe?) throws {
        standardInput = input?.reading ?? FileHandle.nullDevice
        standardOutput = output?.writing ?? FileHandle.nullDevice
        standardError = errors?.writing ?? FileHandle.nullDevice
        defer {
            try? input?.reading.close()
            try? output?.writing.close()
            try? errors?.writing.close()
        }
        try run()
    }
}

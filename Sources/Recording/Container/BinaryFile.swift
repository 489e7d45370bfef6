#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for positioned reads and appending writes, closed when released.
///
/// `pread` needs no shared seek position, so one reader can serve several threads.
final class BinaryFile: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens an existing file for reading.
    init(readingAt path: String) throws(ScanFileError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: Self.lastError()) }
    }

    /// Creates a file for writing; an existing file is replaced only when `overwrite` is set.
    init(creatingAt path: String, overwrite: Bool) throws(ScanFileError) {
        self.path = path
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL)
        descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: Self.lastError()) }
    }

    deinit { close(descriptor) }

    /// Size of the file in bytes.
    func size() throws(ScanFileError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, reason: Self.lastError()) }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file. A count
    /// beyond the file's end (a damaged length field) allocates only what is there.
    func read(at offset: Int, count requested: Int) throws(ScanFileError) -> [UInt8] {
        guard requested > 0, offset >= 0 else { return [] }
        let count = min(requested, max(0, try size() - offset))
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        var failure: String?
        result.withUnsafeMutableBytes { raw in
            while done < count {
                let n = pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = Self.lastError(); return }
                if n == 0 { return }
                done += n
            }
        }
        if let failure { throw .io(path: path, reason: failure) }
        if done < count { result.removeLast(count - done) }
        return result
    }

    /// Appends all of `bytes` at the end of what was written so far.
    func write(_ bytes: [UInt8]) throws(ScanFileError) {
        var done = 0
        var failure: String?
        bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = systemWrite(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = Self.lastError(); return }
                done += n
            }
        }
        if let failure { throw .io(path: path, reason: failure) }
    }

    /// Forces written bytes to storage, so that a power loss keeps them.
    func synchronize() throws(ScanFileError) {
        guard fsync(descriptor) == 0 else { throw .io(path: path, reason: Self.lastError()) }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from `BinaryFile.write` so the call is unambiguous.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

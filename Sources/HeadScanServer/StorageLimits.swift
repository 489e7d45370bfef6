import Foundation

/// What one device may keep open and how much disk the service keeps free.
public struct StorageLimits: Sendable {
    /// Unfinished uploads one device may have at once.
    public var openUploadsPerDevice = 8
    /// Bytes one device may have announced in its unfinished uploads together.
    public var announcedBytesPerDevice: Int64 = 32 << 30
    /// Free bytes the data folder's disk always keeps; below it uploads wait (503).
    public var reserveBytes: Int64 = 2 << 30
    /// Seconds after its last chunk an unfinished upload counts as abandoned and is deleted.
    public var abandonedAfter: Double = 7 * 86_400
    /// Free bytes on the disk of a folder (replaceable in tests).
    public var freeSpace: @Sendable (URL) -> Int64? = { url in
        (try? url.resourceValues(forKeys: [.volumeAvailableCapacityKey]).volumeAvailableCapacity).map(Int64.init)
    }

    public init() {}

    /// Whether `bytes` more fit on the disk of `folder` with the reserve kept.
    func fits(_ bytes: Int64, in folder: URL) -> Bool {
        guard let free = freeSpace(folder) else { return true }
        return free - bytes >= reserveBytes
    }

    static func noSpace(_ what: String) -> APIError {
        var error = APIError(
            .serviceUnavailable, "the server is short of disk space and cannot take \(what) now; try again later (what was received is kept)")
        error.headers[.retryAfter] = "600"
        return error
    }
}

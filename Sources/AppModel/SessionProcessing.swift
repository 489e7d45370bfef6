import Foundation
import Processing
import ScanLibrary

/// Runs a session's processing away from the main actor: reconstruction takes seconds to
/// minutes and the screen must stay responsive. Tests pass a fake.
public protocol SessionProcessing: Sendable {
    /// Processes `session`, reporting progress; stops soon after `isCancelled` turns true.
    /// `overLiftedCap` measures a scan whose cap stood off the skin (with a warning) instead
    /// of refusing it.
    func process(
        _ session: ScanSession, overLiftedCap: Bool, progress: @escaping @Sendable (ProcessingProgress) -> Void,
        isCancelled: @escaping @Sendable () -> Bool
    ) async throws -> ProcessingResult
}

/// The real processing: `SessionProcessor` on a background task.
public struct LiveSessionProcessing: SessionProcessing {
    public let library: ScanLibrary
    public var options: ProcessingOptions

    public init(library: ScanLibrary, options: ProcessingOptions = .init()) {
        self.library = library
        self.options = options
    }

    public func process(
        _ session: ScanSession, overLiftedCap: Bool, progress: @escaping @Sendable (ProcessingProgress) -> Void,
        isCancelled: @escaping @Sendable () -> Bool
    ) async throws -> ProcessingResult {
        var options = options
        options.measuresOverLiftedCap = options.measuresOverLiftedCap || overLiftedCap
        let processor = SessionProcessor(library: library, options: options)
        return try await Task.detached(priority: .userInitiated) {
            try processor.process(session, progress: progress, isCancelled: isCancelled)
        }.value
    }
}

import Foundation

/// A benchmark or simulated session that cannot go on (a kept scan missing, a reconstruction
/// record absent), with what to do about it.
public struct EvaluationError: Error, CustomStringConvertible, LocalizedError {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}

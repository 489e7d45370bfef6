import Foundation

/// A problem the command line meets while running (a file it cannot read or write, a folder
/// that is not what was asked for), with what to do about it. Bad arguments are
/// `ValidationError`s instead: only those need the usage printed after them.
struct ToolError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}

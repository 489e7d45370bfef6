import AppModel
import AppSupport
import Feedback
import Recording

/// The texts in `language` (English unless given).
func strings(_ language: Language = .en) -> Strings { try! Strings(language: language) }

/// What a recorder throws when the disk is full: one of the product's own errors, so the tests
/// see whether its message reaches the screen (a test double with its own LocalizedError would
/// hide a product error that lacks one).
let recorderFailure = ScanFileError.io(path: "scan.hscan", reason: "no space left on the device")

/// A value a test's closures can set.
@MainActor
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

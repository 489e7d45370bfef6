import AppSupport
import Observation
import ScanLibrary

/// The rename screen: the current name, the new one validated as it is typed, a success
/// message, and closing itself three seconds after success.
@MainActor @Observable
public final class RenameModel {
    /// The session being renamed, under its current name.
    public private(set) var session: ScanSession
    /// What is typed.
    public var newName: String
    /// Success or failure of the last attempt.
    public private(set) var result: String?
    /// Whether the rename succeeded (the screen then closes after three seconds).
    public private(set) var succeeded = false
    /// Called when the screen closes.
    @ObservationIgnored public var onClose: () -> Void = {}

    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let clock: any AppClock
    @ObservationIgnored private let strings: Strings

    /// Seconds the success message shows before the screen closes.
    public static let closeDelay = 3.0

    /// A rename of `session`, starting from its current name.
    public init(session: ScanSession, library: ScanLibrary, clock: any AppClock, strings: Strings) {
        self.session = session
        self.library = library
        self.clock = clock
        self.strings = strings
        newName = session.name.rawValue
    }

    /// The current name.
    public var currentName: String { session.name.rawValue }

    /// The format hint above the field.
    public var formatHint: String { strings(.renameFormatHint) }

    /// Why the typed name cannot be used; nil when unchanged or valid.
    public var problem: String? {
        guard newName != currentName else { return nil }
        do {
            let name = try SessionName(parsing: newName)
            let taken = try library.list().entries.contains {
                $0.session.name.collisionKey == name.collisionKey && $0.session.name != session.name
            }
            return taken ? strings.message(.nameTaken(name.rawValue)) : nil
        } catch {
            return strings.message(error)
        }
    }

    /// The rename button is enabled once a different, valid name is typed.
    public var canRename: Bool { !succeeded && newName != currentName && problem == nil }

    /// Renames, reports, and closes after three seconds on success.
    public func rename() async {
        guard canRename else { return }
        do {
            session = try library.rename(session, to: newName)
            succeeded = true
            result = strings(.renameSucceeded, session.name.rawValue)
        } catch {
            result = strings.message(error)
            return
        }
        try? await clock.sleep(seconds: Self.closeDelay)
        onClose()
    }

    /// Closes without renaming.
    public func cancel() { onClose() }
}

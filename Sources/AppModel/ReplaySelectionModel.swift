import AppSupport
import Observation
import ScanLibrary

/// A scan in the replay list.
public struct ReplayRow: Sendable, Equatable, Identifiable {
    /// The folder name, `[ID]_[date]_Scan`.
    public var id: String { session.name.rawValue }
    /// The session.
    public var session: ScanSession
    /// To do or all set.
    public var status: AnnotationStatus
    /// The tag's text.
    public var tag: String
}

/// The replay selection: scans with an ID, tagged by the state of their annotations.
@MainActor @Observable
public final class ReplaySelectionModel {
    /// The scans, oldest first.
    public private(set) var rows: [ReplayRow] = []
    /// Whether the last replay's annotations were saved, shown at the bottom.
    public private(set) var message: String?
    /// Why the library cannot be listed, or which documents are unreadable.
    public private(set) var problems: [String] = []
    /// Called when a scan is chosen.
    @ObservationIgnored public var onOpen: (ScanSession) -> Void = { _ in }
    /// Called when a scan's results are asked for.
    @ObservationIgnored public var onMeasure: (ScanSession) -> Void = { _ in }

    @ObservationIgnored private let library: ScanLibrary
    @ObservationIgnored private let strings: Strings

    /// The list of `library`'s scans.
    public init(library: ScanLibrary, strings: Strings) {
        self.library = library
        self.strings = strings
        reload()
    }

    /// The hint above the list: annotations are saved when the replay closes.
    public var hint: String { strings(.replayHint) }

    /// Lists the scans again.
    public func reload() {
        do {
            let entries = try library.list().entries.filter { $0.hasScan && !$0.session.name.isTemporary }
            rows = entries.map {
                ReplayRow(
                    session: $0.session, status: $0.annotationStatus,
                    tag: $0.annotationStatus == .allSet ? strings(.tagAllSet) : strings(.tagToDo))
            }
            problems = entries.flatMap(\.problems).map { strings.message($0) }
        } catch {
            rows = []
            problems = [strings.message(error)]
        }
    }

    /// Opens a scan's replay.
    public func open(_ row: ReplayRow) {
        message = nil
        onOpen(row.session)
    }

    /// Whether a scan can be measured: always, since HeadScan finds on the head the landmarks
    /// that were not picked (and says so when it cannot).
    public func canMeasure(_ row: ReplayRow) -> Bool { true }

    /// Opens a scan's results (measuring it first if needed).
    public func measure(_ row: ReplayRow) {
        guard canMeasure(row) else { return }
        message = nil
        onMeasure(row.session)
    }

    /// The results screen opened over the list.
    func resultsOpened() { message = nil }

    /// A replay closed: show whether its annotations were saved, and list again.
    public func replayClosed(_ result: ReplayCloseResult) {
        switch result {
        case .unchanged: message = nil
        case .saved: message = strings(.replaySaved)
        case .failed(let why): message = strings(.replaySaveFailed, why)
        }
        reload()
    }
}

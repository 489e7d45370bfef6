/// A labelled fact in the report's header blocks.
public struct ReportFact: Sendable, Equatable {
    public var label: String
    public var value: String

    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

/// The camera's system pressure (heat, power, the depth projector's temperature), as the
/// capture device reports it; at `shutdown` the system stops the camera.
public enum SystemPressureLevel: Int, Sendable, Comparable, CaseIterable {
    case nominal, fair, serious, critical, shutdown

    public static func < (l: SystemPressureLevel, r: SystemPressureLevel) -> Bool { l.rawValue < r.rawValue }
}

/// Decides when rising system pressure is worth telling the operator: once when it reaches
/// `serious` (frames will soon be dropped and the camera may stop), and again only after it
/// has fallen back below.
public struct SystemPressureWatch: Sendable, Equatable {
    private var warned = false

    public init() {}

    /// The device reported `level`; true when the operator should hear of it now.
    public mutating func update(_ level: SystemPressureLevel) -> Bool {
        guard level >= .serious else {
            warned = false
            return false
        }
        defer { warned = true }
        return !warned
    }
}

/// Prepared situations a scan can run into, for testing feedback and reconstruction.
public enum Scenario: String, Sendable, Codable, CaseIterable {
    /// A careful operator: steady distance, head centred, all around and over the top.
    case ideal
    /// The operator comes too close now and then (the sensor loses depth).
    case tooClose = "too-close"
    /// The operator points past the head now and then (markers leave the picture).
    case offCenter = "off-center"
    /// The infant moves a lot and now and then turns away.
    case restless
    /// Ten stickers have fallen off the cap.
    case lostMarkers = "lost-markers"
    /// The operator never goes round the back of the head.
    case partial

    /// A scenario from its command-line name.
    public static func named(_ name: String) throws(SimulationError) -> Scenario {
        guard let scenario = Scenario(rawValue: name.lowercased()) else { throw .unknownScenario(name) }
        return scenario
    }

    /// Markers that fall off in this scenario.
    var droppedMarkerCount: Int { self == .lostMarkers ? 10 : 0 }
    /// How strongly the infant's head wanders (1 = a calm infant).
    var headMotionScale: Double { self == .restless ? 3 : 1 }
}

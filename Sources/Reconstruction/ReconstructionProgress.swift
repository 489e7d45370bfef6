/// The stages of a reconstruction, in order. The raw value keys `stageSeconds`.
public enum ReconstructionStage: String, Sendable, Codable, CaseIterable {
    case markers, bundleAdjustment, fusion, meshing

    /// The stage in words, for progress bars.
    public var label: String {
        switch self {
        case .markers: "markers"
        case .bundleAdjustment: "bundle adjustment"
        case .fusion: "fusion"
        case .meshing: "meshing"
        }
    }
}

/// What the reconstruction is doing, for progress bars.
public struct ReconstructionProgress: Sendable {
    public var stage: ReconstructionStage
    /// Units done in this stage.
    public var done: Int
    /// Units in this stage.
    public var total: Int
}

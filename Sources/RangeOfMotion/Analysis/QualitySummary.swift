/// How many frames passed the quality gates, and why the others did not.
public struct QualitySummary: Sendable, Equatable, Codable {
    public var framesTotal: Int
    public var framesPassed: Int
    /// The share that must pass (0...1).
    public var requiredShare: Double
    /// Rejected frames by the first gate they failed.
    public var rejections: [RejectionReason: Int]

    public init(framesTotal: Int, framesPassed: Int, requiredShare: Double, rejections: [RejectionReason: Int]) {
        self.framesTotal = framesTotal
        self.framesPassed = framesPassed
        self.requiredShare = requiredShare
        self.rejections = rejections
    }

    /// Passed frames over all frames (0...1).
    public var passedShare: Double { framesTotal == 0 ? 0 : Double(framesPassed) / Double(framesTotal) }

    /// Whether enough frames passed. "At least 55 %" includes 55 % exactly, which a plain
    /// floating-point product would miss (0.55 × 20 is slightly above 11).
    public var accepted: Bool {
        framesPassed > 0 && Double(framesPassed) >= requiredShare * Double(framesTotal) - 1e-9
    }

    /// The rejections, most frequent first, as "7 × leg outside the picture".
    public var rejectionPhrases: [String] {
        rejections.filter { $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) × \($0.key.phrase)" }
    }

    /// What to do about a refused video.
    public static let refusalAdvice = "film again from the side, in good light, with the whole leg from hip to foot in the picture"

    /// Why a video was refused and what to do, in one sentence.
    public var refusalText: String {
        let reasons = rejectionPhrases.isEmpty ? "" : " (rejected: \(rejectionPhrases.joined(separator: ", ")))"
        return "only \(framesPassed) of \(framesTotal) frames (\(Self.percent(passedShare))) passed the quality checks, "
            + "\(Self.percent(requiredShare)) are needed\(reasons); \(Self.refusalAdvice)"
    }

    /// "55 %", whole percent.
    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
}

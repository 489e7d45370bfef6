import Foundation
import Testing

@testable import Feedback

/// Milestones are keyed by percent in code and by the percent's text in JSON, as files
/// written before the key became a number hold them.
struct GuideSummaryCodingTests {
    @Test func milestonesEncodeAsAnObjectKeyedByPercentAndReadBack() throws {
        var summary = GuideSummary()
        summary.milestoneSeconds = [50: 7.5, 25: 3.25]
        let data = try JSONEncoder().encode(summary)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let milestones = try #require(object["milestoneSeconds"] as? [String: Double])
        #expect(milestones == ["25": 3.25, "50": 7.5])
        let decoded = try JSONDecoder().decode(GuideSummary.self, from: data)
        #expect(decoded.milestones.map(\.percent) == [25, 50])
        #expect(decoded.milestones.map(\.seconds) == [3.25, 7.5])
    }
}

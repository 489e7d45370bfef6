import AppSupport
import Feedback

/// One line of the legend under a point cloud: a marker colour and what it means.
public struct CloudLegendEntry: Sendable, Equatable, Identifiable {
    public var id: MarkerState { state }
    /// The colour.
    public var state: MarkerState
    /// Its meaning with the count on screen: "12 connected".
    public var text: String
}

extension Strings {
    /// The legend of `cloud`'s marker colours: green, red, blue, each with its count.
    func cloudLegend(_ cloud: PointCloudPreview?) -> [CloudLegendEntry] {
        let keys: [(MarkerState, StringKey)] = [(.green, .cloudLegendGreen), (.red, .cloudLegendRed), (.blue, .cloudLegendBlue)]
        return keys.map { state, key in
            CloudLegendEntry(state: state, text: self(key, String(cloud?.count(state) ?? 0)))
        }
    }
}

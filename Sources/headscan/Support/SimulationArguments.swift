import ArgumentParser
import Evaluation
import Simulation

// The simulator's choices as command-line values: argument-parser checks them, lists them in
// --help and completes them in the shell.
extension Scenario: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension FlatSide: ExpressibleByArgument {}
extension LandmarkTrial.EarKind: ExpressibleByArgument {}
extension BareHair.Shade: ExpressibleByArgument {}

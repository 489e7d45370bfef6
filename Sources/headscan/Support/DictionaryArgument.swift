import ArgumentParser
import Markers

// A marker dictionary as a command-line value: argument-parser refuses unknown names before
// the command runs, lists the known ones in --help and completes them in the shell.
extension MarkerDictionary: ExpressibleByArgument {
    public init?(argument: String) {
        guard let dictionary = try? MarkerDictionary.named(argument) else { return nil }
        self = dictionary
    }

    public var defaultValueDescription: String { name }

    public static var allValueStrings: [String] { predefinedNames }
}

import ArgumentParser
import Foundation
import RangeOfMotion

extension BodySide: ExpressibleByArgument {}
extension KneePosture: ExpressibleByArgument {}

/// Reading what `rom` commands are given.
enum RomInput {
    static var settingsHelp: String {
        "Settings (--settings, a JSON file or inline JSON; missing keys keep their defaults, null turns a gate "
            + "off; \"gates\": \"original\" starts from the original app's gates, which assume a standing patient "
            + "filmed with the left leg right of the right one; gates in the order a frame is checked): "
            + SettingsHelp.list(
                defaults: RangeOfMotionSettings(), keys: RangeOfMotionSettings.keys, explanations: RangeOfMotionSettings.explanations)
            + "."
    }

    /// Settings from inline JSON or a file, checked.
    static func settings(_ argument: String?) throws -> RangeOfMotionSettings {
        guard let argument else { return RangeOfMotionSettings() }
        let data =
            argument.trimmingCharacters(in: .whitespaces).hasPrefix("{")
            ? Data(argument.utf8) : try read(argument, what: "settings")
        let settings: RangeOfMotionSettings
        do {
            settings = try JSONDecoder().decode(RangeOfMotionSettings.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw ValidationError("--settings: \(context.debugDescription)")
        } catch {
            throw ValidationError("--settings: expected a JSON object of settings (\(error))")
        }
        try settings.validate()
        return settings
    }

    /// A file's bytes, or an error naming what it should have been.
    static func read(_ path: String, what: String) throws -> Data {
        do {
            return try Data(contentsOf: fileURL(path))
        } catch {
            throw ToolError("cannot read the \(what) file \(path): \(error.localizedDescription)")
        }
    }
}

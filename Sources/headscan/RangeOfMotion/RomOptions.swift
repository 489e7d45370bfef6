import ArgumentParser
import Foundation
import RangeOfMotion

extension BodySide: ExpressibleByArgument {}

/// Reading what `rom` commands are given.
enum RomInput {
    static let settingsHelp = """
        Settings (--settings, a JSON file or inline JSON; missing keys keep their defaults, \
        null turns a gate off). Gates, in the order a frame is checked: minimumConfidence \
        (0.3: the lowest of hip, knee and ankle must be above it), rejectOutsidePicture \
        (true), lateralOrderTolerance (0.35 thigh lengths a left joint may lie left of its \
        right partner; 0 is the strict rule for a patient facing the camera), kneeAnkleOrder \
        (true: the knee above the ankle, or the ankle behind it by behindMargin, 0.25 thigh \
        lengths), hipAboveKneeAndAnkle (true), maximumHyperextension (30°), legSwapMargin \
        (5°: the legs fit the neighbouring frames better exchanged), segmentLengthTolerance \
        (0.2: thigh and shank within 20 % of their running median over segmentLengthWindow, \
        9 frames), minimumPassedShare (0.55). Reading: detectHyperextension (true), \
        smoothingWindow (3 frames, running median; 1 = none), extremeBand (5°: the smallest \
        and largest angle are the median of the frames within this of the extreme; 0 = the \
        single frame). Warnings: minimumMotion (30°), edgeMargin (0.01 of the picture), \
        sideOnWarningDegrees (25°). framesPerSecond (3) is the rate pose sources sample a \
        video at.
        """

    /// Settings from inline JSON or a file, checked.
    static func settings(_ argument: String?) throws -> RangeOfMotionSettings {
        guard let argument else { return RangeOfMotionSettings() }
        let data = argument.trimmingCharacters(in: .whitespaces).hasPrefix("{")
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

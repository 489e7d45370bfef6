import Foundation
import Testing

/// App Review refuses an app that calls a required-reason API without declaring it in the
/// privacy manifest; this holds the manifest to the code the app links.
struct PrivacyManifestTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each category with a piece of code that means the app uses it, and the reasons declared.
    private static let uses: [(category: String, markers: [String], reasons: Set<String>)] = [
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults"], ["CA92.1"]),
        ("NSPrivacyAccessedAPICategoryDiskSpace", ["volumeAvailableCapacity", "attributesOfFileSystem"], ["E174.1", "85F4.1"]),
        ("NSPrivacyAccessedAPICategoryFileTimestamp", [".modificationDate", "contentModificationDate", "creationDate]"], ["C617.1", "3B52.1"]),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["systemUptime", "mach_absolute_time"], ["35F9.1"]),
    ]

    /// The modules the app links (project.yml) and what they depend on, and the app itself.
    private static let appCode = [
        "App/Sources", "Sources/AppModel", "Sources/AppleDevices", "Sources/ScanLibrary", "Sources/Feedback", "Sources/HeadGestures",
        "Sources/RangeOfMotion", "Sources/Processing", "Sources/Recording", "Sources/Scanning", "Sources/Markers",
        "Sources/Reconstruction", "Sources/Cephalometry", "Sources/Report", "Sources/Imaging", "Sources/Geometry",
    ]

    private func manifest() throws -> [String: Set<String>] {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("App/Resources/PrivacyInfo.xcprivacy"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        let types = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var declared: [String: Set<String>] = [:]
        for entry in types {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            declared[category] = Set(try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String]))
        }
        return declared
    }

    private func appSources() throws -> String {
        var text = ""
        for folder in Self.appCode {
            let root = Self.repository.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" { text += try String(contentsOf: file, encoding: .utf8) }
        }
        return text
    }

    @Test func everyRequiredReasonAPITheAppCallsIsDeclaredWithItsReasons() throws {
        let declared = try manifest()
        let code = try appSources()
        #expect(code.count > 100_000)
        for use in Self.uses where use.markers.contains(where: code.contains) {
            #expect(declared[use.category] == use.reasons, "\(use.category) is used: declare \(use.reasons.sorted())")
        }
        for category in declared.keys {
            let use = Self.uses.first { $0.category == category }
            #expect(use.map { $0.markers.contains(where: code.contains) } == true, "\(category) is declared but not used")
        }
    }

    @Test func theManifestIsBundledWithTheApp() throws {
        let spec = try String(contentsOf: Self.repository.appendingPathComponent("App/project.yml"), encoding: .utf8)
        // The Resources folder is a source of the app target: everything in it is bundled.
        #expect(spec.contains("- path: Resources"))
    }
}

// swift-tools-version:6.0
import PackageDescription

/// The numeric targets are optimised in debug builds too: `swift test` builds for debugging, and
/// its tests reconstruct, simulate and fit whole scans, many times slower unoptimised. No code
/// here uses `assert`, which -O would drop; overflow and bounds are checked as before.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "HeadScan",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "Geometry", targets: ["Geometry"]),
        .library(name: "SettingsSchema", targets: ["SettingsSchema"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Markers", targets: ["Markers"]),
        .library(name: "Recording", targets: ["Recording"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Feedback", targets: ["Feedback"]),
        .library(name: "Cephalometry", targets: ["Cephalometry"]),
        .library(name: "Reconstruction", targets: ["Reconstruction"]),
        .library(name: "ReportKit", targets: ["ReportKit"]),
        .library(name: "Report", targets: ["Report"]),
        .library(name: "KneeReport", targets: ["KneeReport"]),
        .library(name: "Scanning", targets: ["Scanning"]),
        .library(name: "Processing", targets: ["Processing"]),
        .library(name: "ScanLibrary", targets: ["ScanLibrary"]),
        .library(name: "AppSupport", targets: ["AppSupport"]),
        .library(name: "KneeFeature", targets: ["KneeFeature"]),
        .library(name: "GestureFeature", targets: ["GestureFeature"]),
        .library(name: "AppModel", targets: ["AppModel"]),
        .library(name: "HeadGestures", targets: ["HeadGestures"]),
        .library(name: "RangeOfMotion", targets: ["RangeOfMotion"]),
        .library(name: "AppleDevices", targets: ["AppleDevices"]),
        .library(name: "Upload", targets: ["Upload"]),
        .library(name: "HeadScanServer", targets: ["HeadScanServer"]),
        .library(name: "Evaluation", targets: ["Evaluation"]),
        // Test doubles and fixtures, also for the app's SwiftUI previews.
        .library(name: "HeadScanTesting", targets: ["HeadScanTesting"]),
        .library(name: "AppModelTesting", targets: ["AppModelTesting"]),
        .executable(name: "headscan", targets: ["headscan"]),
        .executable(name: "headscan-server", targets: ["headscan-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(name: "CZlibCRC", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CJPEG",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(
            name: "CImageShims",
            dependencies: [
                .target(name: "CPNG", condition: .when(platforms: [.linux])),
                .target(name: "CJPEG", condition: .when(platforms: [.linux])),
            ],
            linkerSettings: [
                .linkedLibrary("png16", .when(platforms: [.linux])),
                .linkedLibrary("jpeg", .when(platforms: [.linux])),
            ]),
        // A helper process that dies with the service (prctl is variadic C).
        .target(name: "CProcessControl"),
        // Child processes started so that none inherits another's pipes, and asked of the kernel
        // whether they ended.
        .target(name: "ChildProcesses", dependencies: ["CProcessControl"]),
        .target(name: "Geometry", swiftSettings: optimisedInDebug),
        // The JSON form the three products' settings share: partial files, misspelt names refused.
        .target(name: "SettingsSchema"),
        .target(
            name: "Imaging",
            // System image libraries on Linux only; Apple platforms decode through ImageIO.
            dependencies: [
                .target(name: "CImageShims", condition: .when(platforms: [.linux]))
            ],
            // Float rounding calls libm, which Glibc links only with Foundation present.
            swiftSettings: optimisedInDebug,
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(
            name: "Markers", dependencies: ["Geometry", "Imaging"],
            exclude: ["Dictionaries/generate_dictionaries.py"], swiftSettings: optimisedInDebug),
        .target(
            name: "Recording",
            dependencies: ["Geometry", "Imaging", "Markers", .target(name: "CZlibCRC", condition: .when(platforms: [.linux]))],
            swiftSettings: optimisedInDebug),
        .target(
            name: "Simulation", dependencies: ["Geometry", "Imaging", "Markers", "Recording", "Feedback", "Scanning", "Cephalometry"],
            swiftSettings: optimisedInDebug),
        .target(name: "Feedback", dependencies: ["Imaging", "Markers", "SettingsSchema"], swiftSettings: optimisedInDebug),
        .target(name: "Scanning", dependencies: ["Feedback", "Geometry", "Markers", "Reconstruction", "Recording"], swiftSettings: optimisedInDebug),
        .target(
            name: "Processing",
            dependencies: [
                "Cephalometry", "Feedback", "Geometry", "Markers", "Reconstruction", "Recording", "Report", "ReportKit", "ScanLibrary",
                .product(name: "Crypto", package: "swift-crypto"),
            ], swiftSettings: optimisedInDebug),
        .target(name: "Cephalometry", dependencies: ["Geometry", "Imaging", "Recording"], swiftSettings: optimisedInDebug),
        .target(name: "Reconstruction", dependencies: ["Geometry", "Imaging", "Markers", "Recording"], swiftSettings: optimisedInDebug),
        .target(name: "RangeOfMotion", dependencies: ["Geometry", "SettingsSchema"], swiftSettings: optimisedInDebug),
        // The reports' kit: drawings written as SVG, HeadScan's own PDF writer, the HTML pieces
        // both reports share. The head report and the knee report stand beside each other on it.
        .target(name: "ReportKit"),
        .target(name: "Report", dependencies: ["ReportKit", "Cephalometry", "Feedback"]),
        .target(name: "KneeReport", dependencies: ["ReportKit", "RangeOfMotion"]),
        .target(name: "ScanLibrary", dependencies: ["Recording", "Feedback", "Cephalometry"]),
        .target(name: "HeadGestures", dependencies: ["Geometry", "SettingsSchema"], swiftSettings: optimisedInDebug),
        // How well the methods do on simulated scans: benchmark trials, truth alignment and the
        // demo's simulated operator and calliper. The command line's benchmarks and demo call
        // it; the shipped tool links no test support.
        .target(
            name: "Evaluation",
            dependencies: [
                "Simulation", "Reconstruction", "Cephalometry", "Processing", "ScanLibrary", "Feedback", "Scanning", "Recording",
                "Markers", "Geometry", "Imaging",
            ], swiftSettings: optimisedInDebug),
        // What every screen model shares: the texts in German and English, the clock.
        .target(name: "AppSupport", dependencies: ["Feedback"], resources: [.copy("Strings")]),
        // The knee measurement's screens (Jointify) and the head-gesture demo's (NodKit), apart
        // from the head scan's flow, which only opens them.
        .target(name: "KneeFeature", dependencies: ["AppSupport", "RangeOfMotion", "KneeReport", "ReportKit"]),
        .target(name: "GestureFeature", dependencies: ["AppSupport", "HeadGestures"]),
        .target(
            name: "AppModel",
            dependencies: [
                "AppSupport", "KneeFeature", "GestureFeature", "ScanLibrary", "Feedback", "Cephalometry", "Recording", "Markers",
                "Scanning", "Processing", "Report", "ReportKit", "HeadGestures", "RangeOfMotion", "Geometry", "Imaging",
            ]),
        // TrueDepth capture, haptics, speech and device status for the iPhone app; its files
        // compile to nothing on Linux.
        .target(
            name: "AppleDevices",
            dependencies: [
                "AppModel", "Feedback", "Scanning", "Recording", "Markers", "Imaging", "Geometry", "ScanLibrary", "HeadGestures",
                "RangeOfMotion",
            ]),
        // The research service's client: portable (URLSession, swift-crypto), no server code.
        .target(
            name: "Upload",
            dependencies: ["ScanLibrary", "Recording", "Cephalometry", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "HeadScanServer",
            dependencies: [
                "Upload", "ScanLibrary", "Processing", "Reconstruction", "Recording", "Geometry", "Cephalometry", "Feedback", "CProcessControl",
                "ChildProcesses",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "headscan-server",
            dependencies: [
                "HeadScanServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "headscan",
            dependencies: [
                "Upload", "Evaluation",
                "Geometry", "Imaging", "Markers", "Recording", "Simulation", "Cephalometry", "Feedback", "Reconstruction",
                "Report", "KneeReport", "ReportKit", "ScanLibrary", "Scanning", "Processing", "HeadGestures", "RangeOfMotion",
                "CProcessControl", "ChildProcesses", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "SettingsSchemaTests", dependencies: ["SettingsSchema"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation"]),
        .testTarget(name: "ReconstructionTests", dependencies: ["Reconstruction", "Geometry", "Markers", "Recording", "Imaging"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Geometry"]),
        .testTarget(name: "MarkersTests", dependencies: ["Markers", "Imaging", "Geometry"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "Imaging", "Markers", "Geometry", "Simulation"]),
        .testTarget(name: "CephalometryTests", dependencies: ["Cephalometry", "Geometry", "Simulation", "Recording", "Imaging"]),
        .testTarget(name: "FeedbackTests", dependencies: ["Feedback", "Markers", "Simulation", "Geometry", "Scanning"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "ReportKit", "Cephalometry", "Feedback", "Simulation"]),
        .testTarget(name: "ScanLibraryTests", dependencies: ["ScanLibrary", "Cephalometry", "Feedback"]),
        .testTarget(
            name: "AppModelTests",
            dependencies: [
                "AppModel", "AppModelTesting", "HeadScanTesting", "ScanLibrary", "Cephalometry", "Feedback", "Recording", "Geometry", "Imaging",
                "ChildProcesses",
                "Processing",
                "HeadGestures", "RangeOfMotion", "Markers", "Scanning", "Simulation", "Report", "KneeReport", "ReportKit",
                "AppSupport", "KneeFeature", "GestureFeature",
            ]),
        .testTarget(
            name: "ProcessingTests",
            dependencies: ["Processing", "ScanLibrary", "Cephalometry", "Recording", "Simulation", "Geometry", "Imaging", "Reconstruction"]),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning", "Feedback", "Markers", "Recording", "Geometry", "Simulation"]),
        .testTarget(name: "HeadGesturesTests", dependencies: ["HeadGestures"]),
        .testTarget(name: "RangeOfMotionTests", dependencies: ["RangeOfMotion", "KneeReport", "ReportKit"]),
        // Test support (as NIOTestUtils): fixtures that several test targets share.
        .testTarget(name: "CommandLineTests", dependencies: ["headscan", "ChildProcesses"]),
        .target(
            name: "HeadScanTesting", dependencies: ["ScanLibrary", "Simulation", "Recording", "Geometry", "Imaging", "Cephalometry", "Feedback"]),
        // The app models' doubles (clock, monitors, recorder, replay player, libraries, clouds)
        // that the app's tests and SwiftUI previews use; apart, so the command line does not
        // link the app models through the shared test support.
        .target(name: "AppModelTesting", dependencies: ["AppModel", "AppSupport", "ScanLibrary", "Feedback", "Markers", "Cephalometry", "Geometry"]),
        .testTarget(
            name: "UploadTests",
            dependencies: ["Upload", "HeadScanTesting", "Recording", "ScanLibrary", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "HeadScanServerTests",
            dependencies: [
                // headscan-server: built beside the tests, which run its isolated helpers.
                "HeadScanServer", "headscan-server", "Upload", "HeadScanTesting", "Recording", "Geometry", "Processing", "Cephalometry",
                "ScanLibrary", "Reconstruction", "ChildProcesses",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Markers", "Recording", "Geometry", "Imaging"]),
    ],
    swiftLanguageModes: [.v6]
)

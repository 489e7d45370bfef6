// swift-tools-version:6.0
// What the app's point clouds cost per frame, in release: `swift run -c release` here.
// A package of its own, so the benchmark builds only the app model's modules.
import Foundation
import PackageDescription

// A package at a path is known by its folder's name, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let headScan = root.lastPathComponent.lowercased()

let package = Package(
    name: "AppCloudBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "app-cloud-bench",
            dependencies: [
                .product(name: "AppModel", package: headScan), .product(name: "Recording", package: headScan),
                .product(name: "Markers", package: headScan), .product(name: "Geometry", package: headScan),
                .product(name: "Feedback", package: headScan), .product(name: "HeadScanTesting", package: headScan),
            ])
    ],
    swiftLanguageModes: [.v6]
)

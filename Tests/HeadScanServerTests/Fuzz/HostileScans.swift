import Foundation
import Geometry
import Imaging
import Markers
import Recording

/// Recordings an attacker would write: text in every header field, a comment segment in every
/// JPEG, frame times on the clock.
enum HostileScans {
    /// A JPEG codec that puts `text` in a comment segment and an application segment after the
    /// start of every picture.
    struct CommentingCodec: ImageCodec {
        let text: String
        let system: any ImageCodec = ImageCodecs.system

        func encodeJPEG(_ image: RGBAImage, quality: Int) throws -> [UInt8] {
            let bytes = try system.encodeJPEG(image, quality: quality)
            let payload = Array(text.utf8)
            let length = payload.count + 2
            let comment: [UInt8] = [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            let app: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            return Array(bytes[0..<2]) + comment + app + Array(bytes[2...]) + payload
        }
        func decodeJPEG(_ bytes: [UInt8]) throws -> RGBAImage { try system.decodeJPEG(bytes) }
        func encodePNG(_ image: PNGImage, dotsPerInch: Double?) throws -> [UInt8] { try system.encodePNG(image, dotsPerInch: dotsPerInch) }
        func decodePNG(_ bytes: [UInt8]) throws -> PNGImage { try system.decodePNG(bytes) }
    }

    static let monday = Date(timeIntervalSince1970: 1_777_248_000)

    /// A small frame whose pixels and depth depend on `index`.
    static func frame(_ index: Int, time: Double) -> RGBDFrame {
        let camera = CameraIntrinsics(fx: 30, fy: 30, cx: 16, cy: 12, width: 32, height: 24)
        let color = RGBAImage(
            width: 32, height: 24, pixels: (0..<(32 * 24)).map { RGBA8(r: UInt8(($0 * 7 + index * 31) % 256), g: UInt8($0 % 200), b: 90) })
        let depth = DepthImage(width: 32, height: 24, pixels: (0..<(32 * 24)).map { 0.3 + Float(($0 + index) % 17) * 0.001 })
        return RGBDFrame(timestamp: time, color: color, depth: depth, colorIntrinsics: camera, depthIntrinsics: camera)
    }

    /// What a written recording carries besides its frames.
    struct Variant {
        var device = "iPhone 13 Pro"
        var appVersion = HeadScanVersion.current
        var settings: [String: String] = [:]
        var metadata = ["seed": "7"]
        var capLayoutName = CapLayout.standard.name
        /// Text put in a comment and an application segment of every JPEG.
        var comment: String?
        var firstTime = 0.0
    }

    static func write(to url: URL, variant: Variant, frames: Int) throws {
        let camera = CameraIntrinsics(fx: 30, fy: 30, cx: 16, cy: 12, width: 32, height: 24)
        var layout = CapLayout.standard
        layout.name = variant.capLayoutName
        let header = ScanHeader(
            device: variant.device, appVersion: variant.appVersion, colorIntrinsics: camera, depthIntrinsics: camera,
            capLayoutName: variant.capLayoutName, capLayout: layout, settings: variant.settings, createdAt: monday, metadata: variant.metadata)
        let codec: any ImageCodec = variant.comment.map { CommentingCodec(text: $0) } ?? ImageCodecs.system
        let writer = try ScanWriter(url: url, header: header, options: .init(synchronizeEvery: 0, overwrite: true), imageCodec: codec)
        for index in 0..<frames { try writer.append(frame(index, time: variant.firstTime + Double(index) * 0.1)) }
        try writer.close()
    }

    /// Text in every field at once, a comment in every picture and clock times.
    static func write(to url: URL, text: String, frames: Int, commentCodec: Bool, firstTime: Double) throws {
        let variant = Variant(
            device: "iPhone " + text, appVersion: "10:31:07", settings: ["note": text, text: "1"],
            metadata: ["patientName": text, "birthDate": "2026-01-15", "operator": text, "seed": "7", "scenario": text],
            capLayoutName: text, comment: commentCodec ? text : nil, firstTime: firstTime)
        try write(to: url, variant: variant, frames: frames)
    }
}

import Feedback
import Foundation
import Imaging
import Markers
import Recording
import ScanLibrary
import Upload

/// The recording as the service keeps it: its own encoding of what it decoded, never the
/// uploaded bytes. The header keeps only what research needs, each value from a closed
/// vocabulary or a number; every frame is decoded to check it and written into a new container
/// (bytes between records and after the trailer are gone; a JPEG keeps only the segments its
/// pixels need and a PNG only its image chunks, so the pixels are exactly the uploaded ones; the
/// depth map is kept as its codec stored it, which decodes exactly); frame times count from the
/// first frame, so they carry no clock time.
enum CanonicalScan {
    /// Reads the recording at `input` and writes the service's encoding to `output`.
    static func write(from input: URL, to output: URL) throws(APIError) {
        let name = ScanSession.scanFileName
        let reader: ScanReader
        do {
            reader = try ScanReader(url: input)
        } catch {
            throw UploadInspector.refuse(name, "it is not a readable recording (\(HelperError.summary(error)))")
        }
        guard ResearchCalendar.isWeekStart(reader.header.createdAt) else {
            throw UploadInspector.refuse(name, "its header holds the clock time of the recording; upload with the HeadScan client, which coarsens it")
        }
        let header = canonicalHeader(reader.header)
        do {
            let writer = try ScanWriter(url: output, header: header, options: .init(synchronizeEvery: 0, overwrite: true))
            let start = reader.timestamp(at: 0) ?? 0
            var depth = DepthImage(width: 0, height: 0, pixels: [])
            for index in 0..<reader.frameCount {
                let frame: CopiedFrame
                do {
                    guard let time = reader.timestamp(at: index), time.isFinite else {
                        throw ScanFileError.damagedFrame(index: index, reason: "no time")
                    }
                    frame = try reader.copiedFrame(at: index, timestamp: time - start, depthScratch: &depth) { bytes, isJPEG in
                        isJPEG ? try JPEGSegments.essential(bytes) : try PNGChunks.essential(bytes)
                    }
                } catch {
                    throw UploadInspector.refuse(
                        name, "frame \(index) cannot be read (\(HelperError.summary(error))); upload the scan as HeadScan saved it")
                }
                try writer.append(frame)
            }
            try writer.close()
        } catch let error as APIError {
            throw error
        } catch {
            throw UploadInspector.refuse(name, "its frames cannot be kept (\(HelperError.summary(error)))")
        }
    }

    /// The header's research content: device and version from closed vocabularies, the cap's
    /// layout checked (a name only when it is a built-in cap's), settings decoded as settings,
    /// metadata only the simulator's truth.
    static func canonicalHeader(_ header: ScanHeader) -> ScanHeader {
        // A layout that does not validate (or an old file naming an unknown cap) is left out:
        // processing then refuses the scan, as it would on the phone.
        var layout = try? header.layout()
        if (try? layout?.validate()) == nil { layout = nil }
        let builtIn = (try? CapLayout.named(header.capLayoutName)) != nil
        layout?.name = builtIn ? header.capLayoutName : "custom"
        var canonical = ScanHeader(
            device: device(header.device), appVersion: knownVersions.contains(header.appVersion) ? header.appVersion : "unknown",
            colorIntrinsics: header.colorIntrinsics, depthIntrinsics: header.depthIntrinsics,
            capLayoutName: layout?.name ?? (header.capLayoutName == "none" ? "none" : "unknown"), capLayout: layout,
            settings: settings(header.settings), createdAt: header.createdAt, metadata: metadata(header.metadata))
        canonical.lensDistortion = header.lensDistortion
        canonical.depthAccuracy = header.depthAccuracy
        return canonical
    }

    /// Versions of HeadScan that wrote recordings (a version is no place for a time or a name).
    static let knownVersions: Set<String> = [HeadScanVersion.current, "1.0"]

    /// Words device model names are made of ("iPhone 13 Pro Max", "iPad Pro 11-inch (3rd
    /// generation)", "simulator (headscan demo)"); a name with any other word becomes "unknown".
    static let deviceWords: Set<String> = [
        "iPhone", "iPad", "iPod", "Pro", "Max", "Plus", "mini", "Air", "SE", "Ultra", "e", "simulator", "synthetic", "(headscan", "demo)",
        "(bench", "landmarks)", "pipeline)", "generation)", "touch",
    ]

    static func device(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...8).contains(words.count), text.utf8.count <= ResearchFiles.maximumLabelLength else { return "unknown" }
        let known = words.allSatisfy { word in
            deviceWords.contains(String(word))
                || word.wholeMatch(of: /\(?[0-9]{1,2}(st|nd|rd|th)?|[0-9]{1,2}(\.[0-9])?-inch|\([0-9]{1,2}(st|nd|rd|th)/) != nil
        }
        return known ? text : "unknown"
    }

    /// The feedback settings the recording names, decoded as settings (values out of range or
    /// keys settings lack make the whole set unknown: empty).
    static func settings(_ entries: [String: String]) -> [String: String] {
        guard !entries.isEmpty else { return [:] }
        var object: [String: Any] = [:]
        for (key, text) in entries {
            if text == "true" || text == "false" {
                object[key] = text == "true"
            } else if let number = Double(text), number.isFinite {
                object[key] = number
            } else {
                object[key] = text
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object),
            let decoded = try? JSONDecoder().decode(FeedbackSettings.self, from: data)
        else { return [:] }
        let known = Dictionary(Mirror(reflecting: decoded).children.compactMap { child in child.label.map { ($0, "\(child.value)") } }) { a, _ in a }
        return known.filter { entries[$0.key] != nil }
    }

    /// The simulator's truth, each value a number or from its closed set; nothing else.
    static func metadata(_ entries: [String: String]) -> [String: String] {
        var kept: [String: String] = [:]
        if let seed = entries["seed"].flatMap({ UInt64($0) }) { kept["seed"] = String(seed) }
        if let cvai = entries["cvai"].flatMap({ Double($0) }), cvai.isFinite, (0...100).contains(cvai) { kept["cvai"] = String(cvai) }
        if let side = entries["flatSide"], ["left", "right"].contains(side) { kept["flatSide"] = side }
        if let scenario = entries["scenario"], scenarioNames.contains(scenario) { kept["scenario"] = scenario }
        return kept
    }

    /// The simulator's scenario names (the server does not link the simulator).
    static let scenarioNames: Set<String> = [
        "ideal", "too-close", "off-center", "restless", "lost-markers", "partial",
    ]
}

/// A short description of an error by its type and case, without any text it carries (which
/// may be an uploaded file's text): what helpers report and what the service logs.
enum HelperError {
    static func summary(_ error: any Error) -> String {
        if let error = error as? APIError { return error.message }
        let type = String(reflecting: Swift.type(of: error)).split(separator: ".").suffix(2).joined(separator: ".")
        let mirror = Mirror(reflecting: error)
        if mirror.displayStyle == .enum {
            let label = mirror.children.first?.label ?? "\(error)".prefix { $0.isLetter || $0.isNumber }.description
            return "\(type).\(label)"
        }
        return type
    }
}

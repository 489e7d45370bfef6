import Cephalometry
import Foundation
import Geometry
import HeadScanTesting
import Processing
import Recording
import ScanLibrary
import Testing
import Upload

@testable import HeadScanServer

/// What researchers download is the service's own encoding: structure-aware mutations of every
/// file type (unknown and duplicate keys, test text in every field, paths, PLY header and element
/// variants, JPEG segments, bytes between records) are either refused, or kept as an encoding
/// that holds none of the test text and that the service's checks give back unchanged.
@Suite struct CanonicalFuzzTests {
    static let casesPerFile = 2000
    static let text = "Max Mustermann *2026-01-15"
    /// Parts of the test text that must never be in a kept file.
    static let forbidden = ["Mustermann", "2026-01-15", "Anna Mueller"].map { Data($0.utf8) }

    static func seeds() throws -> [String: Data] {
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        var files = Dictionary(
            uniqueKeysWithValues: try ResearchSessionSeeds.files(try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)).map {
                ($0.name, $0.data)
            })
        // Every optional field filled, so that mutations reach it.
        var measurement = try MeasurementRecord.decode(from: try #require(files[MeasurementRecord.fileName]))
        measurement.landmarksSource = .picksAndAutomatic
        let found = DetectedLandmark(
            point: [0, 0.07, 0], normal: [0, 1, 0], confidence: 0.8, evidence: "nose stands 12.5 mm out of the face", bestFrames: [1, 2])
        measurement.automaticLandmarks = AutomaticLandmarks(nasion: found, noseTip: found, leftTragion: found, rightTragion: found)
        measurement.landmarkEstimates = [.nasion: LandmarkEstimate(points: [[0, 0.07, 0], [0, 0.0702, 0]], residuals: [0.1, nil])]
        files[MeasurementRecord.fileName] = try measurement.encodedAlone()
        var reconstruction = try ReconstructionRecord.decode(from: try #require(files[ReconstructionRecord.fileName]))
        reconstruction.scan.sha256 = String(repeating: "5e", count: 32)
        files[ReconstructionRecord.fileName] = try reconstruction.encodedAlone()
        // A recording with frames (the fixture's has none), written as the client would.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).hscan")
        defer { try? FileManager.default.removeItem(at: url) }
        try HostileScans.write(to: url, variant: .init(), frames: 3)
        files[ScanSession.scanFileName] = try Data(contentsOf: url)
        return files
    }

    @Test(arguments: ResearchFiles.accepted.keys.sorted())
    func acceptedFilesAreKeptAsTheServicesOwnEncoding(_ name: String) throws {
        let seed = try #require(try Self.seeds()[name])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canon-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in"), output = folder.appendingPathComponent("out"), again = folder.appendingPathComponent("again")
        var mutator = HostileMutator(seed: UInt64(name.utf8.reduce(17) { $0 &* 31 &+ UInt64($1) }), text: Self.text)
        var accepted = 0, withText = 0
        for round in 0..<Self.casesPerFile {
            let data = try mutator.mutate(name, seed, scratch: folder)
            if Self.forbidden.contains(where: { data.range(of: $0) != nil }) { withText += 1 }
            try data.write(to: input)
            do {
                _ = try UploadInspector.inspect(name, at: input, writingTo: output)
            } catch {
                #expect((400..<500).contains(error.status.code), "\(name) round \(round): \(error.message)")
                continue
            }
            accepted += 1
            let kept = try Data(contentsOf: output)
            for text in Self.forbidden {
                #expect(kept.range(of: text) == nil, "\(name) round \(round) kept \(String(decoding: text, as: UTF8.self))")
            }
            _ = try UploadInspector.inspect(name, at: output, writingTo: again)
            #expect(try Data(contentsOf: again) == kept, "\(name) round \(round): the kept encoding is not the service's own")
            if name == ScanSession.scanFileName, let reader = try? ScanReader(url: output), reader.frameCount > 0 {
                #expect(reader.timestamp(at: 0) == 0, "\(name) round \(round): frame times on the clock")
            }
        }
        // Both outcomes were exercised: text was offered in most cases, and some were accepted.
        #expect(withText > Self.casesPerFile / 3, "\(name): \(withText) cases carried the test text")
        #expect(accepted > 0, "\(name): no case was accepted, so the kept encoding was never checked")
    }
}

/// Structure-aware mutations of each file type, as an attacker writes them.
struct HostileMutator {
    var plain: DocumentMutator
    var random: Xoshiro256
    let text: String

    init(seed: UInt64, text: String) {
        plain = DocumentMutator(seed: seed)
        random = Xoshiro256(seed: seed ^ 0x5EED)
        self.text = text
    }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(random.next() % UInt64(n)) }

    mutating func mutate(_ name: String, _ seed: Data, scratch: URL) throws -> Data {
        switch ResearchFiles.accepted[name]?.kind {
        case .mesh: return mesh(seed)
        case .scan: return try scan(seed, scratch: scratch)
        default: return document(seed)
        }
    }

    // MARK: documents

    /// Strings, paths and numbers that name a person or a time, wherever a value goes.
    var payloads: [JSONValue] {
        [
            .string(text), .string("../../../headscan.sqlite"), .string("../../../blobs/9b/" + String(repeating: "9b", count: 32)),
            .number(1_777_281_000), .string("2026-01-15T10:31:07Z"), .string("Anna Mueller, " + text),
        ]
    }

    mutating func document(_ seed: Data) -> Data {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: seed) else { return plain.mutate(seed) }
        switch below(6) {
        case 0: return plain.mutate(seed)
        case 1, 2: return encode(replacingLeaf(value))
        case 3: return encode(addingKey(value, depth: 0))
        case 4: return duplicatingKey(seed, value)
        default: return escapingKey(seed, value)
        }
    }

    func encode(_ value: JSONValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)) ?? Data()
    }

    /// Every string or number somewhere in the document, one replaced by a payload.
    mutating func replacingLeaf(_ value: JSONValue) -> JSONValue {
        var leaves = 0
        func count(_ v: JSONValue) {
            switch v {
            case .object(let fields): fields.values.forEach(count)
            case .array(let items): items.forEach(count)
            case .string, .number: leaves += 1
            default: break
            }
        }
        count(value)
        guard leaves > 0 else { return value }
        var target = below(leaves)
        let payload = payloads[below(payloads.count)]
        func replace(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let fields): return .object(fields.keys.sorted().reduce(into: [:]) { $0[$1] = replace(fields[$1] ?? .null) })
            case .array(let items): return .array(items.map(replace))
            case .string, .number:
                defer { target -= 1 }
                return target == 0 ? payload : v
            default: return v
            }
        }
        return replace(value)
    }

    mutating func addingKey(_ value: JSONValue, depth: Int) -> JSONValue {
        guard case .object(var fields) = value else { return value }
        let keys = fields.keys.sorted()
        if depth < 3, !keys.isEmpty, below(2) == 0, case .object = fields[keys[below(keys.count)]] ?? .null {
            let key = keys.first { if case .object = fields[$0] ?? .null { return true } else { return false } } ?? keys[0]
            fields[key] = addingKey(fields[key] ?? .null, depth: depth + 1)
        } else {
            let names = ["patientName", "note", "birthDate", "operator", text, "meshFile", "behaviourNote"]
            fields[names[below(names.count)]] = payloads[below(payloads.count)]
        }
        return .object(fields)
    }

    /// The document's text with one of its keys written a second time, before or after.
    mutating func duplicatingKey(_ seed: Data, _ value: JSONValue) -> Data {
        guard case .object(let fields) = value, let key = fields.keys.sorted().randomElement(using: &random) else { return seed }
        let extra = "\"\(key)\": \(String(decoding: encode(payloads[below(payloads.count)]), as: UTF8.self))"
        var textForm = String(decoding: encode(value), as: UTF8.self)
        if below(2) == 0 {
            textForm.insert(contentsOf: extra + ",", at: textForm.index(after: textForm.startIndex))
        } else {
            textForm.insert(contentsOf: "," + extra, at: textForm.index(before: textForm.endIndex))
        }
        return Data(textForm.utf8)
    }

    /// A key written with a \u escape, alone or beside its plain spelling.
    mutating func escapingKey(_ seed: Data, _ value: JSONValue) -> Data {
        guard case .object(let fields) = value, let key = fields.keys.sorted().randomElement(using: &random), let first = key.unicodeScalars.first
        else { return seed }
        let escaped = String(format: "\\u%04x", first.value) + String(key.unicodeScalars.dropFirst())
        var textForm = String(decoding: encode(value), as: UTF8.self)
        if below(2) == 0 {
            textForm = textForm.replacingOccurrences(of: "\"\(key)\":", with: "\"\(escaped)\":")
        } else {
            textForm.insert(contentsOf: "\"\(escaped)\": \"\(text)\",", at: textForm.index(after: textForm.startIndex))
        }
        return Data(textForm.utf8)
    }

    // MARK: meshes

    mutating func mesh(_ seed: Data) -> Data {
        if below(5) == 0 { return plain.mutateBytes(seed) }
        let ascii = below(2) == 0
        var header = ["ply", "format \(ascii ? "ascii" : "binary_little_endian") 1.0"]
        var vertexProperties = ["property float x", "property float y", "property float z"]
        var extraElement: (header: [String], ascii: String, binary: [UInt8])?
        var trailer: [UInt8] = []
        let textBytes = Array(text.utf8)
        switch below(9) {
        case 0: header.insert("comment \(text)", at: 2)
        case 1: header.insert("obj_info \(text)", at: 2)
        case 2: header[1] += " \(text)"
        case 3: header[0] += " \(text)"
        case 4: header.insert("comment HeadScan reconstruction, metres\r\(text)", at: 2)
        case 5: header.insert("comment HeadScan reconstruction, metres\u{85}\(text)", at: 2)
        case 6:
            extraElement = (
                ["element \(["note", "Mustermann", "x"][below(3)]) \(textBytes.count)", "property uchar value"],
                textBytes.map(String.init).joined(separator: "\n"), textBytes
            )
        case 7: vertexProperties.append("property uchar \(["red", "note", "quality"][below(3)])")
        default: trailer = textBytes
        }
        let vertices: [SIMD3<Float>] = [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]
        let faces: [[Int32]] = [[0, 1, 2], [0, 1, 3], [1, 2, 3]]
        header += ["element vertex \(vertices.count)"] + vertexProperties
        if let extraElement, below(2) == 0 { header += extraElement.header }
        header += ["element face \(faces.count)", "property list uchar int vertex_indices"]
        if let extraElement, !header.contains(extraElement.header[0]) { header += extraElement.header }
        header.append("end_header")
        var bytes = Array((header.joined(separator: "\n") + "\n").utf8)
        let extraValue = vertexProperties.count > 3 ? UInt8(ascii: "M") : nil
        let extraFirst =
            extraElement.map { header.firstIndex(of: $0.header[0]) ?? 0 < header.firstIndex(of: "element face \(faces.count)") ?? 0 } ?? false
        if ascii {
            var lines = vertices.map { "\($0.x) \($0.y) \($0.z)" + (extraValue.map { " \($0)" } ?? "") }
            if let extraElement, extraFirst { lines.append(extraElement.ascii) }
            lines += faces.map { "3 " + $0.map(String.init).joined(separator: " ") }
            if let extraElement, !extraFirst { lines.append(extraElement.ascii) }
            bytes += Array((lines.joined(separator: "\n") + "\n").utf8)
        } else {
            for v in vertices {
                for c in [v.x, v.y, v.z] { withUnsafeBytes(of: c.bitPattern.littleEndian) { bytes += $0 } }
                if let extraValue { bytes.append(extraValue) }
            }
            if let extraElement, extraFirst { bytes += extraElement.binary }
            for f in faces {
                bytes.append(3)
                for i in f { withUnsafeBytes(of: i.littleEndian) { bytes += $0 } }
            }
            if let extraElement, !extraFirst { bytes += extraElement.binary }
        }
        return Data(bytes + trailer)
    }

    // MARK: recordings

    mutating func scan(_ seed: Data, scratch: URL) throws -> Data {
        if below(6) == 0 { return plain.mutateBytes(seed) }
        var variant = HostileScans.Variant()
        switch below(8) {
        case 0: variant.device = "iPhone " + text
        case 1: variant.appVersion = ["10:31:07", text, "1.0 " + text][below(3)]
        case 2: variant.settings = ["note": text]
        case 3: variant.metadata = [["patientName", "birthDate", "operator", "scenario", "notes"][below(5)]: text]
        case 4: variant.capLayoutName = text
        case 5: variant.comment = text
        case 6: variant.firstTime = 1_777_281_000
        default: variant.comment = below(2) == 0 ? text : nil
        }
        let url = scratch.appendingPathComponent("mutant.hscan")
        try HostileScans.write(to: url, variant: variant, frames: 1 + below(3))
        var bytes = [UInt8](try Data(contentsOf: url))
        switch below(3) {
        case 0:
            // Text between two records: before a record's magic after the header.
            let magic: [UInt8] = [0x48, 0x53, 0x43, 0x52]
            if let start = bytes.indices.dropFirst(64).first(where: { Array(bytes[$0..<min(bytes.count, $0 + 4)]) == magic }) {
                bytes.insert(contentsOf: Array(text.utf8), at: start)
            }
        case 1: bytes += Array(text.utf8)
        default: break
        }
        return Data(bytes)
    }
}

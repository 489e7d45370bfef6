import Cephalometry
import Feedback
import Foundation
import Geometry
import HTTPTypes
import HeadScanTesting
import Hummingbird
import HummingbirdTesting
import Imaging
import Logging
import NIOCore
import Processing
import Reconstruction
import Recording
import ScanLibrary
import Testing
import Upload

@testable import HeadScanServer

/// The service's boundary with what clinics upload: decoders run in a helper with limits, the
/// service keeps its own encoding, and nothing an upload says is followed or kept as text.
/// The time limit guards against a hang; it is no speed target. The whole suite on two busy
/// cores has kept these tests waiting past two minutes.
@Suite(.timeLimit(.minutes(6))) struct UploadBoundaryTests {
    /// 150 bytes of ASCII PLY whose face names vertex 1e30 (a trapping conversion before).
    static let hostileMesh = Data(
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 1e30\n"
            .utf8)

    /// The seed session with `name` replaced by `data`.
    static func package(replacing name: String, with data: Data) throws -> (SessionPackage, SessionFixture) {
        let fixture = try ResearchSessionSeeds.fixture()
        var package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let index = try #require(package.items.firstIndex { $0.manifest.name == name })
        package.items[index] = .init(manifest: ManifestFile(name: name, size: Int64(data.count), sha256: Digest.sha256(data)), source: .data(data))
        return (package, fixture)
    }

    /// A helper script that ends the way `body` says (a signal, a sleep).
    static func helper(_ body: String, timeLimit: Double = 600) throws -> Isolation {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("helper-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\necho 'Fatal error: Max Mustermann' >&2\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        return Isolation(executable: url, timeLimit: timeLimit)
    }

    @Test func theHostileMeshIsRefusedNotTrapped() throws {
        #expect(Self.hostileMesh.count < 200)
        #expect(throws: PLY.Error.self) { try PLY.decode([UInt8](Self.hostileMesh)) }
        for index in ["-1e30", "nan", "inf", "2.5", "4294967296"] {
            let text = String(decoding: Self.hostileMesh, as: UTF8.self).replacingOccurrences(of: "1e30", with: index)
            #expect(throws: PLY.Error.self, "\(index)") { try PLY.decode([UInt8](text.utf8)) }
        }
        // A list count far beyond a polygon, and an element without properties.
        let longList = String(decoding: Self.hostileMesh, as: UTF8.self).replacingOccurrences(of: "3 0 1 1e30", with: "1e30 0 1 2")
        #expect(throws: PLY.Error.self) { try PLY.decode([UInt8](longList.utf8)) }
        let empty = "ply\nformat ascii 1.0\nelement nothing 999999999999\nend_header\n"
        #expect(throws: PLY.Error.self) { try PLY.decode([UInt8](empty.utf8)) }
    }

    @Test func aDepthHeaderOfFourBillionSquaredIsRefusedNotTrapped() throws {
        var bytes = DepthCodec.encode(DepthImage(width: 2, height: 2, pixels: [0.5, 0.5, 0.5, 0.5]))
        for offset in 4..<12 { bytes[offset] = 0xFF }
        #expect(throws: DepthCodecError.self) { try DepthCodec.decode(bytes) }
    }

    @Test(arguments: Backend.available)
    func theHostileMeshFailsItsUploadAndTheServiceAnswersOn(_ backend: Backend) async throws {
        let made = try await Harness.make(backend)
        var server = made.server
        server.isolation = IsolationTests.realHelper
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let (package, fixture) = try Self.package(replacing: "head.ply", with: Self.hostileMesh)
        defer { fixture.remove() }
        try await harness.app().test(.router) { client in
            for attempt in 0..<2 {
                let before = try await harness.state()
                let status = try await UploadFuzzTests.upload(client, token: token, package: package)
                #expect(status == .unprocessableContent, "attempt \(attempt)")
                let after = try await harness.state()
                #expect(after.0 == before.0 && after.1 == before.1, "attempt \(attempt) kept something")
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            }
        }
    }

    /// Each way a decoder can die: a fault, a trap, an abort, the kernel's kill at the memory
    /// limit, and running past the time limit. Each fails its upload with a 422, nothing is
    /// kept, the log holds nothing of what the helper printed, and the service answers on.
    @Test(arguments: ["kill -SEGV $$", "kill -ILL $$", "kill -TRAP $$", "kill -ABRT $$", "kill -KILL $$", "exec sleep 30"])
    func aHelperThatDiesFailsItsUploadAlone(_ ending: String) async throws {
        let made = try await Harness.make(.sqlite)
        var server = made.server
        let helper = try Self.helper(ending, timeLimit: 1)
        defer { try? FileManager.default.removeItem(at: helper.executable) }
        let lines = LogCapture.Lines()
        server.isolation = helper
        server.logger = LogCapture.logger(lines)
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        try await harness.app().test(.router) { client in
            let before = try await harness.state()
            #expect(try await UploadFuzzTests.upload(client, token: token, package: package) == .unprocessableContent)
            let after = try await harness.state()
            #expect(after.0 == before.0 && after.1 == before.1)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
        #expect(!lines.all.joined().contains("Mustermann"), "\(lines.all)")
    }

    /// A refusal says what is wrong with the file, never where the service keeps it.
    @Test func refusalsNameNoServerPath() async throws {
        let harness = try await Harness.make(.sqlite)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        let url = harness.data.appendingPathComponent("hostile.hscan")
        try HostileScans.write(to: url, variant: .init(), frames: 2)
        let good = [UInt8](try Data(contentsOf: url))
        var damagedFrame = good
        damagedFrame[good.count / 2] ^= 0xFF
        let variants: [[UInt8]] = [
            Array(good.prefix(40)), Array("HSCAN\r\n\u{1A}".utf8) + [9, 9, 9, 9], damagedFrame, Array(good.prefix(good.count / 2)),
        ]
        let refused = Locked(0)
        for (index, bytes) in variants.enumerated() {
            let (package, fixture) = try Self.package(replacing: ScanSession.scanFileName, with: Data(bytes))
            defer { fixture.remove() }
            try await harness.app().test(.router) { client in
                let create = CreateUploadRequest(sessionName: package.sessionName, chunkSize: 1 << 16, files: package.manifest)
                let status = try decode(
                    UploadStatus.self, try await client.execute(uri: "/api/uploads", method: .post, headers: bearer(token), body: try json(create)))
                for item in package.items {
                    for chunk in 0..<item.manifest.chunkCount(chunkSize: 1 << 16) {
                        let piece = try SessionPackage.read(
                            item, offset: Int64(chunk) << 16, length: item.manifest.chunkLength(chunk, chunkSize: 1 << 16))
                        var headers = bearer(token)
                        headers[.chunkChecksum] = Digest.sha256(piece)
                        _ = try await client.execute(
                            uri: "/api/uploads/\(status.uploadID)/files/\(item.manifest.name)/chunks/\(chunk)", method: .put, headers: headers,
                            body: ByteBuffer(bytes: piece))
                    }
                }
                let done = try await client.execute(uri: "/api/uploads/\(status.uploadID)/complete", method: .post, headers: bearer(token))
                let text = String(buffer: done.body)
                // A recording cut short keeps the frames before the cut, as after a killed app.
                guard done.status != .ok else { return }
                refused.withLock { $0 += 1 }
                #expect(done.status == .unprocessableContent, "variant \(index): \(text)")
                for path in [harness.data.path, "/tmp/", "stage-", "/blobs/", ".kept"] {
                    #expect(!text.contains(path), "variant \(index) names \(path): \(text)")
                }
            }
        }
        #expect(refused.withLock { $0 } >= 3, "only \(refused.withLock { $0 }) of the damaged recordings were refused")
    }

    @Test(arguments: Backend.available)
    func aMeasurementCannotPointAtAnotherFile(_ backend: Backend) async throws {
        let harness = try await Harness.make(backend)
        defer { Task { await harness.close() } }
        let (_, token) = try await harness.device("phone-a")
        var record = try MeasurementRecord.decode(from: SessionFixture.measurement(cvai: 6))
        record.measuredAt = ResearchCalendar.weekStart(record.measuredAt)
        for path in ["../../../blobs/9b/" + String(repeating: "9b", count: 32), "../../../headscan.sqlite", "/etc/passwd", "asymmetry.ply"] {
            record.meshFile = path
            let (package, fixture) = try Self.package(replacing: MeasurementRecord.fileName, with: try record.encodedAlone())
            defer { fixture.remove() }
            try await harness.app().test(.router) { client in
                let status = try await UploadFuzzTests.upload(client, token: token, package: package)
                #expect(status == .unprocessableContent, "\(path)")
            }
        }
    }

    /// Processing opens the session's own mesh, whatever `measurement.json` says (a library
    /// with a document from elsewhere, or one stored before the checks refused such paths).
    @Test func theReportMeasuresTheSessionsOwnMesh() throws {
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        let head = Ellipsoid.mesh(0.06, 0.075, 0.07)
        let victim = Ellipsoid.mesh(0.04, 0.05, 0.05)
        try Data(PLY.encode(head)).write(to: fixture.folder.appendingPathComponent("head.ply"))
        try Data(PLY.encode(victim)).write(to: fixture.root.appendingPathComponent("victim.ply"))
        var record = try MeasurementRecord.decode(from: SessionFixture.measurement(cvai: 6))
        record.meshFile = "../victim.ply"
        try record.encodedAlone().write(to: fixture.folder.appendingPathComponent(MeasurementRecord.fileName))
        let library = ScanLibrary(root: fixture.root)
        let session = try library.session(named: fixture.folder.lastPathComponent)
        let measured = try MeasuredSession.load(library: library, session: session)
        let (report, _, mesh, _) = try ClinicalReportWriter(library: library, session: session).content(measured)
        #expect(mesh.vertices.count == head.vertices.count)
        #expect(report.meshFile == ScanSession.meshFileName)
    }

    @Test func duplicateKeysAreRefused() throws {
        let consent = #"{"version": 1, "researchUse": true, "researchUse": false, "decidedAt": "2026-04-27T00:00:00Z", "recordedBy": "test"}"#
        #expect(throws: StrictJSON.Problem.duplicateKey("researchUse")) { try StrictJSON.check(Data(consent.utf8)) }
        // The same key spelt with an escape is the same key.
        let escaped = #"{"a": 1, "\u0061": 2}"#
        #expect(throws: StrictJSON.Problem.duplicateKey("a")) { try StrictJSON.check(Data(escaped.utf8)) }
        #expect(throws: StrictJSON.Problem.tooDeep) {
            try StrictJSON.check(Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8))
        }
        for valid in [#"{"a": [1, -2.5e3, true, null, "x\n\u00e9"], "b": {"a": 1}}"#, "[]", "0"] {
            #expect(throws: Never.self) { try StrictJSON.check(Data(valid.utf8)) }
        }
        for broken in [#"{"a": 1,}"#, #"{"a" 1}"#, "[01x]", "\"\u{01}\"", #"{"a": 1} x"#, #""\ud800""#] {
            #expect(throws: StrictJSON.Problem.self, "\(broken)") { try StrictJSON.check(Data(broken.utf8)) }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(consent.utf8).write(to: folder.appendingPathComponent("in"))
        #expect(throws: APIError.self) {
            _ = try UploadInspector.inspect(
                ConsentRecord.fileName, at: folder.appendingPathComponent("in"), writingTo: folder.appendingPathComponent("out"))
        }
    }

    @Test func aTypedNoteIsRefusedOnAnyDay() throws {
        let monday = Date(timeIntervalSince1970: 1_777_248_000)  // 2026-04-27, a Monday
        #expect(ResearchCalendar.isWeekStart(monday))
        var rating = try RatingRecord.decode(from: SessionFixture.rating(4))
        rating.ratedAt = monday
        rating.behaviourNote = "Max Mustermann *2026-01-15"
        #expect(throws: APIError.self) { _ = try kept(RatingRecord.fileName, try rating.encodedAlone()) }
        rating.behaviourNote = nil
        #expect(throws: Never.self) { _ = try kept(RatingRecord.fileName, try rating.encodedAlone()) }
    }

    @Test func aFeedbackTimeInClockSecondsIsRefused() throws {
        var timeline = FeedbackTimelineSample.make()
        timeline.completedAt = 1_777_281_000
        #expect(throws: APIError.self) { _ = try kept("feedback.json", try JSONEncoder().encode(timeline)) }
        timeline.completedAt = 30
        #expect(throws: Never.self) { _ = try kept("feedback.json", try JSONEncoder().encode(timeline)) }
    }

    /// Text in every free field of the documents is replaced by the service's words, and the
    /// recording's SHA-256 and a custom cap's name do not survive.
    @Test func documentsKeepOnlyTheirVocabulary() throws {
        let text = "Max Mustermann *2026-01-15"
        var record = try MeasurementRecord.decode(from: SessionFixture.measurement(cvai: 6))
        record.measuredAt = ResearchCalendar.weekStart(record.measuredAt)
        let found = DetectedLandmark(point: .zero, normal: [0, 0, 1], confidence: 0.9, evidence: text)
        let real = DetectedLandmark(point: .zero, normal: [0, 0, 1], confidence: 0.9, evidence: "nose stands 12.5 mm out of the face")
        record.automaticLandmarks = AutomaticLandmarks(nasion: found, noseTip: real, leftTragion: found, rightTragion: found)
        record.measurement.warnings = [MeasurementWarning(.openContour, text), MeasurementWarning(.capSitsHigh, text)]
        let measurement = String(decoding: try kept(MeasurementRecord.fileName, try record.encodedAlone()), as: UTF8.self)
        #expect(!measurement.contains("Mustermann") && measurement.contains("nose stands 12.5 mm"))
        #expect(measurement.contains("the cap sat too high") && measurement.contains("capSitsHigh"))
        // The intervals' standard deviations have fixed keys: text as a key does not survive.
        record.measurement.intervals = MeasurementIntervals(
            level: 0.95, cvai: ValueInterval(low: 5, high: 7), cvaMM: ValueInterval(low: 8, high: 10), ci: ValueInterval(low: 80, high: 82),
            circumferenceMM: ValueInterval(low: 400, high: 404), samples: 48, landmarkSigmaMM: LandmarkSigmas([.nasion: 0.2]),
            surfaceSigmaMM: 0.05, scaleSigma: 0)
        var object = try #require(try JSONSerialization.jsonObject(with: try record.encodedAlone()) as? [String: Any])
        var values = try #require(object["measurement"] as? [String: Any])
        var intervals = try #require(values["intervals"] as? [String: Any])
        intervals["landmarkSigmaMM"] = ["nasion": 0.2, text: 1.0]
        values["intervals"] = intervals
        object["measurement"] = values
        let withText = try JSONSerialization.data(withJSONObject: object)
        var absurd = record
        absurd.measurement.intervals?.cvai.low = -1e300
        #expect(throws: APIError.self) { _ = try kept(MeasurementRecord.fileName, try absurd.encodedAlone()) }
        if let stored = try? kept(MeasurementRecord.fileName, withText) {
            #expect(!String(decoding: stored, as: UTF8.self).contains("Mustermann"))
        }
        // The landmarks' source and names are closed vocabularies by type: free text there is refused.
        record.landmarksSource = .picks
        record.landmarkEstimates = [.nasion: LandmarkEstimate(points: [[0, 0.07, 0], [0, 0.0702, 0]], residuals: [0.1, nil])]
        let valid = try #require(try JSONSerialization.jsonObject(with: try record.encodedAlone()) as? [String: Any])
        _ = try kept(MeasurementRecord.fileName, try JSONSerialization.data(withJSONObject: valid))
        var freeSource = valid
        freeSource["landmarksSource"] = text
        #expect(throws: (any Error).self) { try kept(MeasurementRecord.fileName, try JSONSerialization.data(withJSONObject: freeSource)) }
        var freeName = valid
        let estimates = try #require(valid["landmarkEstimates"] as? [String: Any])
        freeName["landmarkEstimates"] = [text: try #require(estimates["nasion"])]
        #expect(throws: (any Error).self) { try kept(MeasurementRecord.fileName, try JSONSerialization.data(withJSONObject: freeName)) }

        var reconstruction = try ReconstructionRecord.decode(from: try ResearchSessionSeeds.reconstruction())
        reconstruction.capLayout = text
        reconstruction.scan.sha256 = String(repeating: "ab", count: 32)
        // The reconstruction's reasons and stage names are the service's words, never the upload's.
        reconstruction.statistics.focalCorrectionRefused = text
        reconstruction.statistics.printedScale = PrintedScale(ratio: 1.03, ratioSigma: 0.001, markers: 40, refused: text)
        reconstruction.statistics.stageSeconds = [text: 1, "fusion": 2]
        let stored = String(decoding: try kept(ReconstructionRecord.fileName, try reconstruction.encodedAlone()), as: UTF8.self)
        #expect(!stored.contains("Mustermann") && !stored.contains("abababab") && stored.contains("custom"))
        let scrubbed = try ReconstructionRecord.decode(from: Data(stored.utf8)).statistics
        #expect(scrubbed.focalCorrectionRefused != nil && scrubbed.printedScale?.refused != nil && scrubbed.printedScale?.ratio == 1.03)
        #expect(scrubbed.stageSeconds == ["fusion": 2])

        let consent = ConsentRecord(researchUse: true, decidedAt: Date(timeIntervalSince1970: 1_777_248_000), recordedBy: text)
        #expect(!String(decoding: try kept(ConsentRecord.fileName, try consent.encodedAlone()), as: UTF8.self).contains("Mustermann"))
    }

    /// A recording's header with text in every field comes back with none of it; the frames'
    /// times count from the first; a JPEG's comment is gone and its pixels are the same.
    @Test func theRecordingKeepsOnlyItsVocabularyAndItsPixels() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "Max Mustermann *2026-01-15"
        let url = folder.appendingPathComponent("in.hscan")
        try HostileScans.write(to: url, text: text, frames: 3, commentCodec: true, firstTime: 1_777_281_000)
        let bytes = try Data(contentsOf: url)
        #expect(bytes.range(of: Data("Mustermann".utf8)) != nil)
        let output = try kept(ScanSession.scanFileName, bytes)
        #expect(output.range(of: Data("Mustermann".utf8)) == nil)
        #expect(output.range(of: Data("2026-01-15".utf8)) == nil)
        let back = folder.appendingPathComponent("out.hscan")
        try output.write(to: back)
        let original = try ScanReader(url: url), canonical = try ScanReader(url: back)
        #expect(canonical.frameCount == 3)
        #expect(canonical.timestamp(at: 0) == 0 && abs((canonical.timestamp(at: 2) ?? 0) - 0.2) < 1e-6)
        #expect(canonical.header.device == "unknown" && canonical.header.appVersion == "unknown")
        #expect(canonical.header.metadata == ["seed": "7"] && canonical.header.settings.isEmpty)
        for index in 0..<3 {
            #expect(try canonical.frame(at: index).color.pixels == original.frame(at: index).color.pixels)
            #expect(try canonical.frame(at: index).depth.pixels == original.frame(at: index).depth.pixels)
        }
        // The service's encoding is its own fixed point.
        #expect(try kept(ScanSession.scanFileName, output) == output)
    }

    /// What the app records keeps its meaning: the settings it writes, every device name that
    /// is a model's, and the mesh's colours.
    @Test func whatTheAppWritesSurvivesTheVocabularies() throws {
        let entries = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: FeedbackSettings()).children.compactMap { child in
                child.label.map { ($0, "\(child.value)") }
            })
        #expect(!entries.isEmpty && CanonicalScan.settings(entries) == entries)
        for device in ["iPhone", "iPad", "iPhone 13 Pro", "iPhone 15 Pro Max", "iPad Pro 11-inch (3rd generation)", "simulator (headscan demo)"] {
            #expect(CanonicalScan.device(device) == device)
        }
        var mesh = Ellipsoid.mesh(0.06, 0.075, 0.07, rings: 6, around: 8)
        mesh.colors = mesh.vertices.map { _ in SIMD3<UInt8>(200, 150, 120) }
        let kept = try PLY.decode([UInt8](try kept("head.ply", Data(PLY.encode(mesh)))))
        #expect(kept.colors == mesh.colors && kept.faces == mesh.faces)
    }

    @Test func processingWritesNoTimeFinerThanTheWeek() throws {
        let fixture = try ResearchSessionSeeds.fixture()
        defer { fixture.remove() }
        try Data(PLY.encode(Ellipsoid.mesh(0.06, 0.075, 0.07))).write(to: fixture.folder.appendingPathComponent("head.ply"))
        var record = try MeasurementRecord.decode(from: SessionFixture.measurement(cvai: 6))
        record.measuredAt = Date(timeIntervalSince1970: 1_777_248_000)
        try record.encodedAlone().write(to: fixture.folder.appendingPathComponent(MeasurementRecord.fileName))
        // The service's copy: pseudonymised, as the worker's scratch folder holds it.
        let package = try SessionPackage(folder: fixture.folder, pseudonymiser: testPseudonymiser)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "work-\(UUID().uuidString)/\(package.sessionName)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch.deletingLastPathComponent()) }
        for item in package.items { try kept(item).write(to: scratch.appendingPathComponent(item.manifest.name)) }
        try FileManager.default.removeItem(at: scratch.appendingPathComponent(AnnotationsRecord.fileName))
        _ = try IsolatedWork.processFolder(scratch)
        let pdf = String(decoding: try Data(contentsOf: scratch.appendingPathComponent("report.pdf")), as: UTF8.self)
        let created = try #require(pdf.firstMatch(of: /CreationDate \(D:([0-9]{14})/)?.1)
        #expect(created == "20260427000000", "\(created)")
        #expect(throws: Never.self) { try IsolatedWork.checkTimes(in: scratch) }
    }

    /// A crowd of wrong passwords from one address: only the limit's worth is checked by
    /// bcrypt (each attempt is counted before it is checked).
    @Test func aCrowdOfWrongPasswordsIsCountedBeforeItIsChecked() async throws {
        let harness = try await AccountTests.harness(.sqlite)
        defer { Task { await harness.close() } }
        _ = try await harness.researcher("r@example.org")
        try await harness.app().test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<40 {
                    group.addTask { try await client.execute(uri: "/api/sessions", method: .get, headers: basic("r@example.org", "wrong")).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(harness.server.passwordChecks.performed.withLock { $0 } <= 5, "only the account's limit is checked")
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5 && statuses.filter { $0 == .tooManyRequests }.count >= 35, "\(statuses)")
        }
    }

    /// Another address is not locked out by a guesser's failures.
    @Test func aGuesserDoesNotLockTheOwnerOutElsewhere() async throws {
        let harness = try await AccountTests.harness(.sqlite)
        defer { Task { await harness.close() } }
        let password = try await harness.researcher("r@example.org")
        for _ in 0..<8 { _ = try await harness.server.verifyCatching(email: "r@example.org", password: "guess", address: "203.0.113.9") }
        #expect(try await harness.server.verifyCatching(email: "r@example.org", password: password, address: "203.0.113.9") == nil)
        #expect(try await harness.server.verifyCatching(email: "r@example.org", password: password, address: "198.51.100.4") != nil)
    }

    @Test func theLogHoldsNoSubmittedText() async throws {
        let made = try await AccountTests.harness(.sqlite)
        var server = made.server
        let lines = LogCapture.Lines()
        server.logger = LogCapture.logger(lines)
        let harness = Harness(server: server, data: made.data, schema: made.schema)
        defer { Task { await harness.close() } }
        let forged = "max.mustermann@example.org\n2026-11-27T10:00:00 info admin signed in\u{1B}[2J"
        _ = try await harness.server.verifyCatching(email: forged, password: "guess", address: "203.0.113.9")
        let log = lines.all.joined(separator: "\n")
        #expect(!log.contains("mustermann") && !log.contains("admin signed in") && !log.contains("\u{1B}"), "\(log)")
        let audit = try await harness.store.auditLog(limit: 10)
        #expect(audit.allSatisfy { !$0.actor.contains("mustermann") && !$0.actor.contains("\n") }, "\(audit.map(\.actor))")
    }
}

extension ResearchServer {
    /// Sign-in, with a refusal (429) as nil.
    func verifyCatching(email: String, password: String, address: String) async throws -> Researcher? {
        do {
            return try await verify(email: email, password: password, address: address)
        } catch let error as APIError where error.status == .tooManyRequests {
            return nil
        }
    }
}

enum FeedbackTimelineSample {
    static func make() -> FeedbackTimeline {
        var timeline = FeedbackTimeline()
        timeline.duration = 42
        timeline.milestones = [.init(time: 20, percent: 50)]
        return timeline
    }
}

/// A closed ellipsoid about the origin with semi-axes along x, y, z: a head stand-in for the
/// fixture's landmarks (front +y, up +z).
enum Ellipsoid {
    static func mesh(_ a: Double, _ b: Double, _ c: Double, rings: Int = 40, around: Int = 80) -> TriangleMesh {
        var mesh = TriangleMesh()
        mesh.vertices.append([0, 0, c])
        for ring in 1..<rings {
            let theta = Double.pi * Double(ring) / Double(rings)
            for step in 0..<around {
                let phi = 2 * Double.pi * Double(step) / Double(around)
                mesh.vertices.append([a * sin(theta) * cos(phi), b * sin(theta) * sin(phi), c * cos(theta)])
            }
        }
        mesh.vertices.append([0, 0, -c])
        func index(_ ring: Int, _ step: Int) -> Int32 { Int32(1 + (ring - 1) * around + (step % around)) }
        for step in 0..<around { mesh.faces.append([0, index(1, step + 1), index(1, step)]) }
        for ring in 1..<(rings - 1) {
            for step in 0..<around {
                mesh.faces.append([index(ring, step), index(ring, step + 1), index(ring + 1, step)])
                mesh.faces.append([index(ring, step + 1), index(ring + 1, step + 1), index(ring + 1, step)])
            }
        }
        let last = Int32(mesh.vertices.count - 1)
        for step in 0..<around { mesh.faces.append([last, index(rings - 1, step), index(rings - 1, step + 1)]) }
        return mesh
    }
}

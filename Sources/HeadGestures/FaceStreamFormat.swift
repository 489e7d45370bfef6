import Foundation

/// The face stream as text: one JSON object per line and frame,
/// `{"t":0.033,"width":640,"height":480,"leftEye":[x,y],"rightEye":[x,y],"mouth":[x,y]}` or
/// `{"t":0.033,"face":null}`; optional `"bounds":[x,y,width,height]` and
/// `"orientation":"up|down|left|right"` (default up). Points are unmirrored image pixels.
public enum FaceStreamFormat {
    /// Every frame of `text`; a line that cannot be used is an error naming its number.
    public static func frames(in text: String) throws(GestureError) -> [FaceFrame] {
        var frames: [FaceFrame] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            frames.append(try frame(line: trimmed, number: index + 1))
        }
        guard !frames.isEmpty else { throw .emptyStream }
        return frames
    }

    /// One line as a frame; `number` names the line in errors.
    public static func frame(line: String, number: Int) throws(GestureError) -> FaceFrame {
        do {
            return try JSONDecoder().decode(FrameRecord.self, from: Data(line.utf8)).frame
        } catch let error as LineProblem {
            throw .invalidFrame(line: number, error.message)
        } catch let error as DecodingError {
            throw .invalidFrame(line: number, explain(error))
        } catch {
            throw .invalidFrame(line: number, "\(error)")
        }
    }

    /// The line for `frame`, as `frames(in:)` reads it.
    public static func line(for frame: FaceFrame) -> String {
        var parts = [String(format: "\"t\":%.4f", frame.time)]
        if let face = frame.face {
            parts.append("\"width\":\(frame.width),\"height\":\(frame.height)")
            parts.append("\"leftEye\":\(point(face.leftEye)),\"rightEye\":\(point(face.rightEye)),\"mouth\":\(point(face.mouth))")
            if let b = face.bounds { parts.append(String(format: "\"bounds\":[%.3f,%.3f,%.3f,%.3f]", b.x, b.y, b.width, b.height)) }
            if frame.orientation != .up { parts.append("\"orientation\":\"\(frame.orientation.rawValue)\"") }
        } else {
            parts.append("\"face\":null")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    private static func point(_ p: SIMD2<Double>) -> String { String(format: "[%.3f,%.3f]", p.x, p.y) }

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type: \(context.debugDescription)"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not valid JSON" : "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\": \(context.debugDescription)"
        @unknown default: "\(error)"
        }
    }
}

/// A reason a line is unusable, raised while decoding.
private struct LineProblem: Error {
    let message: String
}

/// One line as JSON.
private struct FrameRecord: Decodable {
    let frame: FaceFrame

    private enum Keys: String, CodingKey {
        case t, width, height, leftEye, rightEye, mouth, bounds, orientation, face
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let time = try c.decode(Double.self, forKey: .t)
        guard time.isFinite else { throw LineProblem(message: "\"t\" must be a finite number of seconds") }
        let orientation = try c.decodeIfPresent(ImageOrientation.self, forKey: .orientation) ?? .up
        let present = [Keys.leftEye, .rightEye, .mouth].filter { c.contains($0) }
        if present.isEmpty {
            guard c.contains(.face) else {
                throw LineProblem(message: "a frame needs leftEye, rightEye and mouth, or \"face\":null when no face was found")
            }
            guard try c.decodeNil(forKey: .face) else {
                throw LineProblem(message: "\"face\" must be null; give a face's points as leftEye, rightEye and mouth")
            }
            let width = try c.decodeIfPresent(Int.self, forKey: .width) ?? 0
            let height = try c.decodeIfPresent(Int.self, forKey: .height) ?? 0
            frame = FaceFrame(time: time, width: width, height: height, face: nil, orientation: orientation)
            return
        }
        if let missing = [Keys.leftEye, .rightEye, .mouth].first(where: { !c.contains($0) }) {
            throw LineProblem(message: "\"\(missing.stringValue)\" is missing; a face needs leftEye, rightEye and mouth")
        }
        let width = try c.decode(Int.self, forKey: .width), height = try c.decode(Int.self, forKey: .height)
        guard width > 0, height > 0 else { throw LineProblem(message: "\"width\" and \"height\" must be positive pixel counts") }
        let face = FaceLandmarks(
            leftEye: try Self.point(c, .leftEye), rightEye: try Self.point(c, .rightEye), mouth: try Self.point(c, .mouth),
            bounds: try Self.bounds(c))
        frame = FaceFrame(time: time, width: width, height: height, face: face, orientation: orientation)
    }

    private static func point(_ c: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> SIMD2<Double> {
        let values = try c.decode([Double].self, forKey: key)
        guard values.count == 2, values.allSatisfy(\.isFinite) else {
            throw LineProblem(message: "\"\(key.stringValue)\" must be [x, y] in pixels")
        }
        return SIMD2(values[0], values[1])
    }

    private static func bounds(_ c: KeyedDecodingContainer<Keys>) throws -> FaceBounds? {
        guard let values = try c.decodeIfPresent([Double].self, forKey: .bounds) else { return nil }
        guard values.count == 4, values.allSatisfy(\.isFinite) else {
            throw LineProblem(message: "\"bounds\" must be [x, y, width, height] in pixels")
        }
        return FaceBounds(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

extension GestureSettings {
    /// Settings from JSON text; any subset of the keys, unknown keys are an error.
    public static func decode(json: String) throws(GestureError) -> GestureSettings {
        let settings: GestureSettings
        do {
            settings = try JSONDecoder().decode(GestureSettings.self, from: Data(json.utf8))
        } catch let DecodingError.dataCorrupted(context) {
            throw .unreadableSettings(place(context) + context.debugDescription)
        } catch let DecodingError.typeMismatch(_, context) {
            throw .unreadableSettings(place(context) + "wrong type")
        } catch {
            throw .unreadableSettings("\(error)")
        }
        try settings.validate()
        return settings
    }

    private static func place(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "" : context.codingPath.map(\.stringValue).joined(separator: ".") + ": "
    }
}

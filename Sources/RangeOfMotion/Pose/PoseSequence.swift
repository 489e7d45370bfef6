import Foundation

/// The poses of one video: the frames already sampled (3 per second by default) with the
/// image size the pixel positions refer to.
///
/// On disk: `{"width": W, "height": H, "frames": [{"t": 0.0, "keypoints": {"left_hip":
/// [x, y, confidence], …}}]}` with COCO's keypoint names.
public struct PoseSequence: Sendable, Equatable, Codable {
    /// Image width in pixels.
    public var width: Double
    /// Image height in pixels.
    public var height: Double
    /// Frames in time order.
    public var frames: [PoseFrame]

    public init(width: Double, height: Double, frames: [PoseFrame]) {
        self.width = width
        self.height = height
        self.frames = frames
    }

    /// Reads a pose file's bytes and checks them.
    public static func decode(json data: Data) throws(RangeOfMotionError) -> PoseSequence {
        let sequence: PoseSequence
        do {
            sequence = try JSONDecoder().decode(PoseSequence.self, from: data)
        } catch let error as DecodingError {
            throw .unreadablePoses(Self.explain(error))
        } catch {
            throw .unreadablePoses("\(error)")
        }
        try sequence.validate()
        return sequence
    }

    /// The file's bytes, keys sorted so that equal poses give equal files.
    public func encodedJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Throws when the sequence cannot be analysed: no frames, a bad image size, or a frame
    /// with non-finite numbers, a confidence outside 0...1 or a time not after the last.
    public func validate() throws(RangeOfMotionError) {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw .invalidImageSize(width: width, height: height)
        }
        guard !frames.isEmpty else { throw .noFrames }
        var previous = -Double.infinity
        for (index, frame) in frames.enumerated() {
            guard frame.time.isFinite else { throw .invalidFrame(index: index, problem: "its time is not a number") }
            guard frame.time > previous else {
                throw .invalidFrame(index: index, problem: "its time \(frame.time) s is not after the previous frame's \(previous) s")
            }
            previous = frame.time
            for (name, point) in frame.keypoints.sorted(by: { $0.key.cocoIndex < $1.key.cocoIndex }) {
                guard point.position.x.isFinite, point.position.y.isFinite else {
                    throw .invalidFrame(index: index, problem: "\(name.rawValue) has a position that is not a number")
                }
                guard point.confidence.isFinite, (0...1).contains(point.confidence) else {
                    throw .invalidFrame(index: index, problem: "\(name.rawValue) has confidence \(point.confidence), outside 0...1")
                }
            }
        }
    }

    /// The frames thinned to at most `framesPerSecond`: the first frame of every interval of
    /// 1 / `framesPerSecond` seconds, so a densely sampled file is read at the chosen rate.
    public func sampled(framesPerSecond: Double) -> PoseSequence {
        guard framesPerSecond > 0, let first = frames.first else { return self }
        var kept: [PoseFrame] = []
        var lastSlot = -1
        for frame in frames {
            let slot = Int(((frame.time - first.time) * framesPerSecond + 1e-9).rounded(.down))
            if slot > lastSlot {
                kept.append(frame)
                lastSlot = slot
            }
        }
        return PoseSequence(width: width, height: height, frames: kept)
    }

    /// A decoding error in the words of the file format.
    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop(while: { $0 == "." }))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" is missing at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type: \(context.debugDescription)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension PoseSequence {
    /// The side whose hip, knee and ankle the pose model found with more confidence over the
    /// video: from the side that is the leg nearer the camera, the one usually filmed.
    public var likelyFilmedSide: BodySide {
        func total(_ side: BodySide) -> Double {
            frames.reduce(0) { sum, frame in sum + side.leg.all.reduce(0) { $0 + (frame[$1]?.confidence ?? 0) } }
        }
        return total(.right) > total(.left) ? .right : .left
    }
}

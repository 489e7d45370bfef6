import Foundation

/// Mono 16-bit audio.
public struct AudioClip: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    /// A clip.
    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Length in seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// The clip as a RIFF/WAVE file (PCM, 16 bit, mono).
    public func wav() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(44 + samples.count * 2)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { out += $0 } }
        out += Array("RIFF".utf8); u32(36 + samples.count * 2); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        out += Array("data".utf8); u32(samples.count * 2)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { out += $0 } }
        return out
    }

    /// Reads a PCM 16-bit mono WAVE file, as espeak-ng writes it (its streamed output leaves
    /// the data size unset, so the data runs to the end of the file).
    public init(wav bytes: [UInt8]) throws(FeedbackError) {
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw .speechSynthesisFailed("not a WAVE file")
        }
        var i = 12
        var rate: Int?
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self)
            let size = u32(i + 4)
            if id == "fmt " {
                guard i + 24 <= bytes.count, u16(i + 8) == 1, u16(i + 10) == 1, u16(i + 22) == 16 else {
                    throw .speechSynthesisFailed("only 16-bit mono PCM is supported")
                }
                rate = u32(i + 12)
            } else if id == "data" {
                guard let rate else { throw .speechSynthesisFailed("WAVE data before its format") }
                let end = min(bytes.count, i + 8 + size)
                var samples: [Int16] = []
                samples.reserveCapacity((end - i - 8) / 2)
                var j = i + 8
                while j + 1 < end {
                    samples.append(Int16(bitPattern: UInt16(u16(j))))
                    j += 2
                }
                self.init(samples: samples, sampleRate: rate)
                return
            }
            i += 8 + size + (size & 1)
        }
        throw .speechSynthesisFailed("WAVE file without data")
    }
}

/// Renders the spoken feedback of a scan into one audio track on the scan's clock, so it can
/// be listened to alongside the recording.
public struct SpeechRenderer {
    /// Speaks a text: espeak-ng on the command line, anything else in tests.
    public typealias Synthesizer = (String) throws(FeedbackError) -> AudioClip

    private let phrasebook: Phrasebook
    private let synthesize: Synthesizer

    /// A renderer speaking `phrasebook`'s words with `synthesize`.
    public init(phrasebook: Phrasebook, synthesize: @escaping Synthesizer) {
        self.phrasebook = phrasebook
        self.synthesize = synthesize
    }

    /// The track and its utterances: the events are scheduled with each phrase's true spoken
    /// length, then each clip is placed at its start time. The track lasts at least `duration`.
    public func render(
        events: [TimedFeedbackEvent], duration: Double, sameInstructionInterval: Double = 2
    )
        throws(FeedbackError) -> (clip: AudioClip, utterances: [Utterance])
    {
        var clips: [Phrase: AudioClip] = [:]
        for case .speak(let phrase, _) in events.map(\.event) where clips[phrase] == nil {
            clips[phrase] = try synthesize(phrasebook.text(phrase))
        }
        let rate = clips.values.first?.sampleRate ?? 22050
        guard clips.values.allSatisfy({ $0.sampleRate == rate }) else {
            throw .speechSynthesisFailed("the synthesizer changed its sample rate")
        }
        let lengths = clips.mapValues(\.duration)
        var scheduler = SpeechScheduler(sameInstructionInterval: sameInstructionInterval) { lengths[$0] ?? 0 }
        var utterances: [Utterance] = []
        for event in events { utterances += scheduler.handle(event) }
        utterances += scheduler.finish()
        let total = max(duration, utterances.last?.end ?? 0)
        var samples = [Int16](repeating: 0, count: Int((total * Double(rate)).rounded(.up)) + 1)
        for u in utterances {
            guard let clip = clips[u.phrase] else { continue }
            let offset = Int((u.start * Double(rate)).rounded())
            for (k, s) in clip.samples.enumerated() where offset + k < samples.count {
                samples[offset + k] = s
            }
        }
        return (AudioClip(samples: samples, sampleRate: rate), utterances)
    }
}

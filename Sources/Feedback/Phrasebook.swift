import Markers

/// The words for every phrase, in German (the default) and English.
public struct Phrasebook: Sendable {
    /// The language spoken.
    public var language: Language

    /// A phrasebook for `language`.
    public init(language: Language = .de) { self.language = language }

    /// The sentence to speak.
    public func text(_ phrase: Phrase) -> String {
        let de = language == .de
        switch phrase {
        case .tooClose: return de ? "Zu nah" : "Too close"
        case .movePhone(let d): return de ? "Handy nach \(words(d))" : "Move the phone \(words(d))"
        case .headInPicture(let d): return de ? "Kopf im Bild nach \(words(d))" : "Bring the head \(words(d)) in the picture"
        case .noHead: return de ? "Kein Kopf im Bild" : "No head in the picture"
        case .percent(let p): return de ? "\(p) Prozent" : "\(p) percent"
        case .done: return de ? "Fertig" : "Done"
        case .doneMissing(let n):
            if de { return n == 1 ? "Fertig, ein Marker fehlt" : "Fertig, \(n) Marker fehlen" }
            return n == 1 ? "Done, one marker missing" : "Done, \(n) markers missing"
        case .regionMissing(let r): return de ? "\(regionName(r)) fehlt" : "\(regionName(r)) is missing"
        case .capture(let features):
            let names = features.map(featureName)
            let list =
                names.count <= 1
                ? names.joined()
                : names.dropLast().joined(separator: ", ") + (de ? " und " : " and ") + names.last!
            return de ? "Bitte noch \(list) aufnehmen" : "Please also capture \(list)"
        case .capTooHigh:
            return de
                ? "Die Mütze sitzt zu hoch, bitte über Stirn und Ohren ziehen" : "The cap sits too high, pull it down over the forehead and ears"
        case .goBack:
            return de ? "Langsam zurück zu einer schon gescannten Stelle" : "Slowly go back to a part already scanned"
        }
    }

    private func words(_ d: Direction) -> String {
        let de = language == .de
        switch d {
        case .up: return de ? "oben" : "up"
        case .down: return de ? "unten" : "down"
        case .left: return de ? "links" : "left"
        case .right: return de ? "rechts" : "right"
        case .leftUp: return de ? "links oben" : "left and up"
        case .leftDown: return de ? "links unten" : "left and down"
        case .rightUp: return de ? "rechts oben" : "right and up"
        case .rightDown: return de ? "rechts unten" : "right and down"
        case .none: return de ? "mittig" : "centred"
        }
    }

    private func regionName(_ r: HeadRegion) -> String {
        switch (r, language) {
        case (.front, .de): "Die Stirn"
        case (.left, .de): "Die linke Kopfseite"
        case (.right, .de): "Die rechte Kopfseite"
        case (.back, .de): "Der Hinterkopf"
        case (.top, .de): "Der Oberkopf"
        case (.front, .en): "The forehead"
        case (.left, .en): "The left side of the head"
        case (.right, .en): "The right side of the head"
        case (.back, .en): "The back of the head"
        case (.top, .en): "The top of the head"
        }
    }

    private func featureName(_ f: HeadFeature) -> String {
        switch (f, language) {
        case (.face, .de): "das Gesicht"
        case (.leftEar, .de): "das linke Ohr"
        case (.rightEar, .de): "das rechte Ohr"
        case (.face, .en): "the face"
        case (.leftEar, .en): "the left ear"
        case (.rightEar, .en): "the right ear"
        }
    }
}

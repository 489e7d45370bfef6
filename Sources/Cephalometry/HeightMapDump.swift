import Foundation

// TEMPORARY debugging aid: writes a height map's rise over a skin surface as a PGM picture.
extension HeightMap {
    func dump(_ name: String, rise: (Int, Int) -> Double?, marked: (Int, Int) -> Bool = { _, _ in false }) {
        guard let folder = ProcessInfo.processInfo.environment["LMDUMP"] else { return }
        var text = "P2\n\(columns) \(rows)\n255\n"
        for j in (0..<rows).reversed() {
            text += (0..<columns).map { i in
                if marked(i, j) { return "255" }
                guard let r = rise(i, j) else { return "0" }
                return "\(max(1, min(250, Int(r * 1000 * 15 + 60))))"
            }.joined(separator: " ") + "\n"
        }
        let count = (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
        try? text.write(toFile: "\(folder)/\(count)-\(name).pgm", atomically: true, encoding: .utf8)
    }
}

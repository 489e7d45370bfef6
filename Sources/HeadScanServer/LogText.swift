import Crypto
import Foundation

/// What of a request's text may reach the log and the audit log: never the text itself where a
/// client chose it freely (a forged line, a name), only a short digest or a cleaned label.
enum LogText {
    /// Printable ASCII only, at most `limit` characters; every other character (a newline that
    /// would forge a line, a control character for a terminal) becomes `?`.
    static func label(_ text: String, limit: Int = 80) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }

    /// The first 12 hex digits of the text's SHA-256: the same text gives the same digest, so
    /// repeated attempts can be told apart in the log without the text.
    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}

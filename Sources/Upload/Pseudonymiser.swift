import Foundation

// CryptoKit on Apple platforms (no package to build for the app), swift-crypto elsewhere:
// the same API.
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Replaces patient IDs by keyed hashes before anything leaves the device.
///
/// The pseudonym of patient ID `n` is HMAC-SHA256 with the site's key over the text
/// `headscan-patient-v1:n`; its first 8 bytes, read as a big-endian number, modulo 9·10¹²,
/// plus 10¹², give a 13-digit positive number. The same patient at the same site always gets
/// the same pseudonym, so visits stay linked; without the site key nobody can go back from the
/// pseudonym to the ID, nor confirm a guessed ID (the key has 256 bits, IDs only a few digits).
/// Different sites use different keys, so their pseudonyms cannot be joined.
public struct Pseudonymiser: Sendable {
    /// Bytes of a site key.
    public static let keyByteCount = 32
    private let keyBytes: Data

    /// A pseudonymiser with a site key of 32 bytes.
    public init(siteKey: Data) throws(UploadError) {
        guard siteKey.count == Self.keyByteCount else {
            throw .badSiteKey(
                "a site key has \(Self.keyByteCount) bytes (64 hex digits), this one has \(siteKey.count); copy the site's key file from another device of the site, or give a file that does not exist yet to create a new key"
            )
        }
        keyBytes = siteKey
    }

    /// A new random site key as 64 hex digits.
    public static func newSiteKeyHex() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }.hexString
    }

    /// Reads a site key file: 64 hex digits, white space around them ignored.
    public init(siteKeyFile url: URL) throws(UploadError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .badSiteKey("cannot read the site key file \(url.path): \(error.localizedDescription)")
        }
        guard text.utf8.count == 64, let bytes = Self.bytes(hex: text) else {
            throw .badSiteKey(
                "the site key file \(url.path) must hold 64 hex digits; copy the site's key file from another device of the site, or give a file that does not exist yet to create a new key"
            )
        }
        try self.init(siteKey: Data(bytes))
    }

    /// The pseudonym of a patient ID.
    public func pseudonym(patientID: Int) -> Int {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("headscan-patient-v1:\(patientID)".utf8), using: SymmetricKey(data: keyBytes))
        let value = Array(mac).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 9_000_000_000_000) + 1_000_000_000_000
    }

    static func bytes(hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(), let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}

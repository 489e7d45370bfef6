/// Byte-level constants of the scan file format; `docs/scan-format.md` describes the layout.
enum ScanFormat {
    /// The first eight bytes of every scan: "HSCAN", CR LF, Ctrl-Z, which catches text-mode
    /// transfers that mangle line ends, as PNG's signature does.
    static let magic: [UInt8] = [0x48, 0x53, 0x43, 0x41, 0x4E, 0x0D, 0x0A, 0x1A]
    /// The version this build writes and the newest it reads.
    static let version: UInt16 = 1
    /// Magic + version + flags + header length.
    static let fileHeaderPrefixSize = 16
    /// Upper bound on the JSON header, to reject garbage before allocating.
    static let maximumHeaderSize = 1 << 20

    /// Marks the start of every record, so a reader can find the next one after damage.
    static let recordMagic: UInt32 = 0x5243_5348  // "HSCR" little-endian
    /// Size of a record header: magic, kind, flags, sequence, length, payload CRC, header CRC.
    static let recordHeaderSize = 24
    /// Upper bound on one record's payload (a 4K PNG frame is well below).
    static let maximumPayloadSize = 256 << 20

    /// Marks the fixed-size trailer at the very end of a closed file.
    static let trailerMagic: UInt32 = 0x444E_4548  // "HEND" little-endian
    /// Index record offset (8), magic (4), CRC of the two (4).
    static let trailerSize = 16
}

/// What a record holds.
enum RecordKind: UInt8 {
    /// One RGB-D frame.
    case frame = 1
    /// The seek index, written when the recording is closed.
    case index = 2
}

/// The colour codec tag stored in each frame record.
enum ColorCodecTag: UInt8 {
    case jpeg = 1
    case png = 2
}

/// Appends little-endian values to a growing byte array.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append(contentsOf other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func append(contentsOf other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }

    /// Overwrites a 32-bit value already written at `offset`.
    mutating func set(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }
}

/// Reads little-endian values from bytes, failing instead of reading past the end.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func read<T: FixedWidthInteger>(_: T.Type) throws(ByteReaderError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw ByteReaderError() }
        defer { offset += size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func readDouble() throws(ByteReaderError) -> Double {
        Double(bitPattern: try read(UInt64.self))
    }

    mutating func readBytes(_ count: Int) throws(ByteReaderError) -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw ByteReaderError() }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}

/// A read ran past the end of its bytes.
struct ByteReaderError: Error {}

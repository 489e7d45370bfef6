/// Block coordinates to block numbers: an open-addressing hash table with linear probing and a
/// multiplicative hash. The volume looks blocks up millions of times per scan (every voxel of a
/// surface registration's trilinear sample), where the standard dictionary's seeded hasher
/// cost more than the lookup itself.
struct BlockTable {
    private var keys: [SIMD3<Int32>]
    private var values: [Int32]
    private(set) var count = 0
    /// Capacity minus one (capacity a power of two).
    private var mask: Int

    init() {
        keys = Array(repeating: .zero, count: 64)
        values = Array(repeating: -1, count: 64)
        mask = 63
    }

    /// The slot a key's search starts at.
    @inline(__always)
    private func start(_ key: SIMD3<Int32>) -> Int {
        // Large odd multipliers spread neighbouring blocks over the table.
        let h =
            UInt64(UInt32(bitPattern: key.x)) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(UInt32(bitPattern: key.y)) &* 0xC2B2_AE3D_27D4_EB4F
            ^ UInt64(UInt32(bitPattern: key.z)) &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: (h ^ (h >> 29)) & UInt64(mask))
    }

    @inline(__always)
    subscript(key: SIMD3<Int32>) -> Int32? {
        var slot = start(key)
        while true {
            let value = values[slot]
            if value < 0 { return nil }
            if keys[slot] == key { return value }
            slot = (slot + 1) & mask
        }
    }

    /// Adds a key that is not in the table yet, with its (non-negative) value.
    mutating func insert(_ key: SIMD3<Int32>, _ value: Int32) {
        precondition(value >= 0, "block numbers are not negative")
        if (count + 1) * 2 > mask + 1 { grow() }
        var slot = start(key)
        while values[slot] >= 0 { slot = (slot + 1) & mask }
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let capacity = (mask + 1) * 2
        keys = Array(repeating: .zero, count: capacity)
        values = Array(repeating: -1, count: capacity)
        mask = capacity - 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where value >= 0 { insert(key, value) }
    }
}

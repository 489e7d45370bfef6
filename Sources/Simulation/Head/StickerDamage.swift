import Geometry
import Markers

/// What became of a sticker's print: cells of the paper (white margin, black border and code,
/// `markerSize + 4` on a side) that show ink where there was none, or the fabric where the
/// paper is gone.
public struct StickerDamage: Sendable, Equatable {
    /// How a damaged cell looks.
    public enum Look: Sendable, Equatable {
        case ink, fabric
    }

    /// The kinds the field test saw.
    public enum Kind: String, Sendable, CaseIterable {
        /// Ink smeared one cell along a row band of the code.
        case smeared
        /// A corner of the paper torn off.
        case torn
        /// A fold across the code, dark along its line.
        case creased
    }

    public let kind: Kind
    /// Cell (row × side + column) to its look.
    public let cells: [Int: Look]

    /// The look of a cell, nil where the print is as printed.
    func look(row: Int, column: Int, side: Int) -> Look? { cells[row * side + column] }

    /// A damage of `kind` on a paper of `side` cells whose printed ink is `isInk`, placed by
    /// `random`.
    static func make(_ kind: Kind, side: Int, isInk: (Int, Int) -> Bool, random: inout Xoshiro256) -> StickerDamage {
        var cells: [Int: Look] = [:]
        let code = 2..<(side - 2)
        switch kind {
        case .smeared:
            // Two rows of the code: each inked cell bleeds into its right-hand neighbour.
            let first = code.lowerBound + random.below(code.count - 1)
            for row in first...(first + 1) {
                for column in code.dropLast() where isInk(row, column) && !isInk(row, column + 1) { cells[row * side + column + 1] = .ink }
            }
        case .torn:
            // One corner, a triangle reaching into the black border.
            let reach = 3 + random.below(2)
            let corner = random.below(4)
            for row in 0..<side {
                for column in 0..<side {
                    let r = corner < 2 ? row : side - 1 - row, c = corner % 2 == 0 ? column : side - 1 - column
                    if r + c < reach { cells[row * side + column] = .fabric }
                }
            }
        case .creased:
            // A fold along one row or one column of the code shows dark.
            let line = code.lowerBound + random.below(code.count)
            let alongRow = random.below(2) == 0
            for k in 1..<(side - 1) { cells[alongRow ? line * side + k : k * side + line] = .ink }
        }
        return StickerDamage(kind: kind, cells: cells)
    }
}

extension Cap {
    /// Gives `share` of the stickers a damaged print, smeared, torn and creased in turn, chosen
    /// from its own random stream so the rest of the scan is as without it.
    mutating func damage(share: Double, seed: UInt64) throws(SimulationError) {
        guard share > 0 else { return }
        let dictionary: MarkerDictionary
        do { dictionary = try layout.dictionary() } catch { throw .invalidCap("\(error)") }
        let side = dictionary.markerSize + 4
        var random = Xoshiro256(seed: seed, stream: 0x57_1C_4E)
        var order = Array(stickers.indices)
        for i in order.indices.reversed() where i > 0 { order.swapAt(i, random.below(i + 1)) }
        let count = Int((share * Double(stickers.count)).rounded())
        for (n, index) in order.prefix(count).enumerated() {
            guard let code = try? dictionary.code(id: stickers[index].id) else { continue }
            let isInk = { (row: Int, column: Int) -> Bool in
                guard row >= 1, column >= 1, row <= side - 2, column <= side - 2 else { return false }
                if row == 1 || column == 1 || row == side - 2 || column == side - 2 { return true }
                return !dictionary.bit(code, row: row - 2, column: column - 2)
            }
            let kind = StickerDamage.Kind.allCases[n % StickerDamage.Kind.allCases.count]
            stickers[index].damage = StickerDamage.make(kind, side: side, isInk: isInk, random: &random)
        }
    }
}

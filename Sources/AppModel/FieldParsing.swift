import Foundation

/// Why a typed value is not accepted.
public enum FieldProblem: Error, Sendable, Equatable {
    /// Nothing typed.
    case missing
    /// The patient ID is not a positive whole number.
    case notAWholeNumber
    /// The patient ID is used by another scan.
    case idInUse
    /// Not a decimal number.
    case notANumber
    /// More than one decimal separator ("1,2.3", "1,,2").
    case twoSeparators
    /// A number outside what an infant's head can measure.
    case outOfRange(ClosedRange<Double>)
}

/// Reading what is typed into the patient data fields.
enum FieldParsing {
    /// A positive whole number of ASCII digits.
    static func wholeNumber(_ text: String) -> Result<Int, FieldProblem> {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return .failure(.missing) }
        guard t.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(t), n > 0 else {
            return .failure(.notAWholeNumber)
        }
        return .success(n)
    }

    /// A decimal with a comma or a point ("142,5" or "142.5").
    static func decimal(_ text: String, range: ClosedRange<Double>) -> Result<Double, FieldProblem> {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return .failure(.missing) }
        let separators = t.filter { $0 == "," || $0 == "." }.count
        guard separators <= 1 else { return .failure(.twoSeparators) }
        let normalised = t.replacingOccurrences(of: ",", with: ".")
        let parts = normalised.split(separator: ".", omittingEmptySubsequences: false)
        let digitsOnly = parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard digitsOnly, let value = Double(normalised) else { return .failure(.notANumber) }
        guard range.contains(value) else { return .failure(.outOfRange(range)) }
        return .success(value)
    }
}

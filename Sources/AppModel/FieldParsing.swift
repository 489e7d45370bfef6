import Foundation

/// Why a typed value is not accepted.
public enum FieldProblem: Error, Sendable, Equatable {
    /// Nothing typed.
    case missing
    /// The patient ID is not a positive whole number.
    case notAWholeNumber
    /// Not a date as day.month.year or year-month-day.
    case notADate
    /// A birth date after today.
    case dateInFuture
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

    /// A date typed as "14.03.2026" (as written in Germany) or "2026-03-14", at noon UTC so
    /// no time zone moves it to another day.
    static func date(_ text: String) -> Result<Date, FieldProblem> {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return .failure(.missing) }
        let parts: [Int]
        if t.contains(".") {
            parts = t.split(separator: ".", omittingEmptySubsequences: false).reversed().compactMap { Int($0) }
        } else {
            parts = t.split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        }
        guard parts.count == 3, (1900...2200).contains(parts[0]) else { return .failure(.notADate) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return .failure(.notADate) }
        return .success(date)
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

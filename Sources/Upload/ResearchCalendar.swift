import Foundation
import ScanLibrary

/// How dates leave the device: every date is moved to the start of its week (Monday 00:00 UTC),
/// so that a visit's date together with the infant's age in weeks never gives the birth date.
public enum ResearchCalendar {
    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = utc
        return calendar
    }()

    /// Monday 00:00 UTC of the week that holds `date`.
    public static func weekStart(_ date: Date) -> Date {
        let day = calendar.startOfDay(for: date)
        let weekday = calendar.component(.weekday, from: day)  // 1 Sunday … 7 Saturday
        let back = (weekday + 5) % 7
        return calendar.date(byAdding: .day, value: -back, to: day) ?? day
    }

    /// Whether `date` is a Monday at 00:00:00 UTC.
    public static func isWeekStart(_ date: Date) -> Bool { weekStart(date) == date }

    /// The instant format of every date in the documents, `2026-04-27T00:00:00Z`.
    public static func instantText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = utc
        return formatter.string(from: date)
    }

    /// Whether `text` starts like a date (`yyyy-MM-dd`), in whatever format follows.
    public static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// The instant `text` names (ISO 8601, with or without fractional seconds).
    public static func instant(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `value` with every date string moved to the start of its week.
    public static func coarsened(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where looksLikeDate(text):
            guard let date = instant(text) else { return value }
            return .string(instantText(weekStart(date)))
        case .array(let items): return .array(items.map(coarsened))
        case .object(let fields): return .object(fields.mapValues(coarsened))
        default: return value
        }
    }

    /// The first string in `value` that looks like a date but is not a week's start in the
    /// documents' format; nil when there is none.
    public static func preciseDate(in value: JSONValue) -> String? {
        switch value {
        case .string(let text) where looksLikeDate(text):
            guard let date = instant(text), isWeekStart(date), instantText(date) == text else { return text }
            return nil
        case .array(let items): return items.lazy.compactMap(preciseDate).first
        case .object(let fields): return fields.keys.sorted().lazy.compactMap { fields[$0].flatMap(preciseDate) }.first
        default: return nil
        }
    }

    /// The session date part that leaves the device: the Monday of the recording's week, and
    /// instead of the clock time the scan's place among the patient's scans of that week
    /// (`1` → `T00-00-01`), so that names stay unique and ordered without the time of day.
    public static func sessionTimestamp(_ timestamp: String, sequence: Int) -> String? {
        guard let day = dayOfTimestamp(timestamp), (1...3599).contains(sequence) else { return nil }
        let monday = weekStart(day)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: monday) + String(format: "T00-%02d-%02d", sequence / 60, sequence % 60)
    }

    /// Whether a session name's date part is one `sessionTimestamp` writes.
    public static func isResearchTimestamp(_ timestamp: String) -> Bool {
        let parts = timestamp.split(separator: "T")
        guard parts.count == 2, let day = dayOfTimestamp(timestamp), isWeekStart(day), parts[1].hasPrefix("00-"),
            let sequence = sequence(of: timestamp)
        else { return false }
        return sessionTimestamp(timestamp, sequence: sequence) == timestamp
    }

    /// The week sequence number of a research timestamp's time part.
    public static func sequence(of timestamp: String) -> Int? {
        let time = timestamp.split(separator: "T").last.map { $0.split(separator: "-") } ?? []
        guard time.count == 3, let minutes = Int(time[1]), let seconds = Int(time[2]) else { return nil }
        return minutes * 60 + seconds
    }

    /// The calendar day of a session timestamp `yyyy-MM-ddTHH-mm-ss`, as midnight UTC.
    static func dayOfTimestamp(_ timestamp: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = "yyyy-MM-dd"
        let day = String(timestamp.prefix(10))
        guard let date = formatter.date(from: day), formatter.string(from: date) == day else { return nil }
        return date
    }

    /// The infant's age at a visit as it leaves the device: whole weeks in the first year,
    /// whole months after.
    public static func age(birth: Date, visit: Date) -> ResearchAge? {
        guard birth <= visit else { return nil }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: birth), to: calendar.startOfDay(for: visit)).day ?? 0
        if days < 365 { return .weeks(days / 7) }
        let months = calendar.dateComponents([.month], from: birth, to: visit).month ?? 0
        return .months(months)
    }
}

/// An age as it leaves the device.
public enum ResearchAge: Sendable, Hashable {
    case weeks(Int)
    case months(Int)
}

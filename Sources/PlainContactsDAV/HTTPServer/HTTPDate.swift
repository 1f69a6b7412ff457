import Glibc

/// The `Date` header's format, IMF-fixdate (RFC 9110 §5.6.7), written without the C library's
/// locale so that it is always English.
///
/// ```swift
/// HTTPDate.format(784_111_777)   // "Sun, 06 Nov 1994 08:49:37 GMT"
/// ```
enum HTTPDate {
    /// Day names, Sunday first, as `tm_wday` counts.
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// Month names, January first, as `tm_mon` counts.
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time in IMF-fixdate.
    static func now() -> String {
        format(time(nil))
    }

    /// A time, in seconds since 1970 (UTC), in IMF-fixdate.
    static func format(_ seconds: time_t) -> String {
        var moment = seconds
        var parts = tm()
        guard gmtime_r(&moment, &parts) != nil,
            dayNames.indices.contains(Int(parts.tm_wday)), monthNames.indices.contains(Int(parts.tm_mon))
        else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        let day = dayNames[Int(parts.tm_wday)]
        let month = monthNames[Int(parts.tm_mon)]
        let year = Int(parts.tm_year) + 1900
        return "\(day), \(twoDigits(parts.tm_mday)) \(month) \(year) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }

    /// A number below 100 with a leading zero.
    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The benchmark process's own peak memory so far.
struct ProcessMemory: Encodable {
    /// `getrusage(RUSAGE_SELF).ru_maxrss`, in kilobytes.
    var maxResidentKilobytes: Int
    /// `VmHWM` of `/proc/self/status` (the resident high-water mark), in kilobytes, where the
    /// file exists.
    var highWaterMarkKilobytes: Int?
    /// `VmRSS` of `/proc/self/status` (resident now), in kilobytes, where the file exists.
    var residentKilobytes: Int?

    /// Reads the current values.
    static func current() -> ProcessMemory {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return ProcessMemory(
            maxResidentKilobytes: Int(usage.ru_maxrss),
            highWaterMarkKilobytes: field("VmHWM", in: status),
            residentKilobytes: field("VmRSS", in: status))
    }

    /// The resident high-water mark (`VmHWM`) of another process, in kilobytes; `nil` when it
    /// cannot be read.
    static func highWaterMark(ofProcess pid: Int32) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return field("VmHWM", in: status)
    }

    /// The largest resident high-water mark of a process and its children, in kilobytes: a
    /// supervised `contacts serve` answers in a child (its worker), which holds the cards.
    static func highWaterMark(ofProcessAndChildren pid: Int32) -> Int? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var children: [Int32] = []
        for task in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            children += text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return ([pid] + children).compactMap(highWaterMark(ofProcess:)).max()
    }

    /// The number of kilobytes on a `Name:   1234 kB` line.
    private static func field(_ name: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }
}

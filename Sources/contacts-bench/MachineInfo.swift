import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The machine and its load, printed with the figures: they mean little without them.
struct MachineInfo: Encodable {
    /// Processors available to this process.
    var cores: Int
    /// Physical memory in megabytes.
    var memoryMegabytes: Int
    /// `uname -srm`.
    var system: String
    /// Whether this is an optimized build; debug figures are not representative.
    var releaseBuild: Bool
    /// The 1-, 5- and 15-minute load averages when the run started.
    var loadAtStart: [Double]
    /// The same when the run ended.
    var loadAtEnd: [Double]

    /// Describes this machine, with the load right now as both start and end load.
    static func current() -> MachineInfo {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        #if DEBUG
        let release = false
        #else
        let release = true
        #endif
        let load = loadAverage()
        return MachineInfo(
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryMegabytes: Int(ProcessInfo.processInfo.physicalMemory / 1_048_576),
            system: "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))",
            releaseBuild: release, loadAtStart: load, loadAtEnd: load)
    }

    /// The 1-, 5- and 15-minute load averages (`getloadavg`), or none when unavailable.
    static func loadAverage() -> [Double] {
        var values = [Double](repeating: 0, count: 3)
        let count = values.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return Int32(-1) }
            return getloadavg(start, 3)
        }
        return count == 3 ? values.map { ($0 * 100).rounded() / 100 } : []
    }

    /// One line for the report: `2 cores, 23.5 GB, Linux 6.1 aarch64; load 4.1 3.7 3.0 → 3.9 3.8 3.1`.
    var summary: String {
        func load(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: " ") }
        let gigabytes = String(format: "%.1f", Double(memoryMegabytes) / 1024)
        var line = "\(cores) cores, \(gigabytes) GB, \(system); load average \(load(loadAtStart)) at start, \(load(loadAtEnd)) at end"
        if !releaseBuild { line += "; DEBUG BUILD, figures not representative (use -c release)" }
        return line
    }
}

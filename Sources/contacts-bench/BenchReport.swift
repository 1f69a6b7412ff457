import Foundation
import PlainContacts

/// The results of a whole run, one ``SizeResult`` per size, and the machine they ran on.
struct BenchReport: Encodable {
    var machine: MachineInfo
    var sizes: [SizeResult]

    /// The report as pretty-printed JSON with sorted keys.
    ///
    /// - Throws: ``ContactsError/Code/io`` when encoding fails.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            throw ContactsError(.io, "cannot encode the report", underlying: error)
        }
    }

    /// The report as Markdown: one table per size, or one table with a column per size.
    func markdown() -> String {
        var lines: [String] = []
        if sizes.count == 1, let size = sizes.first {
            lines.append("## PlainContacts benchmark, \(Format.count(size.people)) people")
            lines.append("")
            lines += preamble()
            lines += describe(size)
            lines.append("")
            lines += singleTable(size)
        } else {
            lines.append("## PlainContacts benchmark, " + sizes.map { Format.count($0.people) }.joined(separator: " / ") + " people")
            lines.append("")
            lines += preamble()
            for size in sizes { lines += describe(size) }
            lines.append("")
            lines += sizeTable()
        }
        let notes = sizes.flatMap { size in size.notes.map { "- \(Format.count(size.people)): \($0)" } }
        if !notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            lines += notes
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func preamble() -> [String] {
        let runs = sizes.first?.runs ?? 0
        return [
            "Machine: \(machine.summary).",
            "Each figure is the median of \(runs) runs (min and max beside it), timed after one untimed warm-up run "
                + "(imports excepted: the first one builds the store). Everything runs with a warm page cache: the "
                + "store was just written or read, and a cold open cannot be had in-process. "
                + "\"Floor ratio\" divides a time by the raw-read floor: listing `people/` and reading every record "
                + "file's bytes with no parsing.",
        ]
    }

    private func describe(_ size: SizeResult) -> [String] {
        var text = "Store of \(Format.count(size.people)) people (\(size.origin); "
            + "\(Format.count(size.recordFiles)) record files, \(Format.kilobytes(Double(size.recordBytes) / 1024))); "
            + "cards by \(size.generator.rawValue), imported with \(size.importer)."
        let searches = size.figures.filter { $0.id.hasPrefix("search.book.") }
            .compactMap { figure in figure.detail.map { "\(figure.id.dropFirst("search.book.".count)) \($0)" } }
        if !searches.isEmpty { text += " Searches: " + searches.joined(separator: ", ") + "." }
        if let memory = size.processMemoryAfterList {
            text += " This process after list: ru_maxrss \(Format.kilobytes(Double(memory.maxResidentKilobytes)))"
            if let mark = memory.highWaterMarkKilobytes { text += ", VmHWM \(Format.kilobytes(Double(mark)))" }
            text += " (includes generating and importing)."
        }
        return [text]
    }

    private func singleTable(_ size: SizeResult) -> [String] {
        var lines = ["| operation | median | min | max | floor ratio |", "|---|---:|---:|---:|---:|"]
        for figure in size.figures {
            let label = figure.detail.map { "\(figure.label) (\($0))" } ?? figure.label
            let cells = [
                label, Format.value(figure.sample.median, figure.unit), Format.value(figure.sample.min, figure.unit),
                Format.value(figure.sample.max, figure.unit), figure.floorRatio.map(Format.ratio) ?? "—",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    private func sizeTable() -> [String] {
        var ids: [String] = []
        var labels: [String: String] = [:]
        for size in sizes {
            for figure in size.figures where labels[figure.id] == nil {
                ids.append(figure.id)
                labels[figure.id] = figure.id == "import" ? "import N cards into an empty store" : figure.label
            }
        }
        let header = "| operation | " + sizes.map { Format.count($0.people) }.joined(separator: " | ") + " | growth |"
        let rule = "|---|" + String(repeating: "---:|", count: sizes.count) + "---|"
        var lines = [header, rule]
        for id in ids {
            var cells = [labels[id] ?? id]
            var medians: [Double?] = []
            for size in sizes {
                guard let figure = size.figure(id) else {
                    cells.append("—")
                    medians.append(nil)
                    continue
                }
                var cell = Format.value(figure.sample.median, figure.unit)
                if let ratio = figure.floorRatio, id != "floor" { cell += " (\(Format.ratio(ratio)))" }
                cells.append(cell)
                medians.append(figure.sample.median)
            }
            cells.append(growth(medians))
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append(
            "Cells: median (floor ratio). Growth: each figure's ratio from one size to the next; the number of people "
                + "grows " + growth(sizes.map { Double($0.people) }) + ", so a figure growing by as much is linear, "
                + "one growing by less is sub-linear, one growing by more is worse than linear.")
        return lines
    }

    private func growth(_ values: [Double?]) -> String {
        guard values.count > 1 else { return "—" }
        var steps: [String] = []
        for (previous, next) in zip(values, values.dropFirst()) {
            guard let previous, let next, previous > 0 else {
                steps.append("?")
                continue
            }
            steps.append(String(format: "×%.1f", next / previous))
        }
        return steps.joined(separator: ", ")
    }
}

import Foundation
import PlainContacts

/// The figures of an import fidelity run (`contacts-bench --import-fidelity DIR`): fields and
/// labels kept, per file, per format and in total, what was left out of the counts and why, and
/// each loss.
struct ImportFidelitySummary: Encodable {
    /// Fields and labels counted and kept.
    struct Tally: Encodable, Equatable {
        /// The files counted.
        var files = 0
        /// Their records that hold any field.
        var records = 0
        /// The fields, and those kept.
        var fields = 0
        var fieldsKept = 0
        /// The labels, and those kept.
        var labels = 0
        var labelsKept = 0

        /// Adds one file's count.
        mutating func add(_ count: ImportFidelityCount) {
            files += 1
            records += count.records
            fields += count.fields
            fieldsKept += count.fieldsKept
            labels += count.labels
            labelsKept += count.labelsKept
        }

        /// Adds another tally.
        mutating func add(_ other: Tally) {
            files += other.files
            records += other.records
            fields += other.fields
            fieldsKept += other.fieldsKept
            labels += other.labels
            labelsKept += other.labelsKept
        }

        /// The share of fields kept, in percent; 100 when there are none.
        var fieldsPercent: Double { Self.percent(fieldsKept, of: fields) }
        /// The share of labels kept, in percent; 100 when there are none.
        var labelsPercent: Double { Self.percent(labelsKept, of: labels) }

        private static func percent(_ part: Int, of total: Int) -> Double {
            total == 0 ? 100 : Double(part) * 100 / Double(total)
        }
    }

    /// One file's figures.
    struct FileResult: Encodable {
        /// The path under the folder.
        var file: String
        /// The format the measure read it as.
        var format: String
        /// What the import report said it read (`csv (Thunderbird's columns without a header
        /// row)`), or why the import refused the file.
        var importedAs: String
        /// Its figures.
        var tally = Tally()
        /// Its losses, each naming the line, the column and the value.
        var losses: [ImportFidelityCount.Loss] = []
    }

    /// The folder measured.
    var folder: String
    /// The figures of each file, in the order of their paths.
    var files: [FileResult] = []
    /// Files under the folder in no format the measure reads (notes, vCards).
    var skipped: [String] = []
    /// The tallies by format name.
    var formats: [String: Tally] = [:]
    /// The figures of every file.
    var total = Tally()
    /// Values left out of the counts, by ``Exclusion`` name.
    var excluded: [String: Int] = [:]

    /// Adds one file's count.
    mutating func add(file: String, format: ImportSourceFormat, importedAs: String, count: ImportFidelityCount, records: [SourceRecord]) {
        var result = FileResult(file: file, format: format.rawValue, importedAs: importedAs)
        result.tally.add(count)
        result.losses = count.losses
        files.append(result)
        formats[format.rawValue, default: Tally()].add(result.tally)
        total.add(result.tally)
        for record in records {
            for (reason, number) in record.excluded { excluded[reason.rawValue, default: 0] += number }
        }
    }

    /// The formats below `fields` or `labels` percent kept, as `csv: 96.1% of fields`.
    func shortfalls(fields: Double, labels: Double) -> [String] {
        formats.keys.sorted().compactMap { name in
            guard let tally = formats[name] else { return nil }
            var missed: [String] = []
            if tally.fieldsPercent < fields { missed.append(String(format: "%.1f%% of fields", tally.fieldsPercent)) }
            if tally.labelsPercent < labels { missed.append(String(format: "%.1f%% of labels", tally.labelsPercent)) }
            return missed.isEmpty ? nil : "\(name): \(missed.joined(separator: ", "))"
        }
    }

    /// The figures as Markdown, with a row per file and every loss when `details` is set.
    func text(details: Bool) -> String {
        var lines = [
            "Import fidelity of \(folder): \(Format.count(total.files)) files, \(Format.count(total.records)) records"
                + (skipped.isEmpty ? "" : " (\(skipped.count) other \(skipped.count == 1 ? "file" : "files") skipped)"),
            "",
            "| format | files | records | fields kept | labels kept |",
            "|---|---:|---:|---:|---:|",
        ]
        let order = ImportSourceFormat.allCases.map(\.rawValue).filter { formats[$0] != nil }
        for name in order {
            if let tally = formats[name] { lines.append(row(name, tally)) }
        }
        lines.append(row("**all**", total))
        if !excluded.isEmpty {
            lines += ["", "Left out of the counts:"]
            for reason in Exclusion.allCases {
                if let number = excluded[reason.rawValue] { lines.append("- \(Format.count(number)) \(reason.explanation)") }
            }
        }
        guard details else { return lines.joined(separator: "\n") }
        lines += ["", "| file | read as | records | fields kept | labels kept |", "|---|---|---:|---:|---:|"]
        for file in files {
            lines.append(
                "| \(file.file) | \(file.importedAs) | \(Format.count(file.tally.records)) | "
                    + "\(Self.share(file.tally.fieldsKept, file.tally.fields)) | \(Self.share(file.tally.labelsKept, file.tally.labels)) |")
        }
        let losses = files.flatMap { file in file.losses.map { (file.file, $0) } }
        if !losses.isEmpty { lines += ["", "Lost:"] }
        for (file, loss) in losses {
            lines.append("- \(loss.what) \(file):\(loss.line) [\(loss.column)] \(loss.expected): \(Self.quoted(loss.value))")
        }
        if !skipped.isEmpty { lines += ["", "Skipped: " + skipped.joined(separator: ", ")] }
        return lines.joined(separator: "\n")
    }

    /// The figures as pretty-printed JSON with sorted keys; the losses only with `details`.
    ///
    /// - Throws: ``ContactsError/Code/io`` when encoding fails.
    func json(details: Bool) throws -> String {
        var copy = self
        if !details { copy.files = files.map { var file = $0; file.losses = []; return file } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(copy), as: UTF8.self)
        } catch {
            throw ContactsError(.io, "cannot encode the import fidelity figures", underlying: error)
        }
    }

    /// A row of the table of formats.
    private func row(_ name: String, _ tally: Tally) -> String {
        "| \(name) | \(Format.count(tally.files)) | \(Format.count(tally.records)) | "
            + "\(Self.share(tally.fieldsKept, tally.fields)) | \(Self.share(tally.labelsKept, tally.labels)) |"
    }

    /// `1,020 / 1,040 (98.0%)`, the share rounded down so that it never shows a bar reached
    /// that is not; `0 / 0` when there is nothing to count.
    static func share(_ part: Int, _ total: Int) -> String {
        guard total > 0 else { return "0 / 0" }
        let percent = (Double(part) * 1000 / Double(total)).rounded(.down) / 10
        return "\(Format.count(part)) / \(Format.count(total)) (\(String(format: "%.1f", percent))%)"
    }

    /// A value on one line, in quotes, line breaks shown as `\n`.
    private static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}

import Foundation
import PlainContacts

/// The figures of a fidelity run (`contacts-bench --fidelity DIR`), and the lost lines.
struct FidelitySummary: Encodable {
    /// How the original lines fared in one export version.
    struct Export: Encodable {
        var exact = 0
        var equivalent = 0
        var lost = 0

        /// Adds one card's comparison.
        mutating func add(_ comparison: FidelityComparison) {
            exact += comparison.exact
            equivalent += comparison.equivalent
            lost += comparison.lost.count
        }

        /// `12,000 exact (80.0%), 2,000 equivalent (13.3%), 1,000 lost (6.7%)`.
        var description: String {
            let total = exact + equivalent + lost
            func share(_ part: Int) -> String {
                total == 0 ? "" : String(format: " (%.1f%%)", Double(part) * 100 / Double(total))
            }
            return "\(Format.count(exact)) exact\(share(exact)), \(Format.count(equivalent)) equivalent"
                + "\(share(equivalent)), \(Format.count(lost)) lost\(share(lost))"
        }
    }

    /// One original line that no exported line matched, or a card that did not come back;
    /// names the file, the card and the property, never the value.
    struct Finding: Encodable {
        /// `lost 3.0`, `lost 4.0`, `refused`, `unstable`.
        var kind: String
        var file: String
        var cardLine: Int
        /// The property's group, name and parameters, with personal parameter values hidden;
        /// for a card refused with its whole file, the error's code and line.
        var property: String?
    }

    var folder: String
    var files = 0
    var filesWithoutCards = 0
    var filesRefused = 0
    var cards = 0
    var refusedCards = 0
    var linesInRefusedCards = 0
    var warnings = 0
    var people = 0
    var exportFailures = 0
    var v3 = Export()
    var v4 = Export()
    var unstable = 0
    var findings: [Finding] = []

    /// The figures as text, with one line per finding when `details` is set.
    func text(details: Bool) -> String {
        var lines = [
            "fidelity of \(folder): \(Format.count(files)) files (\(Format.count(filesWithoutCards)) without a card), "
                + "\(Format.count(cards)) cards",
            "  refused: \(Format.count(refusedCards)) cards (\(Format.count(filesRefused)) files refused whole), "
                + "\(Format.count(linesInRefusedCards)) lines in them",
            "  warnings: \(Format.count(warnings))",
            "  people compared: \(Format.count(people))"
                + (exportFailures > 0 ? ", \(Format.count(exportFailures)) exports failed" : ""),
            "  lines in 3.0 export: \(v3.description)",
            "  lines in 4.0 export: \(v4.description)",
            "  round trip through 3.0: \(Format.count(unstable)) of \(Format.count(people)) people unstable",
        ]
        if details {
            lines += findings.map { finding in
                "\(finding.kind) \(finding.file):\(finding.cardLine)" + (finding.property.map { " \($0)" } ?? "")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The figures as pretty-printed JSON with sorted keys; the findings only with `details`.
    ///
    /// - Throws: ``ContactsError/Code/io`` when encoding fails.
    func json(details: Bool) throws -> String {
        var copy = self
        if !details { copy.findings = [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(copy), as: UTF8.self)
        } catch {
            throw ContactsError(.io, "cannot encode the fidelity figures", underlying: error)
        }
    }
}

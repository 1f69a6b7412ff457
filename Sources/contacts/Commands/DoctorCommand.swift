import Foundation
import PlainContacts
import PlainContactsSystem

/// `contacts doctor [--fix] [--json]`: checks the store and repairs what is safe to repair.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check the store for problems; with --fix, repair those that can be repaired safely."

    /// The options of `doctor`.
    struct Options: OptionGroup {
        let fix = Flag("fix", help: "Repair what can be repaired safely.")
        let json = SharedOptions.json
    }

    static let discussion = """
        Reads the store file by file, so it works when other commands refuse the store. It
        reports files that are not valid JSON or hold Git conflict markers (resolve those by
        hand: keep one side and delete the markers, or `git checkout --ours/--theirs` the file),
        and repairs with --fix: two records with one vCard UID (merged into the one made
        first, as `contacts merge` does), membership lines naming missing people or untidy,
        images no person uses (moved to .contacts/lost+found/), an interrupted save,
        hand-edited files not in canonical form, stale name hashes and leftover temporary
        files. Repairs are one all-or-nothing change under the store's lock; joining records
        is one save after it. Record IDs two clones both handed out are no problem: every
        clone settles them alike when it reads the store.

        In a store whose commits contacts serve pushes (serve --push, or autoPush in
        store.json), it also says which commits are not pushed yet, since when and why the last
        push failed: 3 commits not pushed to origin since 10:42: git push to origin: … This is
        no problem of the store and does not change the exit status.

        With --json, prints {"findings": [{"kind", "path", "line", "recordID", "message",
        "fixable", "fixed"}], "healthy"}, and "unpushed": {"count", "remote", "since",
        "reason"} when commits are not pushed.

        Exit status: 0 when the store is healthy or every problem was repaired; 65 when problems
        remain.
        """

    static func run(_ arguments: ParsedArguments<Options>, in context: CommandContext) throws {
        var doctor = StoreDoctor(storeURL: context.storeURL)
        doctor.lockTimeout = try context.lockTimeout()
        let findings = try arguments[\.fix] ? doctor.fix() : doctor.check()
        let remaining = findings.filter { !$0.fixed }
        let unpushed = unpushedCommits(in: context.storeURL)
        if arguments[\.json] {
            var fields: [String: JSONValue] = ["findings": .array(findings.map(json)), "healthy": .bool(remaining.isEmpty)]
            if let unpushed {
                var details: [String: JSONValue] = ["count": .number(JSONNumber(unpushed.count)), "remote": .string(unpushed.remote)]
                if let since = unpushed.since { details["since"] = .string(since.formatted(.iso8601)) }
                if let reason = unpushed.reason { details["reason"] = .string(reason) }
                fields["unpushed"] = .object(details)
            }
            context.console.printJSON(.object(fields))
        } else {
            context.console.print(lines: findings.map(line))
            if let unpushed {
                let text = ServePushReport.describe(count: unpushed.count, remote: unpushed.remote, since: unpushed.since)
                context.console.print(text + (unpushed.reason.map { ": \($0)" } ?? ""))
            }
            context.console.print(summary(findings, remaining: remaining))
        }
        if !remaining.isEmpty {
            throw CLIError(status: .dataError, message: "")
        }
    }

    /// The commits of a store whose commits are pushed that its remote lacks, with the reason
    /// of the last failed push; `nil` when every commit is pushed or none is to be.
    private static func unpushedCommits(in store: URL) -> (count: Int, remote: String, since: Date?, reason: String?)? {
        let report = ServePushReport(store: store)
        let reason = report.reason
        guard reason != nil || StoreRepository.gitSettings(ofStoreAt: store).autoPush,
            let left = StorePush(store: store).unpushed(), left.count > 0
        else { return nil }
        return (left.count, left.remote, left.since, reason)
    }

    private static func line(_ finding: DoctorFinding) -> String {
        let location = finding.path + (finding.line.map { ":\($0)" } ?? "")
        let state = finding.fixed ? "fixed" : finding.fixable ? "fixable" : "needs you"
        return "\(location): \(finding.kind.rawValue) (\(state)): \(finding.message)"
    }

    private static func summary(_ findings: [DoctorFinding], remaining: [DoctorFinding]) -> String {
        if findings.isEmpty { return "The store is healthy." }
        let fixed = findings.count - remaining.count
        let fixable = remaining.filter(\.fixable).count
        var parts = ["\(findings.count) problem\(findings.count == 1 ? "" : "s")"]
        if fixed > 0 { parts.append("\(fixed) fixed") }
        if fixable > 0 { parts.append("\(fixable) fixable with `contacts doctor --fix`") }
        let manual = remaining.count - fixable
        if manual > 0 { parts.append("\(manual) to resolve by hand") }
        return parts.joined(separator: ", ") + "."
    }

    private static func json(_ finding: DoctorFinding) -> JSONValue {
        var fields: [String: JSONValue] = [
            "kind": .string(finding.kind.rawValue),
            "path": .string(finding.path),
            "message": .string(finding.message),
            "fixable": .bool(finding.fixable),
            "fixed": .bool(finding.fixed),
        ]
        if let line = finding.line { fields["line"] = .number(JSONNumber(line)) }
        if let id = finding.recordID { fields["recordID"] = .number(JSONNumber(Int(id.rawValue))) }
        return .object(fields)
    }
}

import Foundation

/// Pushing a store's commits to its Git remote, as a clone would: `git push` of the current
/// branch, never forced; when the remote moved, `git fetch` and `git merge` with the store's
/// merge driver (``GitSetup``), then push again.
///
/// The remote is the branch's upstream remote (`branch.NAME.remote`), else `origin`; the
/// remote branch its upstream branch (`branch.NAME.merge`), else the same name.
///
/// ```swift
/// let push = StorePush(store: store)
/// switch push.push() { case .pushed: …; case .rejected: try push.merge(); case .failed(let why): … }
/// ```
struct StorePush: Sendable {
    /// What one push did.
    enum Outcome: Equatable, Sendable {
        /// The remote has every commit (or there was nothing to push).
        case pushed
        /// The remote has commits this clone lacks: merge them, then push again.
        case rejected
        /// The push failed: the host is down, refused the credentials, or took too long.
        case failed(String)
    }

    /// How long a push or a fetch may take before it is given up and tried again later: a host
    /// that accepted the connection and stopped answering must not hold the pushes forever.
    static let timeout = Duration.seconds(60)

    /// The store, in its Git work tree.
    let store: URL
    /// Variables Git runs with, besides this process's.
    var environment: [String: String] = [:]
    /// How long a push or fetch may take.
    var timeout = StorePush.timeout

    /// Where the current branch goes: the remote's name and the branch there.
    func destination() throws(CLIError) -> (remote: String, branch: String) {
        let head = try GitRunner.run(["symbolic-ref", "--quiet", "--short", "HEAD"], in: store, environment: environment)
        guard head.status == 0 else { throw CLIError.failure("the store's repository is not on a branch") }
        let branch = head.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let remote = try config("branch.\(branch).remote") ?? "origin"
        let merge = try config("branch.\(branch).merge") ?? "refs/heads/\(branch)"
        return (remote, merge.hasPrefix("refs/heads/") ? String(merge.dropFirst("refs/heads/".count)) : merge)
    }

    /// Pushes `HEAD` to the remote branch, without force.
    func push() -> Outcome {
        do {
            let (remote, branch) = try destination()
            let result = try GitRunner.run(
                ["push", "--porcelain", remote, "HEAD:refs/heads/\(branch)"], in: store, environment: environment, timeout: timeout)
            if result.timedOut { return .failed("git push to \(remote) took longer than \(timeout.components.seconds) s") }
            guard result.status != 0 else { return .pushed }
            let said = result.text + result.errors
            if said.contains("[rejected]") || said.contains("non-fast-forward") || said.contains("fetch first") {
                return .rejected
            }
            return .failed("git push to \(remote): \(result.firstError)")
        } catch {
            return .failed(error.message)
        }
    }

    /// Fetches the remote branch and merges it into the current branch with the store's merge
    /// driver, as `git pull` in a clone does; a merge Git cannot finish is aborted.
    ///
    /// - Throws: a ``CLIError`` naming what failed: the fetch, or the merge (left as it was).
    func merge() throws(CLIError) {
        let (remote, branch) = try destination()
        let fetched = try GitRunner.run(["fetch", remote, branch], in: store, environment: environment, timeout: timeout)
        if fetched.timedOut { throw CLIError.failure("git fetch from \(remote) took longer than \(timeout.components.seconds) s") }
        guard fetched.status == 0 else { throw CLIError.failure("git fetch from \(remote): \(fetched.firstError)") }
        let merged = try GitRunner.run(
            ["merge", "--no-edit", "--no-ff", "-m", "contacts: merge \(remote)/\(branch)", "FETCH_HEAD"], in: store, environment: environment)
        guard merged.status == 0 else {
            _ = try? GitRunner.run(["merge", "--abort"], in: store, environment: environment)
            throw CLIError.failure("git merge of \(remote)/\(branch): \(merged.firstError)")
        }
    }

    /// The commits of `HEAD` the remote branch does not have (as this clone last saw it), and
    /// when the oldest of them was made; `nil` when Git cannot tell (no repository, no branch).
    func unpushed() -> (remote: String, count: Int, since: Date?)? {
        guard let (remote, branch) = try? destination() else { return nil }
        let tracking = "refs/remotes/\(remote)/\(branch)"
        let known = (try? GitRunner.run(["rev-parse", "--verify", "--quiet", tracking], in: store, environment: environment))?.status == 0
        let range = known ? ["\(tracking)..HEAD"] : ["HEAD"]
        guard let log = try? GitRunner.run(["log", "--format=%ct"] + range, in: store, environment: environment), log.status == 0 else {
            return nil
        }
        let times = log.text.split(separator: "\n").compactMap { TimeInterval($0) }
        return (remote, times.count, times.last.map { Date(timeIntervalSince1970: $0) })
    }

    /// A value of the repository's configuration, or `nil` when it is not set.
    private func config(_ key: String) throws(CLIError) -> String? {
        let result = try GitRunner.run(["config", "--get", key], in: store, environment: environment)
        let value = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && !value.isEmpty ? value : nil
    }
}

import FoundationEssentials

/// The store's watcher, which spares reading programs a look at every person file.
extension AddressBook {
    /// Runs the watcher of the store at `url` in the calling thread until `stop` (a file
    /// descriptor, such as the read end of a pipe) becomes readable, or the store's folder goes
    /// away: what `contacts watch` runs.
    ///
    /// While it runs, every book opened on the store asks it which files changed since the
    /// index last vouched for them all, and checks only those, instead of one `stat` per
    /// person: at 10,000 people that is most of the time of a mail client's address query. It
    /// is optional: without it (or when it cannot tell, after a restart or an overflow of the
    /// kernel's queue) books check every file as always. No book ever starts one. It answers on
    /// a socket in the store's `.contacts/` folder, only to the same user, and refuses a store on
    /// a network file system (NFS, SMB and the like), where inotify does not see other
    /// machines' writes.
    ///
    /// ```swift
    /// var ends: [Int32] = [0, 0]
    /// pipe(&ends)
    /// Thread { try? AddressBook.runWatcher(storeAt: url, stopWhenReadable: ends[0]) { print($0) } }.start()
    /// // … later: write(ends[1], "x", 1) stops it.
    /// ```
    ///
    /// - Parameter log: called with one line for each thing worth telling an administrator,
    ///   never with personal data: first where it answers, once books can ask it; then an
    ///   overflow, why it stopped.
    /// - Throws: ``ContactsError/Code/notAStore`` when `url` holds no store;
    ///   ``ContactsError/Code/busy`` when another watcher of the store runs;
    ///   ``ContactsError/Code/io`` when the store lies on a network file system or the system
    ///   gives no inotify instance or socket; ``ContactsError/Code/permissionDenied`` when
    ///   `.contacts/` cannot be written.
    public static func runWatcher(storeAt url: URL, stopWhenReadable stop: Int32, log: @escaping (String) -> Void) throws {
        try requireStore(at: url)
        try IndexWatcher.run(store: StoreLayout(root: url), stopWhenReadable: stop, log: log)
    }
}

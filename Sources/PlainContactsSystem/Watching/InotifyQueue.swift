import Glibc

/// A Linux inotify instance: folders watched by path, and the events the kernel queued for
/// them, read without blocking.
///
/// It knows nothing of what the folders hold; a caller maps each event's watch back to its
/// folder. The corresponding C functions are `inotify_init1`, `inotify_add_watch` and `read`.
///
/// ```swift
/// guard var queue = InotifyQueue() else { /* no inotify: look at every file instead */ }
/// let watch = queue.add("/books/home/people", mask: UInt32(IN_CLOSE_WRITE | IN_DELETE))
/// if queue.waitUntilReadable(milliseconds: 100), let events = queue.readEvents() { … }
/// ```
package struct InotifyQueue: Sendable {
    /// One queued event.
    package struct Event: Sendable {
        /// The watch it happened on (-1 for `IN_Q_OVERFLOW`).
        package var watch: Int32
        package var mask: UInt32
        /// The name of the file inside the watched folder; empty for the folder itself.
        package var name: String

        /// Whether the event carries `flag`.
        package func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }

        package init(watch: Int32, mask: UInt32, name: String) {
            self.watch = watch
            self.mask = mask
            self.name = name
        }
    }

    /// The descriptor to poll for reading.
    package let descriptor: Int32

    /// Opens a non-blocking instance, or returns `nil` when the system has none to give.
    package init?() {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Watches `path` for the events of `mask`; the watch's number, or `nil` when the path
    /// cannot be watched (missing, not a folder with `IN_ONLYDIR`, out of watches). Watching a
    /// path already watched gives the same number.
    package func add(_ path: String, mask: UInt32) -> Int32? {
        let watch = inotify_add_watch(descriptor, path, mask)
        return watch >= 0 ? watch : nil
    }

    /// Stops a watch (its `IN_IGNORED` event is still queued).
    package func remove(_ watch: Int32) {
        inotify_rm_watch(descriptor, watch)
    }

    /// Waits until an event is queued, at most `milliseconds` (negative: without limit);
    /// whether one is. The corresponding C function is `poll`.
    package func waitUntilReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Reads every queued event without blocking; `nil` when reading fails for a reason other
    /// than an empty queue, which leaves the instance unusable.
    package func readEvents() -> [Event]? {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return read(descriptor, base, bytes.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return events }
                return nil
            }
            if count == 0 { return events }
            buffer.withUnsafeBytes { bytes in
                InotifyQueue.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]), into: &events)
            }
        }
    }

    /// The events of one `read`: each a 16-byte header (watch, mask, cookie, name length) and
    /// a name padded with zeros.
    private static func parse(_ bytes: UnsafeRawBufferPointer, into events: inout [Event]) {
        let headerSize = 16
        var offset = 0
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            let nameEnd = min(nameStart + nameLength, bytes.count)
            var nameBytes = bytes[nameStart..<nameEnd]
            if let terminator = nameBytes.firstIndex(of: 0) { nameBytes = nameBytes[..<terminator] }
            events.append(Event(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameStart + nameLength
        }
    }

    /// Closes the instance; call once, after no thread polls it any more.
    package func close() {
        _ = Glibc.close(descriptor)
    }
}

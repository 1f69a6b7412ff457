import Glibc
import Synchronization
import PlainContacts

/// The requests being handled, in memory another process can read after this one died: the
/// method and path of each, in a shared file of fixed slots, so that a supervisor can name the
/// requests a crash interrupted.
///
/// The memory is an anonymous file (`memfd_create`) mapped `MAP_SHARED`: the supervisor makes
/// it, the server process inherits its descriptor and adopts it, and both see the same bytes.
/// Marking a request is a copy into a free slot, under a lock no other process takes; no
/// system call. Only the method and the path are kept, truncated: never a header (so never a
/// password), a query nor a body.
///
/// ```swift
/// let journal = try HTTPRequestJournal(slotCount: 64)          // in the supervisor
/// let slot = journal.begin(method: "PROPFIND", path: "/kim/contacts/")
/// journal.inFlight()       // [Entry(method: "PROPFIND", path: "/kim/contacts/")]
/// journal.end(slot)
/// ```
package final class HTTPRequestJournal: @unchecked Sendable {  // Each slot is written by the one thread that claimed it.

    /// A request being handled, as the journal keeps it.
    package struct Entry: Sendable, Hashable {
        /// The method, truncated to ``HTTPRequestJournal/methodCapacity`` bytes.
        package var method: String
        /// The path without its query, truncated to ``HTTPRequestJournal/pathCapacity`` bytes.
        package var path: String
    }

    /// The bytes kept of a method: 24 holds every WebDAV method (`VERSION-CONTROL` is the
    /// longest registered, 15).
    package static let methodCapacity = 24
    /// The bytes kept of a path: 400 names any book and card a client uses, while a slot of
    /// every connection still fits in a few pages.
    package static let pathCapacity = 400
    /// A slot's header: a state word, then the lengths of the method and of the path.
    static let headerSize = 8
    /// The bytes of one slot.
    static let slotSize = headerSize + methodCapacity + pathCapacity
    /// The state word of a slot holding a request being handled.
    static let inFlightMark: UInt32 = 0x5245_5131
    /// `MFD_CLOEXEC`, which Glibc's module leaves out with `memfd_create`.
    private static let memfdCloseOnExec: UInt32 = 1

    /// The descriptor of the shared file; close-on-exec in the process that adopted it.
    package let descriptor: Int32
    /// The number of slots: the requests that can be marked at once.
    package let slotCount: Int
    /// The mapped slots.
    private let memory: UnsafeMutableRawPointer
    /// The slots not holding a request, in this process.
    private let freeSlots: Mutex<[Int]>

    /// A journal of `slotCount` empty slots in a new anonymous shared file, whose descriptor
    /// is close-on-exec.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the file cannot be made or mapped.
    package convenience init(slotCount: Int = HTTPServerLimits.defaultMaxConnections) throws(ContactsError) {
        guard let create = Self.memfdCreate else {
            throw ContactsError(.io, "cannot make the request journal: the C library has no memfd_create")
        }
        let descriptor = create("contacts-serve-requests", Self.memfdCloseOnExec)
        guard descriptor >= 0 else { throw Self.failure("memfd_create") }
        guard ftruncate(descriptor, off_t(max(1, slotCount) * Self.slotSize)) == 0 else {
            let error = Self.failure("ftruncate")
            _ = close(descriptor)
            throw error
        }
        try self.init(adopting: descriptor)
    }

    /// The journal whose shared file is open as `descriptor` (inherited from the process that
    /// made it), its slots as many as the file holds. Marks the descriptor close-on-exec.
    ///
    /// - Throws: ``ContactsError/Code/io`` when the descriptor is not such a file.
    package init(adopting descriptor: Int32) throws(ContactsError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("fstat") }
        let count = Int(status.st_size) / Self.slotSize
        guard count > 0 else { throw ContactsError(.io, "the request journal's file holds no slot") }
        let mapped = mmap(nil, count * Self.slotSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { throw Self.failure("mmap") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        slotCount = count
        memory = mapped
        freeSlots = Mutex(Array((0..<count).reversed()))
    }

    deinit {
        munmap(memory, slotCount * Self.slotSize)
        _ = close(descriptor)
    }

    /// Marks a request as being handled; returns its slot for ``end(_:)``, or `nil` when every
    /// slot is taken (the request goes unmarked).
    package func begin(method: String, path: String) -> Int? {
        guard let slot = freeSlots.withLock({ $0.popLast() }) else { return nil }
        let base = memory + slot * Self.slotSize
        let methodLength = Self.copy(method, to: base + Self.headerSize, capacity: Self.methodCapacity)
        let pathLength = Self.copy(path, to: base + Self.headerSize + Self.methodCapacity, capacity: Self.pathCapacity)
        base.storeBytes(of: UInt16(methodLength), toByteOffset: 4, as: UInt16.self)
        base.storeBytes(of: UInt16(pathLength), toByteOffset: 6, as: UInt16.self)
        base.storeBytes(of: Self.inFlightMark, as: UInt32.self)
        return slot
    }

    /// Marks the request of `slot` as answered; does nothing for `nil`.
    package func end(_ slot: Int?) {
        guard let slot, slot >= 0, slot < slotCount else { return }
        (memory + slot * Self.slotSize).storeBytes(of: 0, as: UInt32.self)
        freeSlots.withLock { $0.append(slot) }
    }

    /// The requests marked and not yet answered, by slot.
    package func inFlight() -> [Entry] {
        (0..<slotCount).compactMap { slot in
            let base = UnsafeRawPointer(memory + slot * Self.slotSize)
            guard base.loadUnaligned(as: UInt32.self) == Self.inFlightMark else { return nil }
            let methodLength = min(Int(base.loadUnaligned(fromByteOffset: 4, as: UInt16.self)), Self.methodCapacity)
            let pathLength = min(Int(base.loadUnaligned(fromByteOffset: 6, as: UInt16.self)), Self.pathCapacity)
            let method = UnsafeRawBufferPointer(start: base + Self.headerSize, count: methodLength)
            let path = UnsafeRawBufferPointer(start: base + Self.headerSize + Self.methodCapacity, count: pathLength)
            return Entry(method: String(decoding: method, as: UTF8.self), path: String(decoding: path, as: UTF8.self))
        }
    }

    /// Empties every slot: for the supervisor, once it has read what a process that died left.
    package func reset() {
        memset(memory, 0, slotCount * Self.slotSize)
    }

    /// Copies the first bytes of `text` that fit in `capacity` to `destination`, cut at a
    /// character boundary of UTF-8; returns how many.
    private static func copy(_ text: String, to destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = min(bytes.count, capacity)
            // Not in the middle of a character: back off continuation bytes (10xxxxxx).
            while count < bytes.count, count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
            if let source = bytes.baseAddress { destination.copyMemory(from: source, byteCount: count) }
            return count
        }
    }

    /// The C type of `memfd_create`.
    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>?, UInt32) -> Int32

    /// The C library's `memfd_create`, looked up at run time because Glibc's module leaves out
    /// GNU extensions; `nil` if the library has none.
    private static let memfdCreate: MemfdCreate? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: MemfdCreate.self)
    }()

    /// The error for a failed call, with the `errno` it set.
    private static func failure(_ call: String) -> ContactsError {
        ContactsError(.io, "cannot make the request journal", underlying: SystemCallError(call: call, errno: errno))
    }
}

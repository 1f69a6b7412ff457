import Glibc

/// libcurl's easy interface, loaded at run time from the system's `libcurl.so.4` (the library
/// FoundationNetworking links on Linux), when a sync sends its first request.
///
/// Loading it then, rather than linking FoundationNetworking, keeps the network libraries out
/// of every store command: `contacts list` starts as fast as a program that links Foundation
/// alone. `curl_easy_perform` waits for the server in `poll`, in the kernel; URLSession on Linux
/// drives the same library from a dispatch loop that keeps about 0.85 of a core busy for as long
/// as a server takes to answer (see ``CurlTransport``).
///
/// `curl_easy_setopt` and `curl_easy_getinfo` are variadic in C. They are called here through
/// one fixed signature per argument kind (a `long`, a pointer, an `off_t`), each passed where the
/// platform's calling convention passes a variadic argument of that kind on Linux.
///
/// ```swift
/// guard let curl = CurlLibrary.shared else { return MissingCurlTransport() }
/// let handle = curl.easyInit()
/// ```
struct CurlLibrary: @unchecked Sendable {
    // @unchecked: only C function pointers, set once at load and never changed.
    typealias Handle = OpaquePointer
    typealias Code = Int32
    /// `curl_write_callback`: the bytes, their size and count, and the user's pointer.
    typealias WriteCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int

    let easyInit: @convention(c) () -> Handle?
    let easyCleanup: @convention(c) (Handle?) -> Void
    let easyReset: @convention(c) (Handle?) -> Void
    let easyPerform: @convention(c) (Handle?) -> Code
    let setLong: @convention(c) (Handle?, Int32, Int) -> Code
    let setPointer: @convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Code
    let setOffset: @convention(c) (Handle?, Int32, Int64) -> Code
    let getLong: @convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Code
    let strerror: @convention(c) (Code) -> UnsafePointer<CChar>?
    let listAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    let listFree: @convention(c) (OpaquePointer?) -> Void

    /// The library, or `nil` where it cannot be loaded (then a sync fails, naming it).
    static let shared: CurlLibrary? = CurlLibrary()

    private init?() {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        typealias GlobalInit = @convention(c) (Int) -> Code
        guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
            let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> Handle?).self),
            let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (Handle?) -> Void).self),
            let easyReset = symbol("curl_easy_reset", as: (@convention(c) (Handle?) -> Void).self),
            let easyPerform = symbol("curl_easy_perform", as: (@convention(c) (Handle?) -> Code).self),
            let setLong = symbol("curl_easy_setopt", as: (@convention(c) (Handle?, Int32, Int) -> Code).self),
            let setPointer = symbol("curl_easy_setopt", as: (@convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Code).self),
            let setOffset = symbol("curl_easy_setopt", as: (@convention(c) (Handle?, Int32, Int64) -> Code).self),
            let getLong = symbol("curl_easy_getinfo", as: (@convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Code).self),
            let strerror = symbol("curl_easy_strerror", as: (@convention(c) (Code) -> UnsafePointer<CChar>?).self),
            let listAppend = symbol(
                "curl_slist_append", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?).self),
            let listFree = symbol("curl_slist_free_all", as: (@convention(c) (OpaquePointer?) -> Void).self)
        else {
            dlclose(library)
            return nil
        }
        // Thread-safe since libcurl 7.84, and run once here in any case (`shared` is a lazy
        // global, initialized once).
        guard globalInit(Self.globalAll) == Self.ok else { return nil }
        self.easyInit = easyInit
        self.easyCleanup = easyCleanup
        self.easyReset = easyReset
        self.easyPerform = easyPerform
        self.setLong = setLong
        self.setPointer = setPointer
        self.setOffset = setOffset
        self.getLong = getLong
        self.strerror = strerror
        self.listAppend = listAppend
        self.listFree = listFree
    }

    /// What a result code means, in libcurl's words.
    func describe(_ code: Code) -> String {
        strerror(code).map { String(cString: $0) } ?? "libcurl error \(code)"
    }

    // The constants of curl.h this transport uses (stable parts of libcurl's ABI).
    static let ok: Code = 0
    static let operationTimedOut: Code = 28
    static let globalAll = 3

    /// Option numbers: a type base (long 0, pointer 10000, function 20000, off_t 30000) plus an index.
    enum Option {
        static let writeData: Int32 = 10_001
        static let url: Int32 = 10_002
        static let errorBuffer: Int32 = 10_010
        static let lowSpeedLimit: Int32 = 19
        static let lowSpeedTime: Int32 = 20
        static let postFields: Int32 = 10_015
        static let httpHeader: Int32 = 10_023
        static let headerData: Int32 = 10_029
        static let customRequest: Int32 = 10_036
        static let timeout: Int32 = 13
        static let noBody: Int32 = 44
        static let post: Int32 = 47
        static let followLocation: Int32 = 52
        static let connectTimeout: Int32 = 78
        static let httpGet: Int32 = 80
        static let noSignal: Int32 = 99
        static let acceptEncoding: Int32 = 10_102
        static let writeFunction: Int32 = 20_011
        static let headerFunction: Int32 = 20_079
        static let postFieldSizeLarge: Int32 = 30_120
        static let protocolsString: Int32 = 10_318
    }

    /// Information numbers: a type base (long 0x200000) plus an index.
    enum Info {
        static let responseCode: Int32 = 0x20_0002
    }
}

import Glibc

/// Asks the kernel to send this process a signal when its parent ends (`prctl`'s
/// `PR_SET_PDEATHSIG`): a server process started by ``ServeSupervisor`` then stops with its
/// supervisor, even one killed with SIGKILL, instead of serving on alone and holding the
/// store's server lock.
///
/// ```swift
/// ParentDeathSignal.request(SIGTERM)   // in the child, first thing
/// ```
enum ParentDeathSignal {
    /// `PR_SET_PDEATHSIG` of `<linux/prctl.h>`.
    private static let setParentDeathSignal: Int32 = 1

    private typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    /// `prctl`, looked up at run time: the Glibc module does not declare it.
    private static let prctl: Prctl? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else { return nil }
        return unsafeBitCast(symbol, to: Prctl.self)
    }()

    /// Asks for `signal` when the parent ends; returns whether the parent is still there (a
    /// parent gone before the request leaves the process adopted by init, pid 1).
    @discardableResult
    static func request(_ signal: Int32) -> Bool {
        _ = prctl?(setParentDeathSignal, UInt(signal), 0, 0, 0)
        return getppid() != 1
    }
}

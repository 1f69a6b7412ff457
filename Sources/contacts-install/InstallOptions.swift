import Foundation

/// The command line of `contacts-install`.
///
/// ```
/// swift run contacts-install [--prefix DIR] [--destdir DIR] [--binary FILE] [--uninstall]
/// ```
struct InstallOptions: Equatable {
    /// Where the files go on the machine that runs them: `/usr/local` unless told.
    var prefix = "/usr/local"
    /// A staging root the files are written under (`DESTDIR` of packagers); empty for none.
    var destdir = ""
    /// A `contacts` already built to install instead of building one; `nil` builds a release.
    var binary: String?
    /// The package to build: the current folder unless told.
    var packagePath = "."
    /// Remove what an earlier install into the same prefix put there.
    var uninstall = false
    /// Print the usage and stop.
    var help = false

    /// The usage `--help` prints.
    static let usage = """
        Usage: swift run contacts-install [--prefix DIR] [--destdir DIR] [--binary FILE] [--uninstall]

        Builds a release of contacts (swift build -c release --static-swift-stdlib) and installs
        it with its manual pages, its bash, zsh and fish completions and its systemd units:
          PREFIX/bin/contacts
          PREFIX/share/man/man1/contacts*.1, PREFIX/share/man/man5/contacts-store.5
          PREFIX/share/bash-completion/completions/contacts
          PREFIX/share/zsh/site-functions/_contacts
          PREFIX/share/fish/vendor_completions.d/contacts.fish
          PREFIX/share/systemd/user/contacts-serve.service, contacts-sync@.service, contacts-sync@.timer,
            contacts-watch.service
          PREFIX/lib/systemd/system/contacts-serve.service, contacts-sync@.service, contacts-sync@.timer
          PREFIX/share/contacts/install-manifest (what --uninstall removes)

          --prefix DIR    Where the files go (default /usr/local; $HOME/.local for one user).
          --destdir DIR   Write everything under DIR instead of /, for packaging (default $DESTDIR).
          --binary FILE   Install this contacts instead of building a release.
          --package-path DIR  The package to build (default the current folder).
          --uninstall     Remove the files the install put under PREFIX, and the folders it
                          created that are empty again.
        """

    /// Reads the arguments (without the program name); `environment` gives `DESTDIR`.
    ///
    /// - Throws: ``InstallError`` for an unknown option or a missing value.
    init(_ arguments: [String], environment: [String: String]) throws {
        destdir = environment["DESTDIR"] ?? ""
        var words = arguments[...]
        func value(_ option: String) throws -> String {
            guard let next = words.popFirst(), !next.hasPrefix("--") else { throw InstallError("\(option) needs a value") }
            return next
        }
        while let word = words.popFirst() {
            switch word {
            case "--prefix": prefix = try value(word)
            case "--destdir": destdir = try value(word)
            case "--binary": binary = try value(word)
            case "--package-path": packagePath = try value(word)
            case "--uninstall": uninstall = true
            case "--help", "-h": help = true
            default: throw InstallError("unknown argument \(word); see --help")
            }
        }
        guard prefix.hasPrefix("/") else { throw InstallError("--prefix takes an absolute path, not \(prefix)") }
    }
}

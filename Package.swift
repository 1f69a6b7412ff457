// swift-tools-version:6.0
import PackageDescription

let examples = [
    "QuickStart", "RecordsAndProperties", "SortPeople", "GroupMembers",
    "SaveOrRevert", "RequestAccess", "LongTermReference",
]

let package = Package(
    name: "PlainContacts",
    products: [
        .library(name: "PlainContacts", targets: ["PlainContacts"]),
        .executable(name: "contacts", targets: ["contacts"]),
    ],
    targets: [
        // Beneath the store and knowing nothing of contacts: files, locks, durable writes, hashes,
        // parallel loops and the JSON codec, shared by the store and the DAV library. Not a product.
        .target(name: "PlainContactsSystem"),
        // The store: model, format, writer, index, search, vCard and the other interchange formats.
        .target(name: "PlainContacts", dependencies: ["PlainContactsSystem"]),
        // WebDAV, the CardDAV client (`contacts sync`) and server (`contacts serve`) on the store.
        // Not a product: its API is the package's own (`package`), for the command and the
        // benchmark; a program embeds the store, and serves or syncs it by running `contacts`.
        .target(name: "PlainContactsDAV", dependencies: ["PlainContacts", "PlainContactsSystem"]),
        // Seeded fuzzers of damaged store files, vCards and WebDAV bodies, run by the tests and the benchmark.
        .target(name: "PlainContactsFuzz", dependencies: ["PlainContacts", "PlainContactsDAV", "PlainContactsSystem"]),
        .executableTarget(name: "contacts", dependencies: ["PlainContacts", "PlainContactsDAV", "PlainContactsSystem"]),
        // Builds a release of `contacts` and installs it with its manual pages, completions and
        // systemd units under a prefix (`swift run contacts-install --prefix DIR`), or uninstalls it.
        .executableTarget(name: "contacts-install"),
        // Measures the store at 1,000 to 100,000 people; compare-khard.sh times khard beside it.
        .executableTarget(
            name: "contacts-bench", dependencies: ["PlainContacts", "PlainContactsDAV", "PlainContactsFuzz", "DAVTestSupport"], exclude: ["compare-khard.sh"]),
        // Commits files and can be killed at chosen points; the crash tests drive it (and the
        // command-line tests, to measure a command's peak memory).
        .executableTarget(name: "plaincontacts-crash-helper", dependencies: ["PlainContacts", "PlainContactsDAV", "PlainContactsFuzz"]),
        // Starts real CardDAV servers (Radicale, Xandikos) for the integration tests, and holds
        // the helpers more than one test target uses (a temporary store, the fixtures' folder).
        .target(name: "DAVTestSupport", dependencies: ["PlainContacts"], path: "Tests/DAVTestSupport"),
        // The `slow` tag and its switch, shared by the test targets that use them.
        .target(name: "TestTags", path: "Tests/TestTags"),
        // The store's tests; Fixtures holds the vCards and exports, which other test targets read too.
        .testTarget(
            name: "PlainContactsTests",
            dependencies: [
                "PlainContacts", "PlainContactsSystem", "PlainContactsFuzz", "plaincontacts-crash-helper", "DAVTestSupport",
                "TestTags",
            ],
            exclude: ["Fixtures"]),
        // The tests of PlainContactsSystem, its file types failing with errors of the tests' own
        // (the store's tests cover them failing with the store's errors).
        .testTarget(name: "PlainContactsSystemTests", dependencies: ["PlainContactsSystem", "DAVTestSupport", "TestTags"]),
        // The tests of PlainContactsDAV (WebDAV, HTTP, the CardDAV client and server).
        .testTarget(
            name: "PlainContactsDAVTests",
            dependencies: [
                "PlainContacts", "PlainContactsDAV", "PlainContactsSystem", "PlainContactsFuzz", "plaincontacts-crash-helper",
                "DAVTestSupport", "TestTags",
            ]),
        // The tests of the fuzzers, each running a few thousand cases of what it fuzzes.
        .testTarget(
            name: "PlainContactsFuzzTests", dependencies: ["PlainContacts", "PlainContactsDAV", "PlainContactsFuzz", "DAVTestSupport", "TestTags"]),
        // End-to-end tests that run the built `contacts` binary, in folders by command group;
        // Clients holds the tests with desktop CardDAV clients (Evolution-Data-Server,
        // SyncEvolution, Thunderbird) beside the scripts that drive them.
        .testTarget(
            name: "ContactsCLITests", dependencies: ["contacts", "contacts-install", "plaincontacts-crash-helper", "DAVTestSupport", "TestTags"],
            exclude: ["Clients/evolution.py", "Clients/syncevolution.sh", "Clients/thunderbird.py"]),
        // The benchmark's pure parts, such as the fidelity comparison.
        .testTarget(name: "ContactsBenchTests", dependencies: ["contacts-bench"]),
    ]
        + examples.map { name in
            .executableTarget(name: name, dependencies: ["PlainContacts"], path: "Examples/\(name)")
        },
    swiftLanguageModes: [.v6]
)

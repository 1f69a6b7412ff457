/// The systemd units the installer writes, naming the installed `contacts` by its path.
///
/// User units (`systemctl --user`) serve, sync and watch the store of the user who enables
/// them, at `~/.local/share/contacts`; system units run them as the dedicated user `contacts`, with the
/// store at `/var/lib/contacts/book`. Both are hardened: no new privileges, the whole file
/// system read-only except the store, a private `/tmp`, and only the address families a
/// server and Git need. The sync units are templates: `contacts-sync@work.timer` syncs the
/// remote `work` every 15 minutes; its exit statuses 75 (conflicts left) and 69 (server
/// unreachable) count as success, so the timer keeps running and the next sync tries again,
/// while its output (each conflict) stays in the journal.
///
/// ```swift
/// SystemdUnits(contacts: "/usr/local/bin/contacts").files
/// ```
struct SystemdUnits {
    /// The path of the installed `contacts`.
    let contacts: String

    /// Every unit: its path under the prefix and its text.
    var files: [(path: String, text: String)] {
        [
            ("\(Self.userFolder)/contacts-serve.service", serve(system: false)),
            ("\(Self.userFolder)/contacts-sync@.service", sync(system: false)),
            ("\(Self.userFolder)/contacts-sync@.timer", timer),
            ("\(Self.userFolder)/contacts-watch.service", watch),
            ("\(Self.systemFolder)/contacts-serve.service", serve(system: true)),
            ("\(Self.systemFolder)/contacts-sync@.service", sync(system: true)),
            ("\(Self.systemFolder)/contacts-sync@.timer", timer),
        ]
    }

    /// Where user units go under the prefix: systemd's user manager reads
    /// `PREFIX/share/systemd/user` for `/usr`, `/usr/local` and `~/.local` alike.
    static let userFolder = "share/systemd/user"
    /// Where system units go under the prefix: systemd reads `/usr/local/lib/systemd/system`
    /// and `/usr/lib/systemd/system`.
    static let systemFolder = "lib/systemd/system"

    /// The store of the user units, and of the system units.
    static let userStore = "%h/.local/share/contacts"
    static let systemStore = "/var/lib/contacts/book"

    /// The address families the services need: IPv4 and IPv6 to serve and reach servers and
    /// Git hosts, Unix sockets for the journal and name resolution.
    private static let addressFamilies = "AF_UNIX AF_INET AF_INET6"

    /// `contacts serve` on the store, until stopped; SIGTERM lets the requests in progress and
    /// the queued commits finish (at most two minutes of Git trouble, then it stops anyway).
    private func serve(system: Bool) -> String {
        let store = system ? Self.systemStore : Self.userStore
        return """
            [Unit]
            Description=Address book served over CardDAV (contacts serve)
            Documentation=man:contacts-serve(1)
            After=network.target

            [Service]
            Type=exec
            \(account(system: system, store: store))ExecStart=\(contacts) serve --listen 127.0.0.1:5232
            KillSignal=SIGTERM
            TimeoutStopSec=150
            Restart=on-failure
            RestartSec=5
            # A wrong command line, no store, or a refused permission: restarting does not help.
            RestartPreventExitStatus=64 66 77
            \(hardening(system: system, store: store))
            [Install]
            WantedBy=\(system ? "multi-user.target" : "default.target")

            """
    }

    /// One `contacts sync NAME` for the instance name.
    private func sync(system: Bool) -> String {
        let store = system ? Self.systemStore : Self.userStore
        return """
            [Unit]
            Description=Address book synced with the CardDAV account %I (contacts sync)
            Documentation=man:contacts-sync(1)
            Wants=network-online.target
            After=network-online.target

            [Service]
            Type=oneshot
            \(account(system: system, store: store))ExecStart=\(contacts) sync %I
            # 75: conflicts left (reported in the journal), 69: the server was unreachable. The
            # next run tries again; neither marks the unit failed.
            SuccessExitStatus=75 69
            \(hardening(system: system, store: store))
            """
    }

    /// `contacts watch` on the user's store for their session, so that their reading commands
    /// look only at the files that changed; what it prints is dropped, its log kept.
    private var watch: String {
        """
        [Unit]
        Description=Answer the address book's reading commands which files changed (contacts watch)
        Documentation=man:contacts-watch(1)

        [Service]
        Type=exec
        \(account(system: false, store: Self.userStore))ExecStart=\(contacts) watch
        StandardOutput=null
        Restart=on-failure
        RestartSec=5
        RestartPreventExitStatus=64 66 77
        # Where the socket goes when the store's path is too long for one; the rest of /run is
        # read-only here.
        RuntimeDirectory=plaincontacts
        RuntimeDirectoryMode=0700
        RuntimeDirectoryPreserve=yes
        \(hardening(system: false, store: Self.userStore))
        [Install]
        WantedBy=default.target

        """
    }

    /// Runs `contacts-sync@NAME.service` every 15 minutes, and at start-up for a run missed.
    private var timer: String {
        """
        [Unit]
        Description=Address book synced with the CardDAV account %I every 15 minutes
        Documentation=man:contacts-sync(1)

        [Timer]
        OnCalendar=*:0/15
        RandomizedDelaySec=60
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// The user, group and store of a service.
    private func account(system: Bool, store: String) -> String {
        guard system else { return "Environment=CONTACTS_DIR=\(store)\n" }
        return """
            User=contacts
            Group=contacts
            StateDirectory=contacts
            Environment=HOME=/var/lib/contacts
            Environment=CONTACTS_DIR=\(store)
            WorkingDirectory=/var/lib/contacts

            """
    }

    /// The sandbox of a service: nothing writable but the store.
    private func hardening(system: Bool, store: String) -> String {
        var lines = [
            "NoNewPrivileges=yes",
            "ProtectSystem=strict",
            "ReadWritePaths=\(store)",
            "PrivateTmp=yes",
            "RestrictAddressFamilies=\(Self.addressFamilies)",
            "RestrictNamespaces=yes",
            "LockPersonality=yes",
            "RestrictRealtime=yes",
            "RestrictSUIDSGID=yes",
        ]
        if system {
            lines += [
                "ProtectHome=yes",
                "PrivateDevices=yes",
                "ProtectKernelTunables=yes",
                "ProtectKernelModules=yes",
                "ProtectControlGroups=yes",
                "CapabilityBoundingSet=",
                "SystemCallArchitectures=native",
            ]
        } else {
            // The user's Git configuration and keys are read; only the store is written.
            lines.append("ProtectHome=read-only")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

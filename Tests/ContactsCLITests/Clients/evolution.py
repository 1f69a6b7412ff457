#!/usr/bin/python3
"""Plays Evolution: Evolution-Data-Server's CardDAV address book syncing with a server.

Run with Debian's python3 (it has the GObject bindings of python3-gi, gir1.2-ebook-1.2 and
gir1.2-edataserver-1.2) and HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_CACHE_HOME set to
private folders: the script starts its own D-Bus session bus (dbus-run-session) on which only
Evolution-Data-Server's source registry and address-book factory can be started, creates the
CardDAV source there on its first run with the address book it finds from the server's URL
(as Evolution's Find Address Books does), and runs the steps on the command line in order:

    EDS_PASSWORD=secret evolution.py http://127.0.0.1:5232/ kim \
        sync DIR                 # fetch the server's changes, write every card to DIR/UID.vcf
        add FILE                 # add the card in FILE (it goes to the server at once)
        note UID TEXT            # set a card's NOTE
        remove UID               # remove a card
        writable                 # print whether EDS lets the book be changed
        try-add FILE             # add the card in FILE, printing EDS's refusal instead of failing

With several address books found, EDS_BOOK picks the one whose path ends with it (as a user
picks one in Find Address Books); every book found is printed, in the server's order.

It answers the server's request for a password with EDS_PASSWORD, prints what it did on
standard error, and exits with status 1 when a step fails, 2 on bad arguments, 124 when the
run takes longer than RUN_TIMEOUT. Every process it started ends with the bus.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from xml.sax.saxutils import escape

SOURCE_UID = "plaincontacts-carddav"
STEP_TIMEOUT = 20  # seconds: a step against a server on 127.0.0.1 takes well under one
RUN_TIMEOUT = 90  # seconds for a whole run, after which its processes are stopped
PRIVATE_FOLDERS = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
SERVICES = ["org.gnome.evolution.dataserver.Sources5", "org.gnome.evolution.dataserver.AddressBook10"]


def log(*words):
    print("evolution.py:", *words, file=sys.stderr, flush=True)


def run_on_private_bus():
    """Runs this script again under dbus-run-session with a bus that starts only EDS."""
    missing = [name for name in PRIVATE_FOLDERS if not os.environ.get(name)]
    if missing:
        print(f"evolution.py: set {', '.join(missing)} to private folders", file=sys.stderr)
        return 2
    for name in PRIVATE_FOLDERS:
        os.makedirs(os.environ[name], exist_ok=True)
    folder = tempfile.mkdtemp(prefix="eds-bus-", dir=os.environ["XDG_CACHE_HOME"])
    services = os.path.join(folder, "services")
    os.mkdir(services)
    for name in SERVICES:
        shutil.copy(os.path.join("/usr/share/dbus-1/services", name + ".service"), services)
    config = os.path.join(folder, "session.conf")
    with open(config, "w") as file:
        file.write(
            '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
            ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
            "<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>\n"
            f"<servicedir>{escape(services)}</servicedir>\n"
            '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>'
            '<allow own="*"/></policy></busconfig>\n')
    environment = dict(os.environ, EVOLUTION_PY_ON_PRIVATE_BUS="1", GSETTINGS_BACKEND="memory", GIO_USE_VFS="local")
    # timeout signals its whole process group: the bus, EDS's services and this script.
    command = ["timeout", "--kill-after=5", str(RUN_TIMEOUT), "dbus-run-session", "--config-file", config, "--",
               sys.executable, os.path.abspath(__file__)] + sys.argv[1:]
    try:
        return subprocess.run(command, env=environment).returncode
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if os.environ.get("EVOLUTION_PY_ON_PRIVATE_BUS") != "1":
    sys.exit(run_on_private_bus())

import gi  # noqa: E402

gi.require_version("EDataServer", "1.2")
gi.require_version("EBook", "1.2")
gi.require_version("EBookContacts", "1.2")
from gi.repository import EBook, EBookContacts, EDataServer, GLib  # noqa: E402

VCARD_30 = EBookContacts.VCardFormat(1)
EVERY_CARD = EBookContacts.BookQuery.any_field_contains("").to_string()


class Refreshes:
    """When the backend's refreshes start and end, from the progress a book view reports."""

    def __init__(self):
        self.condition = threading.Condition()
        self.started = []  # times
        self.ended = []  # (start time or None, end time)
        self.complete = False

    def progress(self, view, percent, message):
        with self.condition:
            now = time.monotonic()
            if message:
                self.started.append(now)
            else:
                self.ended.append((self.started[-1] if self.started else None, now))
            self.condition.notify_all()

    def completed(self, view, error):
        with self.condition:
            self.complete = True
            self.condition.notify_all()

    def wait(self, predicate, what):
        with self.condition:
            if not self.condition.wait_for(predicate, timeout=STEP_TIMEOUT):
                raise TimeoutError(f"no {what} within {STEP_TIMEOUT} s")


def source_for(registry, url, user, password):
    """The CardDAV source, created on the first run with the address book that Evolution's
    Find Address Books (WebDAV discovery from URL) finds."""
    source = registry.ref_source(SOURCE_UID)
    if source is not None:
        return source
    source = EDataServer.Source.new_with_uid(SOURCE_UID, None)
    source.set_display_name("PlainContacts")
    source.set_parent("")
    source.get_extension(EDataServer.SOURCE_EXTENSION_ADDRESS_BOOK).set_backend_name("carddav")
    parsed = GLib.Uri.parse(url, GLib.UriFlags.NONE)
    webdav = source.get_extension(EDataServer.SOURCE_EXTENSION_WEBDAV_BACKEND)
    webdav.set_resource_path(parsed.get_path())
    authentication = source.get_extension(EDataServer.SOURCE_EXTENSION_AUTHENTICATION)
    authentication.set_host(parsed.get_host())
    authentication.set_port(parsed.get_port())
    authentication.set_user(user)
    authentication.set_method("plain/password")
    authentication.set_remember_password(False)
    source.get_extension(EDataServer.SOURCE_EXTENSION_SECURITY).set_method("none")
    source.get_extension(EDataServer.SOURCE_EXTENSION_OFFLINE).set_stay_synchronized(True)
    found = EDataServer.webdav_discover_sources_sync(
        source, None, EDataServer.WebDAVDiscoverSupports.CONTACTS, credentials(user, password), None)
    books = [book.href for book in found.out_discovered_sources if book.supports & EDataServer.WebDAVDiscoverSupports.CONTACTS]
    log("found the address books", *books)
    wanted = os.environ.get("EDS_BOOK")
    if wanted:
        books = [book for book in books if GLib.Uri.parse(book, GLib.UriFlags.NONE).get_path().endswith(wanted)]
    if len(books) != 1:
        raise LookupError(f"discovery from {url} found {len(books)} address books: {books}")
    log("found the address book", books[0])
    webdav.set_resource_path(GLib.Uri.parse(books[0], GLib.UriFlags.NONE).get_path())
    registry.commit_source_sync(source, None)
    return registry.ref_source(SOURCE_UID)


def credentials(user, password):
    named = EDataServer.NamedParameters.new()
    named.set(EDataServer.SOURCE_CREDENTIAL_USERNAME, user)
    named.set(EDataServer.SOURCE_CREDENTIAL_PASSWORD, password)
    return named


def sync(client, refreshes, folder):
    """Refreshes, then writes every card to FOLDER/UID.vcf, images inline.

    EDS only schedules a refresh, and drops the request while one is under way: this waits
    for the end of one that started after the request, asking again after the end of another.
    """
    asked = time.monotonic()
    while True:
        client.refresh_sync(None)
        refreshes.wait(lambda: any(end >= asked for _, end in refreshes.ended), "end of a refresh")
        if any(start is not None and start >= asked for start, _ in refreshes.ended):
            break
        asked = time.monotonic()
    os.makedirs(folder, exist_ok=True)
    _, contacts = client.get_contacts_sync(EVERY_CARD, None)
    for contact in contacts:
        uid = contact.get_property("id")
        contact.inline_local_photos()  # EDS keeps images as files in its cache
        with open(os.path.join(folder, uid.replace("/", "_") + ".vcf"), "w", encoding="utf-8") as file:
            file.write(contact.to_string(VCARD_30))
    log("synced", len(contacts), "cards")


def run_steps(client, refreshes, steps):
    while steps:
        step = steps.pop(0)
        if step == "sync":
            sync(client, refreshes, steps.pop(0))
        elif step == "add":
            with open(steps.pop(0), encoding="utf-8") as file:
                contact = EBookContacts.Contact.new_from_vcard(file.read())
            _, uid = client.add_contact_sync(contact, EBookContacts.BookOperationFlags.NONE, None)
            log("added", uid)
        elif step == "note":
            uid, text = steps.pop(0), steps.pop(0)
            _, contact = client.get_contact_sync(uid, None)
            contact.set_property("note", text)
            client.modify_contact_sync(contact, EBookContacts.BookOperationFlags.NONE, None)
            log("noted", uid)
        elif step == "writable":
            log("writable:", "no" if client.is_readonly() else "yes")
        elif step == "try-add":
            with open(steps.pop(0), encoding="utf-8") as file:
                contact = EBookContacts.Contact.new_from_vcard(file.read())
            try:
                _, uid = client.add_contact_sync(contact, EBookContacts.BookOperationFlags.NONE, None)
                log("added", uid)
            except GLib.Error as error:
                log("refused:", error.message)
        elif step == "remove":
            uid = steps.pop(0)
            client.remove_contact_by_uid_sync(uid, EBookContacts.BookOperationFlags.NONE, None)
            log("removed", uid)
        else:
            raise ValueError(f"unknown step {step}")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    url, user, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
    password = os.environ.get("EDS_PASSWORD", "")
    registry = EDataServer.SourceRegistry.new_sync(None)

    loop = GLib.MainLoop()
    outcome = {"status": 1}

    def authenticate(registry, source, reason, certificate, certificate_errors, error):
        if reason != EDataServer.SourceCredentialsReason.REQUIRED:
            # EDS asks again and again after a rejected password: give up at the first.
            log("failed: the password was not taken:", reason.value_nick, error.message if error else "")
            loop.quit()
            return
        log("the server asks for a password")
        source.invoke_authenticate(credentials(user, password), None, None, None)

    registry.connect("credentials-required", authenticate)

    def work():
        # EDS deadlocks when connect_sync runs on the thread of the main loop.
        try:
            source = source_for(registry, url, user, password)
            client = EBook.BookClient.connect_sync(source, STEP_TIMEOUT, None)
            refreshes = Refreshes()
            _, view = client.get_view_sync(EVERY_CARD, None)
            view.connect("progress", refreshes.progress)
            view.connect("complete", refreshes.completed)
            view.start()
            refreshes.wait(lambda: refreshes.complete, "book view")
            run_steps(client, refreshes, list(steps))
            view.stop()
            outcome["status"] = 0
        except Exception as error:  # every failure ends the run with its message
            log("failed:", error)
        finally:
            GLib.idle_add(loop.quit)

    threading.Thread(target=work, daemon=True).start()
    loop.run()
    return outcome["status"]


sys.exit(main())

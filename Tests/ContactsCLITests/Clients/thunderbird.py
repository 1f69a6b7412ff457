"""Plays a Thunderbird user: drives a running Thunderbird's address book through Marionette,
in the chrome context, with Thunderbird's own CardDAV code.

Run by ThunderbirdClientTests.swift, one step a run, against a Thunderbird started with
`--marionette` (PORT is its profile's MarionetteActivePort):

    THUNDERBIRD_PASSWORD=secret thunderbird.py PORT discover http://127.0.0.1:5232/.well-known/carddav kim
    thunderbird.py PORT sync
    thunderbird.py PORT change '{"add": [VCARD], "note": {"UID": "text"}, "delete": ["UID"]}'
    THUNDERBIRD_PASSWORD=secret thunderbird.py PORT discover-all URL USER
    thunderbird.py PORT try-add BOOK_URL VCARD
    thunderbird.py PORT sync-book BOOK_URL

`discover` does what Thunderbird's New CardDAV Address Book dialog does:
CardDAVUtils.detectAddressBooks from the server's /.well-known/carddav address,
then the found book's create(), which saves the password in the login manager and fetches
every card. `sync` is the directory's syncWithServer (sync-collection), and `change` adds,
edits and deletes through the directory, which uploads each change at once (PUT without
If-Match, DELETE), and waits for the uploads.

`discover-all` creates every book found for USER (a profile may hold several accounts' books),
giving each book's name, URL, whether Thunderbird keeps it read-only and its cards; `try-add`
adds a card to the book at BOOK_URL and tells whether Thunderbird refused it; `sync-book`
syncs that book.

Each prints one JSON object: the cards as Thunderbird keeps them (UID, names, the vCard, the
href and ETag of the server), and what the step learnt (the books found, the saved logins,
the sync token, the requests a sync made). A step that fails exits 1 with Thunderbird's error.
"""

import json
import os
import sys

from marionette_driver.marionette import Marionette

# The modules every step imports, the profile's one CardDAV directory and its cards.
PRELUDE = """
const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
const { CardDAVDirectory } = ChromeUtils.importESModule("resource:///modules/CardDAVDirectory.sys.mjs");
const { CardDAVUtils } = ChromeUtils.importESModule("resource:///modules/CardDAVUtils.sys.mjs");
const { VCardUtils } = ChromeUtils.importESModule("resource:///modules/VCardUtils.sys.mjs");
const { setTimeout } = ChromeUtils.importESModule("resource://gre/modules/Timer.sys.mjs");

function theDirectory() {
  const found = MailServices.ab.directories.filter(d => d.dirType == Ci.nsIAbManager.CARDDAV_DIRECTORY_TYPE);
  if (found.length != 1) {
    throw new Error(`expected one CardDAV address book, found ${found.length}`);
  }
  return CardDAVDirectory.forFile(found[0].fileName);
}

function cards(directory) {
  return directory.childCards.map(card => ({
    uid: card.UID,
    displayName: card.displayName,
    firstName: card.firstName,
    lastName: card.lastName,
    vCard: card.getProperty("_vCard", ""),
    href: card.getProperty("_href", ""),
    etag: card.getProperty("_etag", ""),
  }));
}

// What Thunderbird still has to send to the server: cards it could not upload, removals it
// could not make. Both empty after every step, or the step failed.
function pending(directory) {
  return { uids: [...directory._uidsToSync], hrefs: [...directory._hrefsToRemove] };
}

async function waitFor(condition, what) {
  for (let tries = 0; tries < 400; tries++) {
    if (condition()) {
      return;
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
"""

DISCOVER = PRELUDE + """
const [url, username, password] = arguments;
const books = await CardDAVUtils.detectAddressBooks(username, password, url, false);
if (books.length != 1) {
  throw new Error(`expected one address book at ${url}, found ${books.length}`);
}
const directory = books[0].create();
// create() fetches every card without waiting: the fetch ends with a sync token.
await waitFor(() => directory._syncToken && !directory._syncInProgress, "the first fetch");
const logins = await Services.logins.searchLoginsAsync({ origin: new URL(url).origin });
return {
  books: books.map(book => ({ name: book.name, url: book.url.href })),
  logins: logins.map(login => ({ username: login.username, realm: login.httpRealm })),
  syncToken: directory._syncToken,
  pending: pending(directory),
  cards: cards(directory),
};
"""

# Syncs, recording each request Thunderbird makes: its method, the root element of its body
# (a REPORT's kind: sync-collection, addressbook-multiget) and how many responses the server's
# multistatus answer held (a sync-collection's cards changed or removed).
SYNC = PRELUDE + """
const directory = theDirectory();
const before = directory._syncToken;
const requests = [];
const makeRequest = directory._makeRequest;
directory._makeRequest = async function (path, details = {}) {
  const response = await makeRequest.call(this, path, details);
  const dom = response.dom;
  requests.push({
    method: details.method ?? "GET",
    body: /<(?:[A-Za-z][\\w.-]*:)?([A-Za-z][\\w.-]*)/.exec(details.body ?? "")?.[1] ?? "",
    responses: dom?.documentElement?.localName == "multistatus" ? dom.querySelectorAll("response").length : 0,
  });
  return response;
};
try {
  await directory.syncWithServer(false);
} finally {
  delete directory._makeRequest;
}
return {
  syncTokenBefore: before, syncToken: directory._syncToken, requests, pending: pending(directory), cards: cards(directory),
};
"""

# Adds, edits and deletes through the directory, then waits for the uploads Thunderbird starts
# on its own, watching the directory's upload methods, and fails when one of them failed.
CHANGE = PRELUDE + """
const [changes] = arguments;
const directory = theDirectory();
const uploads = new Set();
const failures = [];
const watched = ["_sendCardToServer", "_deleteCardFromServer"];
for (const name of watched) {
  const original = directory[name];
  directory[name] = function (...args) {
    const upload = original.apply(this, args);
    const settled = upload.catch(error => { failures.push(`${name}: ${error}`); });
    uploads.add(settled);
    settled.finally(() => uploads.delete(settled));
    return upload;
  };
}
try {
  for (const vCard of changes.add ?? []) {
    directory.addCard(VCardUtils.vCardToAbCard(vCard));
  }
  for (const [uid, note] of Object.entries(changes.note ?? {})) {
    const card = directory.getCard(uid);
    if (!card) {
      throw new Error(`no card ${uid} to edit`);
    }
    card.vCardProperties.clearValues("note");
    card.vCardProperties.addValue("note", note);
    directory.modifyCard(card);
  }
  const doomed = (changes.delete ?? []).map(uid => directory.getCard(uid));
  if (doomed.includes(null)) {
    throw new Error(`no card among ${changes.delete} to delete`);
  }
  if (doomed.length) {
    directory.deleteCards(doomed);
  }
  while (uploads.size) {
    await Promise.allSettled([...uploads]);
  }
} finally {
  for (const name of watched) {
    delete directory[name];
  }
}
if (failures.length) {
  throw new Error(failures.join("; "));
}
return { pending: pending(directory), cards: cards(directory) };
"""

DISCOVER_ALL = PRELUDE + """
const [url, username, password] = arguments;
const books = await CardDAVUtils.detectAddressBooks(username, password, url, false);
const found = [];
for (const book of books) {
  const directory = book.create();
  await waitFor(() => directory._syncToken && !directory._syncInProgress, `the first fetch of ${book.url.href}`);
  found.push({ name: book.name, url: book.url.href, readOnly: directory.readOnly, cards: cards(directory) });
}
return { books: found, pending: { uids: [], hrefs: [] }, cards: [] };
"""

# The CardDAV directory of the book at a URL.
BOOK = """
function theBook(url) {
  const found = MailServices.ab.directories.filter(d =>
    d.dirType == Ci.nsIAbManager.CARDDAV_DIRECTORY_TYPE && d.getStringValue("carddav.url", "") == url);
  if (found.length != 1) {
    throw new Error(`expected one address book at ${url}, found ${found.length}`);
  }
  return CardDAVDirectory.forFile(found[0].fileName);
}
"""

TRY_ADD = PRELUDE + BOOK + """
const [url, vCard] = arguments;
const directory = theBook(url);
let refused = null;
try {
  directory.addCard(VCardUtils.vCardToAbCard(vCard));
  await waitFor(() => !directory._syncInProgress, "the upload");
} catch (error) {
  refused = String(error.message ?? error);
}
return { refused, pending: { uids: [], hrefs: [] }, stillToSend: pending(directory), cards: cards(directory) };
"""

SYNC_BOOK = PRELUDE + BOOK + """
const [url] = arguments;
const directory = theBook(url);
await directory.syncWithServer(false);
return { syncToken: directory._syncToken, pending: pending(directory), cards: cards(directory) };
"""

STEPS = {
    "discover": DISCOVER, "sync": SYNC, "change": CHANGE, "discover-all": DISCOVER_ALL, "try-add": TRY_ADD,
    "sync-book": SYNC_BOOK,
}


def main(arguments):
    if len(arguments) < 2 or arguments[1] not in STEPS:
        sys.exit("usage: thunderbird.py PORT discover URL USER | sync | change JSON | discover-all URL USER"
                 " | try-add BOOK_URL VCARD | sync-book BOOK_URL")
    port, step = int(arguments[0]), arguments[1]
    step_arguments = arguments[2:]
    if step in ("discover", "discover-all"):
        step_arguments = step_arguments + [os.environ.get("THUNDERBIRD_PASSWORD", "")]
    elif step == "change":
        step_arguments = [json.loads(step_arguments[0])]
    client = Marionette(host="127.0.0.1", port=port)
    client.start_session()
    try:
        client.set_context(client.CONTEXT_CHROME)
        body = "return (async () => {" + STEPS[step] + "})();"
        result = client.execute_script(body, script_args=step_arguments, script_timeout=30000)
    finally:
        client.delete_session()
    if result["pending"]["uids"] or result["pending"]["hrefs"]:
        sys.exit(f"Thunderbird still has changes to send after {step}: {result['pending']}")
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])

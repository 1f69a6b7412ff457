#!/bin/sh
# Plays a SyncEvolution user: syncs a folder of vCards (SyncEvolution's `file` backend) with a
# CardDAV address book, as `syncevolution --daemon=no` does from the command line.
#
#     SYNCEVOLUTION_PASSWORD=secret syncevolution.sh http://127.0.0.1:5232/ kim FOLDER slow
#     SYNCEVOLUTION_PASSWORD=secret syncevolution.sh http://127.0.0.1:5232/ kim FOLDER two-way
#
# Run it with HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and XDG_CACHE_HOME set to private folders:
# the first run configures there a target config for the server (keyring=no: the password is
# kept in its config file; SyncEvolution finds the address book from the server's URL) and a
# sync config pairing it with FOLDER; every run then syncs in the mode given (slow, two-way,
# ...) and prints SyncEvolution's report, its log on standard error. Exits with
# SyncEvolution's status, or 124 when a run takes longer than a minute (its processes are
# then stopped).
set -eu
if [ $# -ne 4 ]; then
    echo "usage: SYNCEVOLUTION_PASSWORD=... $0 URL USER FOLDER MODE" >&2
    exit 2
fi
url=$1 user=$2 folder=$3 mode=$4

syncevolution() {
    timeout --kill-after=5 60 /usr/bin/syncevolution --daemon=no "$@"
}

if [ ! -d "$XDG_CONFIG_HOME/syncevolution/plaincontacts" ]; then
    mkdir -p "$folder"
    syncevolution --configure --template webdav keyring=no \
        username="$user" password="$SYNCEVOLUTION_PASSWORD" syncURL="$url" \
        target-config@plaincontacts addressbook
    syncevolution --configure --template SyncEvolution_Client keyring=no \
        syncURL=local://@plaincontacts username= password= \
        backend=file database="file://$folder" databaseFormat=text/vcard \
        plaincontacts@default addressbook
fi
syncevolution --sync "$mode" plaincontacts@default addressbook

#!/usr/bin/env bash
# Times khard against PlainContacts' `contacts` on the same generated cards:
# `khard list QUERY` vs `contacts search QUERY`, and `khard list` vs `contacts list`.
# Run `compare-khard.sh --help` for the options.
set -euo pipefail

KHARD_VERSION="0.22.0"   # the newest khard on PyPI that installs on Python 3.11
COUNT=10000
RUNS=5
QUERY="ka"
BUILD=1
INSTALL=1
KEEP=0
SEED=63

usage() {
    cat <<EOF
Usage: compare-khard.sh [N] [--runs R] [--query Q] [--seed S] [--no-build] [--no-install] [--keep]

Generates N people (default $COUNT) as vCards, puts them in a khard address book (a vdir) and
in a PlainContacts store, and times, as whole commands (each the median of R runs, default
$RUNS, after one warm-up run):

  khard list Q        vs  contacts search Q      (default Q: "$QUERY")
  khard list          vs  contacts list

printing both tools' times side by side and the speed-up.

Everything happens in a temporary folder that is removed at the end (--keep keeps it):
khard $KHARD_VERSION is installed with pip into a throwaway virtual environment there.
Cards come from ../shared/gen_contacts.py beside the package when it exists, else from
contacts-bench --generate-vdir / --generate-vcf (the same cards, byte for byte).

Options:
  N              number of people (default $COUNT)
  --runs R       timed runs per command (default $RUNS)
  --query Q      the name searched (default "$QUERY")
  --seed S       generator seed (default $SEED)
  --no-build     use the contacts and contacts-bench already built (swift build -c release)
  --no-install   never install hyperfine; time with a shell loop when it is missing
  --keep         keep the temporary folder and print where it is
  -h, --help     show this help

Environment: CONTACTS_BIN and CONTACTS_BENCH_BIN name the executables to use instead of
the package's release build.

Needs: python3 with venv and pip, network access to PyPI, a Swift toolchain (unless both
executables are given). Uses hyperfine when installed; as root with apt-get it installs it.
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --runs) RUNS="${2:?--runs needs a number}"; shift 2 ;;
        --query) QUERY="${2:?--query needs a text}"; shift 2 ;;
        --seed) SEED="${2:?--seed needs a number}"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-install) INSTALL=0; shift ;;
        --keep) KEEP=1; shift ;;
        [0-9]*) COUNT="$1"; shift ;;
        *) echo "compare-khard.sh: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
    esac
done
case "$COUNT$RUNS$SEED" in
    *[!0-9]*) echo "compare-khard.sh: N, --runs and --seed must be whole numbers" >&2; exit 64 ;;
esac
[ "$COUNT" -gt 0 ] && [ "$RUNS" -gt 0 ] || { echo "compare-khard.sh: N and --runs must be positive" >&2; exit 64; }

say() { echo "compare-khard: $*" >&2; }

LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
GENERATOR="$ROOT/../shared/gen_contacts.py"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/compare-khard.XXXXXX")"
cleanup() {
    if [ "$KEEP" = 1 ]; then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the two PlainContacts executables -------------------------------------------------
if [ -n "${CONTACTS_BIN:-}" ] && [ -n "${CONTACTS_BENCH_BIN:-}" ]; then
    CONTACTS="$CONTACTS_BIN"; BENCH="$CONTACTS_BENCH_BIN"
else
    if [ "$BUILD" = 1 ]; then
        say "building contacts and contacts-bench (release)"
        (cd "$ROOT" && swift build -c release --product contacts >&2 && swift build -c release --product contacts-bench >&2)
    fi
    BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)"
    CONTACTS="${CONTACTS_BIN:-$BIN/contacts}"; BENCH="${CONTACTS_BENCH_BIN:-$BIN/contacts-bench}"
fi
for program in "$CONTACTS" "$BENCH"; do
    [ -x "$program" ] || { echo "compare-khard.sh: $program is not built (run swift build -c release)" >&2; exit 66; }
done

# --- khard in a throwaway virtual environment ------------------------------------------
say "installing khard $KHARD_VERSION into a temporary virtual environment"
python3 -m venv "$TMP/venv"
"$TMP/venv/bin/pip" install --quiet --disable-pip-version-check "khard==$KHARD_VERSION" >&2
KHARD="$TMP/venv/bin/khard"

# --- the same cards for both -----------------------------------------------------------
say "generating $COUNT people"
if [ -f "$GENERATOR" ]; then
    python3 "$GENERATOR" --count "$COUNT" --seed "$SEED" --vdir "$TMP/vdir"
    python3 "$GENERATOR" --count "$COUNT" --seed "$SEED" --single "$TMP/cards.vcf"
    CARDS_BY="gen_contacts.py"
else
    "$BENCH" --people "$COUNT" --seed "$SEED" --generate-vdir "$TMP/vdir" 2>/dev/null
    "$BENCH" --people "$COUNT" --seed "$SEED" --generate-vcf "$TMP/cards.vcf" 2>/dev/null
    CARDS_BY="contacts-bench"
fi

cat > "$TMP/khard.conf" <<EOF
[addressbooks]
[[bench]]
path = $TMP/vdir

[general]
default_action = list
editor = vi
merge_editor = vimdiff

[contact table]
display = formatted_name
sort = last_name
show_uids = yes

[vcard]
skip_unparsable = no
EOF

STORE="$TMP/store"
say "importing the cards into a PlainContacts store"
IMPORTED_BY=""
if "$CONTACTS" import --help >/dev/null 2>&1; then
    if "$CONTACTS" --store "$STORE" init >/dev/null 2>&1 \
        && "$CONTACTS" --store "$STORE" import "$TMP/cards.vcf" >/dev/null 2>&1; then
        IMPORTED_BY="contacts import"
    else
        say "contacts import failed; importing with contacts-bench instead"
        rm -rf "$STORE"
    fi
fi
if [ -z "$IMPORTED_BY" ]; then
    "$BENCH" --create-store "$STORE" --from-vcf "$TMP/cards.vcf" 2>/dev/null
    IMPORTED_BY="contacts-bench --create-store"
fi

# Files written a moment ago cannot be trusted by their timestamps (Git's "racy" files), so a
# store's first commands may read more than later ones do; let it age as any store does.
sleep 3

KHARD_PEOPLE=$("$KHARD" -c "$TMP/khard.conf" list -p | wc -l)
CONTACTS_PEOPLE=$("$CONTACTS" --store "$STORE" list | wc -l)
KHARD_MATCHES=$("$KHARD" -c "$TMP/khard.conf" list -p "$QUERY" | wc -l)
SEARCH_OK=1
CONTACTS_MATCHES=$("$CONTACTS" --store "$STORE" search "$QUERY" 2>/dev/null | wc -l) || SEARCH_OK=0
say "khard sees $KHARD_PEOPLE people, contacts $CONTACTS_PEOPLE"

# --- timing ----------------------------------------------------------------------------
if ! command -v hyperfine >/dev/null 2>&1 && [ "$INSTALL" = 1 ] && [ "$(id -u)" = 0 ] \
    && command -v apt-get >/dev/null 2>&1; then
    say "installing hyperfine with apt-get"
    apt-get install -y -qq hyperfine >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq hyperfine >/dev/null 2>&1; } \
        || say "apt-get could not install hyperfine; timing with a shell loop"
fi

# Prints the median wall time of a command in seconds; runs it once untimed first.
median_seconds() {
    local name="$1"; shift
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$TMP/$name.json" \
            "$(printf '%q ' "$@")" >/dev/null 2>&1
        python3 - "$TMP/$name.json" <<'EOF'
import json, statistics, sys
times = json.load(open(sys.argv[1]))["results"][0]["times"]
print("%.6f" % statistics.median(times))
EOF
    else
        "$@" >/dev/null 2>&1
        local i start end
        for ((i = 0; i < RUNS; i++)); do
            start=$(date +%s%N)
            "$@" >/dev/null 2>&1
            end=$(date +%s%N)
            echo $((end - start))
        done | sort -n | awk '{ t[NR] = $1 } END {
            m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            printf "%.6f\n", m / 1e9 }'
    fi
}

TIMER="hyperfine"; command -v hyperfine >/dev/null 2>&1 || TIMER="a bash loop (date +%s%N)"
say "timing with $TIMER, $RUNS runs each"
KHARD_SEARCH=$(median_seconds khard-search "$KHARD" -c "$TMP/khard.conf" list "$QUERY")
KHARD_LIST=$(median_seconds khard-list "$KHARD" -c "$TMP/khard.conf" list)
CONTACTS_LIST=$(median_seconds contacts-list "$CONTACTS" --store "$STORE" list)
CONTACTS_SEARCH=""
if [ "$SEARCH_OK" = 1 ]; then
    CONTACTS_SEARCH=$(median_seconds contacts-search "$CONTACTS" --store "$STORE" search "$QUERY")
fi

# --- report ----------------------------------------------------------------------------
row() {  # operation, khard seconds, contacts seconds
    python3 - "$@" <<'EOF'
import sys
label, khard, contacts = sys.argv[1:4]
def show(s):
    s = float(s)
    return "%.0f ms" % (s * 1e3) if s < 1 else "%.2f s" % s
if contacts:
    speedup = float(khard) / float(contacts) if float(contacts) > 0 else float("inf")
    print("| %s | %s | %s | %.1f× |" % (label, show(khard), show(contacts), speedup))
else:
    print("| %s | %s | n/a (no `contacts search`) | — |" % (label, show(khard)))
EOF
}

echo "## khard $KHARD_VERSION vs contacts, $COUNT people"
echo
echo "Machine: $(nproc) cores, $(uname -srm); load average $LOAD_START at start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) at end."
echo "Cards by $CARDS_BY (seed $SEED); khard reads them as a vdir of $KHARD_PEOPLE files, contacts"
echo "from a store of $CONTACTS_PEOPLE people made with $IMPORTED_BY. Median of $RUNS runs"
echo "with $TIMER, one warm-up run first (warm page cache), output discarded."
echo "\`khard list $QUERY\` searches every field ($KHARD_MATCHES matches); \`contacts search $QUERY\`"
echo "searches names only (${CONTACTS_MATCHES:-?} matches)."
echo
echo "| operation | khard | contacts | speed-up |"
echo "|---|---:|---:|---:|"
row "search \"$QUERY\" (\`khard list $QUERY\` / \`contacts search $QUERY\`)" "$KHARD_SEARCH" "$CONTACTS_SEARCH"
row "list everyone (\`khard list\` / \`contacts list\`)" "$KHARD_LIST" "$CONTACTS_LIST"

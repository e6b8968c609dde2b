#!/bin/sh
# radcol init from the command line: an inconsistent request exits 2, names
# h1 and the conflicting values and writes nothing; a consistent one exits 0
# and writes an "init" result file.
set -u
R="$1"
T="${TMPDIR:-/tmp}/radcol-init-cli.$$"
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$R" init pendulum --fix x=0.8 --fix y=0.8 -o "$T/bad.h5" >"$T/out" 2>"$T/err"
st=$?
[ "$st" -eq 2 ] || fail "exit $st, expected 2"
grep -q 'h1 residual 0.28' "$T/err" || fail "message lacks h1: $(cat "$T/err")"
grep -q 'x = 0.8, y = 0.8' "$T/err" || fail "conflicts not named: $(cat "$T/err")"
[ ! -e "$T/bad.h5" ] || fail "a file was written"
"$R" init pendulum -f coord --fix y --fix v --guess x=-0.1 -o "$T/ok.h5" --json >"$T/json" 2>"$T/err2"
st=$?
[ "$st" -eq 0 ] || fail "coord exit $st: $(cat "$T/err2")"
[ -s "$T/ok.h5" ] || fail "no file written"
grep -q '"status": *"consistent"' "$T/json" || fail "json: $(cat "$T/json")"
"$R" info "$T/ok.h5" | grep -q init || fail "info does not show kind init"
"$R" init pendulum --fix nosuch=1 >/dev/null 2>"$T/err3"
[ $? -eq 2 ] || fail "unknown variable must exit 2"
grep -q "no variable 'nosuch'" "$T/err3" || fail "message: $(cat "$T/err3")"
echo "test_init_cli: ok"

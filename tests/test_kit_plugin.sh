#!/bin/sh
# test_kit_plugin.sh - the problem kit from a plugin (tests/plugins/
# kit_plugin.c, built with the public headers only): loads into radcol with
# its kit calls compiled in and rc_ode_reference resolved from the executable;
#   ode:    radcol check passes; a solve (10 x 3) converges and agrees with
#           the rk8pd reference at the element ends to < 1e-9 (order 5);
#   drift:  a branch on w writes an entry the recording pass did not: check
#           exits 1 naming the kit;
#   badcol: a column out of range: exit 2, the entry named, nothing written;
#   --tf:   the model has no tf parameter, the engine owns the horizon: a
#           solve on [0, 3] converges, x(3) = 1/(1 + 1.5 * 3) (exact) on the
#           dense output, and --tf 0 is refused (exit 2, nothing written).
# usage: test_kit_plugin.sh RADCOL KIT_PLUGIN.so
#        test_kit_plugin.sh --help
set -eu
case "${1:-}" in -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
radcol=$1 lib=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-kit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$radcol" check kit-test --plugin "$lib" -f ode >"$tmp/ok.txt" 2>&1 ||
  { cat "$tmp/ok.txt"; fail "check of the ode formulation"; }
grep -q "^PASS kit-test/ode" "$tmp/ok.txt" || fail "no PASS line"
cat "$tmp/ok.txt"

"$radcol" solve kit-test --plugin "$lib" -n 10 -s 3 -o "$tmp/ode.h5" --json \
  --quiet >"$tmp/ode.json" || { cat "$tmp/ode.json"; fail "solve ode"; }
grep -q '"status": "converged"' "$tmp/ode.json" || fail "ode not converged"
# at element ends Radau IIA converges at order 2s - 1 = 5 (measured 7.5e-12)
err=$(sed -n 's/.*"max_error": {"x": {[^}]*"ends": \([-0-9.eE+]*\).*/\1/p' "$tmp/ode.json")
echo "kit-test/ode, 10 x 3: max |x - reference| at element ends = $err"
[ -n "$err" ] || fail "no max_error for x (reference through rc_ode_reference)"
awk -v e="$err" 'BEGIN { exit !(e < 1e-9) }' || fail "error $err, expected < 1e-9"

set +e
"$radcol" check kit-test --plugin "$lib" -f drift >"$tmp/drift.txt" 2>&1
rc=$?
set -e
cat "$tmp/drift.txt"
[ "$rc" -eq 1 ] || fail "check of drift exited $rc, expected 1"
grep -q "returned -86: the block function wrote an entry its recording pass did not" \
  "$tmp/drift.txt" || fail "drift not named"

set +e
"$radcol" solve kit-test --plugin "$lib" -f badcol -o "$tmp/bad.h5" \
  >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
set -e
cat "$tmp/bad.err"
[ "$rc" -eq 2 ] || fail "badcol exited $rc, expected 2"
grep -q "kit: point block: rc_kit_d on row 0, column 5: expected a column in 0..0" \
  "$tmp/bad.err" || fail "badcol entry not named"
[ ! -e "$tmp/bad.h5" ] || fail "badcol wrote a file"

# --tf for a model without a tf parameter (issue 15: the engine owns tf).
"$radcol" solve kit-test --plugin "$lib" --tf 3 -n 20 -s 3 -o "$tmp/tf3.h5" \
  --json --quiet >"$tmp/tf3.json" || { cat "$tmp/tf3.json"; fail "solve --tf 3"; }
grep -q '"status": "converged"' "$tmp/tf3.json" || fail "--tf 3 not converged"
"$radcol" export "$tmp/tf3.h5" --plugin "$lib" -o "$tmp/tf3.csv" ||
  fail "export of the --tf 3 solution"
last=$(tail -n 1 "$tmp/tf3.csv")
echo "kit-test/ode --tf 3, 20 x 3: last dense sample (t, x) = $last, exact x(3) = 1/5.5"
echo "$last" | awk -F, '{ d = $2 - 1 / 5.5; if (d < 0) d = -d;
  exit !($1 == 3 && d < 1e-9) }' || fail "x(3) = $last, expected t = 3, x = 1/5.5 within 1e-9"
set +e
"$radcol" solve kit-test --plugin "$lib" --tf 0 -o "$tmp/tf0.h5" 2>"$tmp/tf0.err"
rc=$?
set -e
cat "$tmp/tf0.err"
[ "$rc" -eq 2 ] || fail "--tf 0 exited $rc, expected 2"
grep -q "final time 0: expected tf > t0 = 0" "$tmp/tf0.err" || fail "--tf 0 not named"
[ ! -e "$tmp/tf0.h5" ] || fail "--tf 0 wrote a file"
echo "kit plugin test: ok"

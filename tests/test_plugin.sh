#!/bin/sh
# test_plugin.sh - plugins end to end (issue 6), against an INSTALLED radcol:
#   1. cmake --install the build tree into a temporary prefix;
#   2. configure and build examples/plugin-template out of tree with
#      find_package(radcol COMPONENTS headers) (CMAKE_PREFIX_PATH = the
#      prefix); `nm -D --defined-only` lists only radcol_plugin;
#   3. radcol check passes on both formulations of the template;
#   4. radcol solve (ode, 3 stages): objective = tf against the analytic
#      cycloid time, computed here independently (bisection in awk); the
#      error must fall at the measured order 2s-1 = 5 (5 -> 10 elements:
#      measured 4.0e-8 -> 1.2e-9, ratio 32; we require ratio > 16 and
#      error(10) < 1e-8), and the dae form (first order, singular at t0)
#      within 3e-3 on 20 elements (measured 1.5e-3);
#   5. a plugin with a wrong Jacobian, built with cc and only
#      `pkg-config --cflags radcol`, makes radcol check exit 1 naming the
#      point-block Jacobian entry d f_x / d x;
#   6. a missing file, a library without the entry point, and older/newer
#      ABI versions each exit 2 with a message.
# usage: test_plugin.sh BUILD_DIR SOURCE_DIR NO_ENTRY.so ABI_OLD.so ABI_NEW.so [PYTHON]
set -eu
build=$1 src=$2 no_entry=$3 abi_old=$4 abi_new=$5 py=${6:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-plugin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. install
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
radcol=$tmp/prefix/bin/radcol
[ -x "$radcol" ] || fail "installed executable missing: $radcol"
[ -f "$tmp/prefix/include/radcol/plugin.h" ] || fail "plugin.h not installed"

# 2. out-of-tree build of the template against the installed package
cmake -S "$src/examples/plugin-template" -B "$tmp/template" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure template"; }
cmake --build "$tmp/template" -j2 >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log"; fail "build template"; }
lib=$tmp/template/libtemplate.so
[ -f "$lib" ] || fail "no $lib"
# headers only: the template exports radcol_plugin and nothing else
syms=$(nm -D --defined-only "$lib" | awk '{print $NF}' | tr '\n' ' ')
echo "template: dynamic symbols: $syms"
[ "$syms" = "radcol_plugin " ] || fail "libtemplate.so exports '$syms', expected only radcol_plugin"
cd "$tmp"
cp "$lib" ./libtemplate.so

# 3. derivative check of every formulation (plugin given as a bare name)
"$radcol" check brachistochrone --plugin libtemplate.so >check.txt ||
  { cat check.txt; fail "radcol check on the template"; }
grep -q "^PASS brachistochrone/ode" check.txt || fail "ode not checked"
grep -q "^PASS brachistochrone/dae" check.txt || fail "dae not checked"
echo "check: $(grep '^PASS' check.txt | grep -vc ' transcription (') formulations pass, $(grep -c '^PASS .* transcription (' check.txt) transcriptions"

# 4. solves against the analytic optimum
tstar=$(awk 'BEGIN {
  lo = 1e-9; hi = 6.283185307179586 - 1e-9
  for (k = 0; k < 200; k++) { p = (lo + hi) / 2
    if ((p - sin(p)) / (1 - cos(p)) < 1.0) lo = p; else hi = p }
  p = (lo + hi) / 2; R = 1 / (1 - cos(p)); printf "%.17g", p * sqrt(R / 9.81) }')
echo "analytic minimum time (xf = yf = 1, g = 9.81): $tstar"
json_num() { # json_num FILE KEY: the first numeric value of "KEY"
  sed -n "s/.*\"$2\": \([-0-9.eE+]*\).*/\1/p" "$1" | head -n 1
}
solve() { # solve NAME FORM N [STATUS EXIT]: writes NAME.json and NAME.h5
  set +e
  "$radcol" solve brachistochrone --plugin ./libtemplate.so -f "$2" -n "$3" \
    -s 3 -o "$1.h5" --json --quiet >"$1.json"
  rc=$?
  set -e
  [ "$rc" -eq "${5:-0}" ] || { cat "$1.json"; fail "solve $1 exited $rc"; }
  [ -f "$1.h5" ] || fail "$1.h5 not written"
  grep -q "\"status\": \"${4:-converged}\"" "$1.json" ||
    fail "$1 status is not ${4:-converged}"
}
solve ode5 ode 5
solve ode10 ode 10
# The dae form is singular at t0 (v = 0 leaves the direction free): the
# discrete control oscillates in element 0 and its dense output breaks the
# unit-direction path constraint there by 1.5-1.7 % on every mesh measured
# (20, 40, 80 elements): on this fixed mesh the solver converged (exit 0)
# and the accuracy verdict says honestly that the result is above the
# tolerance (docs/accuracy.md), while the objective is within 3e-3 of the
# analytic one.
solve dae20 dae 20
grep -q '"dense_violation_worst": 0.01' dae20.json ||
  fail "dae20: expected a 1-2 % dense path violation (element 0)"
grep -q '"verdict": "above"' dae20.json ||
  fail "dae20: expected the accuracy verdict above the tolerance"
e5=$(awk -v o="$(json_num ode5.json objective)" -v t="$tstar" 'BEGIN { d = o - t; print d < 0 ? -d : d }')
e10=$(awk -v o="$(json_num ode10.json objective)" -v t="$tstar" 'BEGIN { d = o - t; print d < 0 ? -d : d }')
ed=$(awk -v o="$(json_num dae20.json objective)" -v t="$tstar" 'BEGIN { d = o - t; print d < 0 ? -d : d }')
echo "ode, 3 stages: |tf - tf*| = $e5 (5 elements), $e10 (10 elements)"
echo "dae, 3 stages, 20 elements: |tf - tf*| = $ed"
awk -v a="$e5" -v b="$e10" 'BEGIN { exit !(b < 1e-8 && a > 16 * b) }' ||
  fail "ode objective error $e10 (want < 1e-8) or ratio $e5/$e10 (want > 16)"
awk -v a="$ed" 'BEGIN { exit !(a < 3e-3) }' || fail "dae objective error $ed"
# tf in the file is the objective (phi = tf), read through the HDF5 layout.
if [ -n "$py" ]; then
  "$py" - ode10.h5 "$tstar" <<'EOF' || fail "tf in ode10.h5"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    t = f["/solution/time"][...]
    assert f.attrs["problem"] in (b"brachistochrone", "brachistochrone")
err = abs(t[-1] - float(sys.argv[2]))
print("ode10.h5: final time %.15g, error %.2e" % (t[-1], err))
sys.exit(0 if err < 1e-8 else 1)
EOF
fi

# 5. a wrong derivative is caught, entry named
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
export PKG_CONFIG_PATH
cflags=$(pkg-config --cflags radcol) || fail "pkg-config radcol"
${CC:-cc} -std=c11 -shared -fPIC $cflags "$src/tests/plugins/bad_derivative.c" \
  -o libbad.so || fail "cc bad_derivative.c"
set +e
"$radcol" check bad-derivative --plugin ./libbad.so >bad.txt 2>&1
rc=$?
set -e
cat bad.txt
[ "$rc" -eq 1 ] || fail "check of the wrong derivative exited $rc, expected 1"
grep -q "^FAIL bad-derivative/ode" bad.txt || fail "no FAIL line"
grep -q "point jac_value d f_x\[0\] / d x\[0\]" bad.txt ||
  fail "wrong entry not named as point jac_value d f_x[0] / d x[0]"

# 6. refusals: exit 2 and a message naming the cause
refused() { # refused PATTERN ARGS...
  pat=$1
  shift
  set +e
  "$radcol" "$@" >out.txt 2>err.txt
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { cat err.txt; fail "$* exited $rc, expected 2"; }
  [ ! -s out.txt ] || fail "$* printed on stdout"
  grep -q "$pat" err.txt || { cat err.txt; fail "$*: no '$pat' in the message"; }
  echo "refused ($*): $(cat err.txt)"
}
refused "cannot open: No such file" solve brachistochrone --plugin ./missing.so -o x.h5
refused "no entry point radcol_plugin" check x --plugin "$no_entry"
refused "ABI version 0, but this radcol has ABI version" check x --plugin "$abi_old"
refused "ABI version [0-9]*, but this radcol has ABI version" solve x --plugin "$abi_new" -o x.h5
refused "not a loadable shared library" check x --plugin "$src/tests/plugins/no_entry.c"
refused "unknown problem 'nope': expected one of: brachistochrone" check nope --plugin ./libtemplate.so
[ ! -e x.h5 ] || fail "a refused run wrote x.h5"
echo "plugin test: ok"

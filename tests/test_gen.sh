#!/bin/sh
# test_gen.sh - scripts/radcol-gen and the installed package (issue 15):
#   1. cmake --install the build tree into a temporary prefix;
#   2. radcol-gen on every example model file (examples/models/*.py); each
#      plugin is configured and built out of tree with find_package(radcol)
#      and radcol::headers only, exports nothing but radcol_plugin
#      (nm -D --defined-only), passes radcol check (all formulations) and a
#      solve: the brachistochrone's objective against the analytic cycloid
#      time (independent: bisection in awk), the pendulum twin converged,
#      min-energy (Lagrange, Mayer, boundary constraint, decision parameter,
#      outputs) against its closed-form optimum;
#   2b. maximize=True: a maximisation (max x(1) - integral u^2/2, optimum
#      1/2 at u = 1) sets rc_problem.maximize, reports objective +1/2 and
#      objective_sense "max" (the library maximises, nothing negated); the
#      generated CMakeLists builds Release when no build type is given and
#      keeps a build type the user gives;
#   3. gen_twin: the generated pendulum twin against the hand-coded built-in
#      (callbacks to 1e-14 at random points, same iterations and solution to
#      1e-12 from the same guess);
#   3b. a problem whose invariants lack a Hessian: check and init both
#      refuse it (exit 2, same message);
#   4. a program linking the installed library and models, built with CMake
#      (find_package(radcol COMPONENTS library models)) and with
#      pkg-config --static radcol-models, runs a solve; a program linking
#      the engine alone (radcol::radcol; pkg-config radcol) solves a
#      generated plugin's problem, with no GSL on its link line, and the
#      engine library holds no built-in model and no GSL reference;
#   5. radcol-gen refuses bad model files (exit 2, the item named);
#   6. radcol info prints the final time in the shortest round-trip form.
# usage: test_gen.sh BUILD_DIR SOURCE_DIR PYTHON GEN_TWIN
set -eu
build=$1 src=$2 py=$3 twin=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
gen() { "$py" "$src/scripts/radcol-gen" "$@"; }

# 1. install
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
radcol=$tmp/prefix/bin/radcol

# 2. every example model: generate, build out of tree, symbols, check, solve
build_plugin() { # build_plugin MODEL.py NAME: leaves $tmp/NAME/build/libNAME.so
  gen "$src/examples/models/$1" -o "$tmp/$2" || fail "radcol-gen $1"
  cmake -S "$tmp/$2" -B "$tmp/$2/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-Werror" \
    >"$tmp/$2.configure.log" 2>&1 || { cat "$tmp/$2.configure.log"; fail "configure $2"; }
  cmake --build "$tmp/$2/build" >"$tmp/$2.build.log" 2>&1 ||
    { cat "$tmp/$2.build.log"; fail "build $2 (warnings are errors)"; }
  lib=$tmp/$2/build/lib$2.so
  [ -f "$lib" ] || fail "no $lib"
  syms=$(nm -D --defined-only "$lib" | awk '{print $NF}' | tr '\n' ' ')
  echo "$2: dynamic symbols: $syms"
  [ "$syms" = "radcol_plugin " ] || fail "lib$2.so exports '$syms', expected only radcol_plugin"
  # linked against nothing from radcol (headers only)
  ! ldd "$lib" | grep -q -i -E "ipopt|hdf5|gsl" || fail "lib$2.so links Ipopt, HDF5 or GSL"
}
check_plugin() { # check_plugin MODEL NAME NFORMS
  "$radcol" check "$1" --plugin "$tmp/$2/build/lib$2.so" >"$tmp/$2.check" ||
    { cat "$tmp/$2.check"; fail "radcol check $1"; }
  # one PASS line per formulation for its blocks, one for its transcription
  n=$(grep '^PASS' "$tmp/$2.check" | grep -vc ' transcription (')
  [ "$n" -eq "$3" ] || { cat "$tmp/$2.check"; fail "$1: $n formulations pass, expected $3"; }
  n=$(grep -c '^PASS .* transcription (' "$tmp/$2.check")
  [ "$n" -eq "$3" ] || { cat "$tmp/$2.check"; fail "$1: $n transcriptions pass, expected $3"; }
  sed 's/^/  /' "$tmp/$2.check"
}
json_num() { sed -n "s/.*\"$2\": \([-0-9.eE+]*\).*/\1/p" "$1" | head -n 1; }

build_plugin brachistochrone.py brachistochrone_gen
check_plugin brachistochrone-gen brachistochrone_gen 2
build_plugin pendulum_twin.py pendulum_gen
check_plugin pendulum-gen pendulum_gen 2
build_plugin min_energy.py min_energy
check_plugin min-energy min_energy 1

tstar=$(awk 'BEGIN {
  lo = 1e-9; hi = 6.283185307179586 - 1e-9
  for (k = 0; k < 200; k++) { p = (lo + hi) / 2
    if ((p - sin(p)) / (1 - cos(p)) < 1.0) lo = p; else hi = p }
  p = (lo + hi) / 2; R = 1 / (1 - cos(p)); printf "%.17g", p * sqrt(R / 9.81) }')
"$radcol" solve brachistochrone-gen --plugin "$tmp/brachistochrone_gen/build/libbrachistochrone_gen.so" \
  -n 10 -s 3 -o "$tmp/b.h5" --json --quiet >"$tmp/b.json" || { cat "$tmp/b.json"; fail "solve brachistochrone-gen"; }
grep -q '"status": "converged"' "$tmp/b.json" || fail "brachistochrone-gen not converged"
eb=$(awk -v o="$(json_num "$tmp/b.json" objective)" -v t="$tstar" 'BEGIN { d = o - t; print d < 0 ? -d : d }')
echo "brachistochrone-gen/ode, 10 x 3: |tf - tf*| = $eb (tf* = $tstar)"
awk -v e="$eb" 'BEGIN { exit !(e < 1e-8) }' || fail "brachistochrone-gen objective error $eb"
"$radcol" solve pendulum-gen -f accel --plugin "$tmp/pendulum_gen/build/libpendulum_gen.so" \
  -n 20 -s 3 -o "$tmp/p.h5" --json --quiet >"$tmp/p.json" || { cat "$tmp/p.json"; fail "solve pendulum-gen"; }
grep -q '"status": "converged"' "$tmp/p.json" || fail "pendulum-gen not converged"
echo "pendulum-gen/accel, 20 x 3: converged in $(json_num "$tmp/p.json" iterations) iterations"

# min-energy: Lagrange + Mayer + a boundary constraint on a decision parameter;
# the optimum is polynomial (objective 12 a^2/13, p = a/13; a = 2), which
# Radau IIA with 3 stages represents exactly.
"$radcol" solve min-energy --plugin "$tmp/min_energy/build/libmin_energy.so" \
  -n 5 -s 3 -o "$tmp/m.h5" --json --quiet >"$tmp/m.json" || { cat "$tmp/m.json"; fail "solve min-energy"; }
grep -q '"status": "converged"' "$tmp/m.json" || fail "min-energy not converged"
em=$(awk -v o="$(json_num "$tmp/m.json" objective)" 'BEGIN { d = o - 48 / 13; print d < 0 ? -d : d }')
echo "min-energy, 5 x 3: |objective - 48/13| = $em"
awk -v e="$em" 'BEGIN { exit !(e < 1e-9) }' || fail "min-energy objective error $em"
"$py" - "$tmp/m.h5" <<'PY' || fail "min-energy: p in the file"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    p = f["/solution/p"][()]
print("min-energy: p = %.15g (2/13 = %.15g)" % (p[0], 2 / 13))
sys.exit(0 if abs(p - 2 / 13).max() < 1e-9 else 1)
PY

# 2b. maximize=True, and the generated CMakeLists' default build type
cat >"$tmp/maxdemo.py" <<'EOF'
model("maxdemo", "maximise x(1) - integral u^2/2 (optimum 1/2 at u = 1)")
x, u = symbols("x u")
formulation("a", "x | u", states=[x], controls=[u], f={x: u}, x0={x: 0}, tf=1,
            phi=at_tf(x), L=-u**2 / 2, maximize=True)
EOF
gen "$tmp/maxdemo.py" -o "$tmp/maxdemo" >"$tmp/maxdemo.gen" || fail "radcol-gen maxdemo"
grep -q "\.maximize = 1," "$tmp/maxdemo/maxdemo.c" ||
  fail "radcol-gen: the maximising formulation does not set rc_problem.maximize"
cmake -S "$tmp/maxdemo" -B "$tmp/maxdemo/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_C_FLAGS="-Werror" >"$tmp/maxdemo.configure.log" 2>&1 ||
  { cat "$tmp/maxdemo.configure.log"; fail "configure maxdemo"; }
grep -q "^CMAKE_BUILD_TYPE:STRING=Release$" "$tmp/maxdemo/build/CMakeCache.txt" ||
  fail "generated CMakeLists: no build type given, but the cache does not say Release"
cmake --build "$tmp/maxdemo/build" >"$tmp/maxdemo.build.log" 2>&1 ||
  { cat "$tmp/maxdemo.build.log"; fail "build maxdemo"; }
cmake -S "$tmp/maxdemo" -B "$tmp/maxdemo/build-debug" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Debug >/dev/null 2>&1 || fail "configure maxdemo (Debug)"
grep -q "^CMAKE_BUILD_TYPE:STRING=Debug$" "$tmp/maxdemo/build-debug/CMakeCache.txt" ||
  fail "generated CMakeLists overrides -DCMAKE_BUILD_TYPE=Debug"
"$radcol" solve maxdemo --plugin "$tmp/maxdemo/build/libmaxdemo.so" -n 4 -s 3 \
  -o "$tmp/mx.h5" --json --quiet >"$tmp/mx.json" || { cat "$tmp/mx.json"; fail "solve maxdemo"; }
grep -q '"status": "converged"' "$tmp/mx.json" || fail "maxdemo not converged"
grep -q '"objective_sense": "max"' "$tmp/mx.json" ||
  { cat "$tmp/mx.json"; fail "maxdemo: --json objective_sense is not max"; }
emx=$(awk -v o="$(json_num "$tmp/mx.json" objective)" 'BEGIN { d = o - 0.5; print d < 0 ? -d : d }')
echo "maxdemo (maximize=True), 4 x 3: |objective - 1/2| = $emx"
awk -v e="$emx" 'BEGIN { exit !(e < 1e-12) }' || fail "maxdemo objective $(json_num "$tmp/mx.json" objective), expected 0.5"
"$py" - "$tmp/mx.h5" <<'PY' || fail "maxdemo: u in the file"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    u = f["/solution/u"][1:]
print("maxdemo: max |u - 1| = %.3g" % abs(u - 1).max())
sys.exit(0 if abs(u - 1).max() < 1e-9 else 1)
PY

# 3. the twin against the hand-coded pendulum
"$twin" "$tmp/pendulum_gen/build/libpendulum_gen.so" || fail "gen_twin"

# 3b. invariants without a Hessian: refused when the problem is built, by
# check and init alike (check used to say PASS while init refused)
sed 's/\.hessian = accel_inv_hes}/.hessian = NULL}/' \
  "$tmp/pendulum_gen/pendulum_gen.c" >"$tmp/noinvhes.c"
grep -q '.hessian = NULL}' "$tmp/noinvhes.c" || fail "could not remove the invariant Hessian"
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig ${CC:-cc} -std=c11 -shared -fPIC \
  -Wno-unused-function $(PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig pkg-config --cflags radcol) \
  "$tmp/noinvhes.c" -o "$tmp/libnoinvhes.so" -lm || fail "cc noinvhes.c"
for cmd in check init; do
  set +e
  "$radcol" $cmd pendulum-gen -f accel --plugin "$tmp/libnoinvhes.so" >"$tmp/nih.out" 2>"$tmp/nih.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { cat "$tmp/nih.out" "$tmp/nih.err"; fail "$cmd without an invariant Hessian exited $rc, expected 2"; }
  grep -q "invariants block lacks its Hessian function" "$tmp/nih.err" ||
    { cat "$tmp/nih.err"; fail "$cmd: message does not name the missing invariant Hessian"; }
  echo "$cmd refuses: $(cat "$tmp/nih.err")"
done

# 4. programs linking the installed library, both ways
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; fail "configure consumer (CMake)"; }
cmake --build "$tmp/consumer" >>"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; fail "build consumer (CMake)"; }
"$tmp/consumer/consumer" || fail "consumer (CMake) did not solve"
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
${CC:-cc} -std=c11 $(pkg-config --cflags radcol-models) "$src/tests/consumer/consumer.c" \
  -o "$tmp/consumer_pc" $(pkg-config --static --libs radcol-models) || fail "build consumer (pkg-config --static)"
"$tmp/consumer_pc" || fail "consumer (pkg-config) did not solve"
# the engine alone: a generated plugin's problem, nothing of GSL or the models
"$tmp/consumer/engine_consumer" "$tmp/brachistochrone_gen/build/libbrachistochrone_gen.so" \
  brachistochrone-gen ode || fail "engine_consumer (CMake) did not solve the plugin problem"
libs=$(pkg-config --static --libs radcol)
case "$libs" in *gsl*) fail "pkg-config --static --libs radcol names GSL: $libs" ;; esac
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -rdynamic $(pkg-config --cflags radcol) "$src/tests/consumer/engine_consumer.c" \
  -o "$tmp/engine_pc" $libs -ldl -lm || fail "build engine_consumer (pkg-config --static radcol)"
"$tmp/engine_pc" "$tmp/brachistochrone_gen/build/libbrachistochrone_gen.so" brachistochrone-gen ode ||
  fail "engine_consumer (pkg-config) did not solve the plugin problem"
lib=$tmp/prefix/lib/libradcol.a
[ -f "$lib" ] || lib=$(find "$tmp/prefix" -name libradcol.a | head -n 1)
nm "$lib" >"$tmp/engine.nm" || fail "nm libradcol.a"
grep -q " T rc_solve$" "$tmp/engine.nm" || fail "nm finds no rc_solve in libradcol.a: the check below would be vacuous"
if grep -E " [TDR] rc_(model_(crane|pendulum|double_pendulum|four_bar)|builtin_models|find_model)$| U gsl_" "$tmp/engine.nm"; then
  fail "the engine library holds a built-in model or needs GSL (above)"
fi
if grep -E " U (CreateIpoptProblem|IpoptSolve)$" "$tmp/engine.nm"; then
  fail "the engine library links Ipopt's functions (above): it should load Ipopt at run time"
fi
echo "engine library: no built-in model, no GSL, Ipopt loaded at run time"

# 5. bad model files: exit 2, the item and the symbol named, nothing written
bad() { # bad PATTERN: the model text on stdin
  cat >"$tmp/bad.py"
  set +e
  gen "$tmp/bad.py" -o "$tmp/badout" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { cat "$tmp/bad.err"; fail "bad model exited $rc, expected 2"; }
  grep -q "$1" "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "no '$1' in: $(cat "$tmp/bad.err")"; }
  [ ! -e "$tmp/badout" ] || fail "a refused model wrote $tmp/badout"
  echo "refused: $(cat "$tmp/bad.err")"
}
bad "formulation 'a': f\[x\] uses unknown symbol q" <<'EOF'
model("m", "")
x, q = symbols("x q")
formulation("a", "", states=[x], f={x: q * x}, tf=1)
EOF
bad "formulation 'a': g has 0 equation(s), expected 1 (one per algebraic variable: y)" <<'EOF'
model("m", "")
x, y = symbols("x y")
formulation("a", "", states=[x], algebraic=[y], f={x: y}, tf=1)
EOF
bad "formulation 'a': f has no entry for state(s) y" <<'EOF'
model("m", "")
x, y = symbols("x y")
formulation("a", "", states=[x, y], f={x: y}, tf=1)
EOF
bad "formulation 'a': c\[0\]: expected (expression, lo, hi)" <<'EOF'
model("m", "")
x, u = symbols("x u")
formulation("a", "", states=[x], controls=[u], f={x: u}, c=[(u, 1)], tf=1)
EOF
bad "formulation 'a': maximize=True but there is no objective" <<'EOF'
model("m", "")
x = symbols("x")
formulation("a", "", states=[x], f={x: -x}, tf=1, maximize=True)
EOF
bad "formulation 'a': maximize = 'yes': expected True or False" <<'EOF'
model("m", "")
x = symbols("x")
formulation("a", "", states=[x], f={x: -x}, tf=1, phi=at_tf(x), maximize="yes")
EOF
bad "bad.py:2: NameError" <<'EOF'
model("m", "")
x = symbol("x")
EOF

# 6. numbers: the shortest form that reads back exactly
"$radcol" solve pendulum -f accel --tf 2.2 -n 5 -o "$tmp/tf.h5" --quiet >/dev/null ||
  fail "solve with --tf 2.2"
"$radcol" info "$tmp/tf.h5" | grep -q "tf = 2.2$" ||
  { "$radcol" info "$tmp/tf.h5"; fail "radcol info does not print tf = 2.2"; }
echo "radcol info: $("$radcol" info "$tmp/tf.h5" | grep horizon)"
echo "gen test: ok"

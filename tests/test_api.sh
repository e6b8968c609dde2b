#!/bin/sh
# test_api.sh - the public API without internals (issue 17), checked on an
# INSTALLED radcol:
#   1. cmake --install the build tree into a temporary prefix; the installed
#      include/radcol holds exactly the source tree's include/radcol/*.h and
#      the generated version.h (a header added to include/radcol but not to
#      RADCOL_PUBLIC_HEADERS fails here);
#   2. every installed header compiles on its own with -I PREFIX/include
#      only (cc -fsyntax-only -Wall -Wextra -Werror): no public header needs
#      a private one;
#   3. no installed header declares the plugin loader, a parser (any rc_*
#      function with "parse" in its name), the UTF-8 helper or the CLI's file
#      writer, while the same patterns do find them in the private headers
#      src/core/plugin_loader.h, src/core/numbers.h, src/cli/forms.h, src/core/utf8.h
#      and src/io/outfile.h (so the
#      check is not vacuous);
#   4. no file under src/ names a built-in problem: the names come from
#      `radcol list` (with '-' also read as '_' and ' '), and the same search
#      finds each of them under problems/.
# usage: test_api.sh BUILD_DIR SOURCE_DIR RADCOL_EXE C_COMPILER
#        test_api.sh --help
set -eu
case "${1:-}" in
  -h | --help)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac
[ $# -eq 4 ] || { echo "usage: test_api.sh BUILD_DIR SOURCE_DIR RADCOL_EXE C_COMPILER" >&2; exit 2; }
build=$1 src=$2 exe=$3 cc=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. install; the installed headers are the source tree's public ones
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
inc=$tmp/prefix/include
[ -d "$inc/radcol" ] || fail "no $inc/radcol"
(cd "$inc/radcol" && ls) >"$tmp/installed"
{ (cd "$src/include/radcol" && ls -- *.h); echo version.h; } | sort >"$tmp/expected"
diff "$tmp/expected" "$tmp/installed" >"$tmp/diff" ||
  { cat "$tmp/diff"; fail "installed headers differ from include/radcol/*.h + version.h (< missing, > extra)"; }
n=$(wc -l <"$tmp/installed")
echo "installed $n headers"

# 2. each installed header on its own
for h in "$inc"/radcol/*.h; do
  b=$(basename "$h")
  printf '#include "radcol/%s"\nint rc_api_test_unit;\n' "$b" >"$tmp/one.c"
  "$cc" -std=c11 -fsyntax-only -Wall -Wextra -Werror -I "$inc" "$tmp/one.c" \
    >"$tmp/cc.log" 2>&1 || { cat "$tmp/cc.log"; fail "radcol/$b does not compile alone against the installed headers"; }
done
echo "each installed header compiles alone"

# 3. nothing private is declared in an installed header
private='rc_plugin_(open|validate|info|find_model|close)[[:space:]]*\(|rc_plugin_handle|rc_[a-z0-9_]*parse[a-z0-9_]*[[:space:]]*\(|rc_utf8_len|rc_write_file'
if grep -nE "$private" "$inc"/radcol/*.h >"$tmp/private"; then
  cat "$tmp/private"; fail "an installed header declares a private function (above)"
fi
for name in rc_plugin_open rc_plugin_validate rc_plugin_info rc_plugin_find_model \
            rc_plugin_close rc_parse_real rc_parse_int rc_init_parse_assignment \
            rc_sim_method_parse rc_simulate_parse_guess rc_utf8_len rc_write_file; do
  grep -hE "$private" "$src"/src/core/plugin_loader.h "$src"/src/core/numbers.h "$src"/src/cli/forms.h \
    "$src"/src/core/utf8.h "$src"/src/io/outfile.h | grep -q "$name" ||
    fail "the pattern does not find $name in the private headers"
done
echo "no installed header declares the loader, a parser, rc_utf8_len or rc_write_file"

# 4. the engine never names a problem
"$exe" list >"$tmp/list" || fail "radcol list"
names=$(awk '/^[^ ]/ { print $1 }' "$tmp/list")
[ -n "$names" ] || fail "radcol list gave no problem names"
for m in $names; do
  alt=$(printf '%s' "$m" | tr '-' '_')
  spc=$(printf '%s' "$m" | tr '-' ' ')
  pat="$m|$alt|$spc"
  grep -rqiE "$pat" "$src/problems" || fail "the search does not find '$m' under problems/"
  if grep -rniE "$pat" "$src/src" >"$tmp/named"; then
    cat "$tmp/named"; fail "src/ names the built-in problem '$m' (above)"
  fi
done
echo "no file under src/ names a built-in problem ($(echo $names | tr '\n' ' '))"
echo "OK"

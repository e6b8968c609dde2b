#!/bin/sh
# bench_kit.sh - point-block callback time before and after the problem kit
# (include/radcol/kit.h): pendulum accel and four-bar baumgarte at n = 10^4
# elements of 3 stages (3e4 nodes; eval, jacobian, hessian each one sweep,
# best of 7).  scripts/bench_kit.c is built against each build tree's
# installed package (pkg-config --static) and run alternately, 3 rounds.
# Writes results/bench/kit.md.  A benchmark, not a test: nothing fails.
# SET crane: the crane's move to the kit instead (flat, track, servo,
# reduced, mintime; solves crane track and mintime), results/bench/crane-kit.md.
#
# usage: scripts/bench_kit.sh BEFORE_BUILD AFTER_BUILD [N [SET]]
#        (Release build trees of the two versions; N default 10000;
#        SET kit (default) or crane)
#        scripts/bench_kit.sh --help
set -eu
case "${1:-}" in -h|--help|"") sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
before=$1 after=$2 n=${3:-10000} set=${4:-kit}
case $set in
  kit) forms="pendulum:accel four-bar:baumgarte"
       solves="pendulum -f accel -n $n;four-bar -f baumgarte -n 1000"
       out=$src/results/bench/kit.md title="the problem kit" ;;
  crane) forms="crane:flat crane:track crane:servo crane:reduced crane:mintime"
       solves="crane;crane -f mintime --set u1max=10 --set u2max=3 --set thetamax=0.2 --set rmin=0.5 -n 150 --estimate local"
       out=$src/results/bench/crane-kit.md title="the crane's move to the kit" ;;
  *) echo "bench_kit.sh: SET = '$set': expected kit or crane" >&2; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/radcol-bench-kit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for v in before after; do
  eval "b=\$$v"
  cmake --install "$b" --prefix "$tmp/$v" >/dev/null
  PKG_CONFIG_PATH=$tmp/$v/lib/pkgconfig
  export PKG_CONFIG_PATH
  ${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L "$src/scripts/bench_kit.c" \
    -o "$tmp/bench_$v" $(pkg-config --static --cflags --libs radcol)
done
mkdir -p "$(dirname "$out")"
{
  echo "# Point-block callback time: before and after $title"
  echo
  echo "scripts/bench_kit.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -m),"
  echo "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(${CC:-cc} --version | head -n 1)."
  echo "n = $n elements x 3 stages; w from the problem's guess at each node;"
  echo "ms per sweep over all nodes (best of 7), 3 rounds alternating the two"
  echo "builds; a shared machine (load $(cut -d' ' -f1 /proc/loadavg)), so"
  echo "compare rounds, not single figures."
  echo
  echo "| build | formulation | nodes | eval ms | jacobian ms | hessian ms | total ms | ns per node |"
  echo "|---|---|---|---|---|---|---|---|"
  for round in 1 2 3; do
    for pf in $forms; do
      for v in before after; do
        echo "| $v $(cd "$tmp" && "./bench_$v" "${pf%%:*}" "${pf#*:}" "$n")"
      done
    done
  done
} >"$out"
/usr/bin/python3 - "$out" <<'PY' >>"$out"
import sys, collections
rows = [l.split('|') for l in open(sys.argv[1]) if l.startswith('| before') or l.startswith('| after')]
tot = collections.defaultdict(list)
for r in rows:
    build, form, total = r[1].strip(), r[2].strip(), float(r[7])
    tot[(form, build)].append(total)
print()
print("| formulation | before total ms (min of rounds) | after | after / before |")
print("|---|---|---|---|")
for form in dict.fromkeys(k[0] for k in tot):
    b, a = min(tot[(form, 'before')]), min(tot[(form, 'after')])
    print("| %s | %.2f | %.2f | %.2f |" % (form, b, a, a / b))
PY
# Solve level: eval_s of `radcol solve --json` (the time Ipopt spends in
# radcol's NLP callbacks, transcription included), min of 3 alternating runs.
{
  echo
  echo "Solve level: eval_s of \`radcol solve --json\` (all NLP callbacks,"
  echo "transcription included), min of 3 runs alternating the builds."
  echo
  echo "| solve | before eval_s | after eval_s | after / before | iterations before, after |"
  echo "|---|---|---|---|---|"
  IFS=';'
  for case in $solves; do
    IFS=' '
    for v in before after; do
      eval "m_$v=1e300"
    done
    for round in 1 2 3; do
      for v in before after; do
        eval "b=\$$v"
        # shellcheck disable=SC2086
        "$b/radcol" solve $case --json --quiet -o "$tmp/s.h5" >"$tmp/$v.json" ||
          [ $? -eq 1 ]
        e=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['eval_s'])" "$tmp/$v.json")
        eval "it_$v=\$(/usr/bin/python3 -c \"import json,sys; print(json.load(open(sys.argv[1]))['iterations'])\" \"$tmp/$v.json\")"
        eval "m_$v=\$(awk -v a=\"\$m_$v\" -v b=\"$e\" 'BEGIN { print (b < a ? b : a) }')"
      done
    done
    awk -v a="$m_before" -v b="$m_after" -v s="$case" -v i="$it_before, $it_after" \
      'BEGIN { printf "| %s | %.4f | %.4f | %.2f | %s |\n", s, a, b, b / a, i }'
  done
} >>"$out"
cat "$out"

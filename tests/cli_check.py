"""What the Python CLI tests share: failures collected by check(), radcol
run as a subprocess with its exit status checked, and the case verdict."""
import subprocess
import sys

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(radcol, *args, want=0, timeout=300):
    p = subprocess.run([radcol, *args], capture_output=True, text=True,
                       timeout=timeout)
    check(p.returncode == want,
          "radcol %s exited %d, expected %d\nstderr: %s" %
          (" ".join(args), p.returncode, want, p.stderr.strip()[-2000:]))
    return p


def verdict(case):
    """The exit status of a case: 1 after any failed check, else 0."""
    if FAILS:
        print("%d failure(s)" % len(FAILS), file=sys.stderr)
        return 1
    print("PASS", case)
    return 0

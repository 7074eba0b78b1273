#!/usr/bin/python3
"""How ctest runs one pytest file (cmake/qipu_pytest.cmake):

    run_pytest.py --name CTEST_NAME --allowed-skips tests/README.md -- \
        PYTEST_ARGS...

runs pytest in this process with a plugin that records every test's
outcome and every skip with its reason -- also a skip of a whole module at
collection (pytest.importorskip at module level), which pytest itself
reports as "no tests collected" (exit 5) -- and exits:

- with pytest's status when a test failed or pytest could not run;
- 1 when the file has no test at all and nothing was skipped;
- 77 (SKIP_RETURN_CODE: ctest says "Skipped") when every test of the file
  was skipped, the module at collection or each test on its own;
- 0 when tests passed, also when some others were skipped: then the skips
  and their reasons are printed last, so that they are not silent;
- under CI=true, 1 instead of 77 or 0 when a skip's reason is not on the
  list of allowed skips in tests/README.md (the section between the
  markers `<!-- allowed-skips: begin -->` and `<!-- allowed-skips: end
  -->`; each entry names a ctest test glob and a text the reason must
  contain). A skip on the CI machine is a missing package or a broken
  setup unless it is one of the few listed there.

The same list governs GoogleTest's GTEST_SKIP under CI=true
(tests/common/gtest_main.cc), and allowed_skips.py reads it for both.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import allowed_skips  # noqa: E402

SKIP_EXIT = 77


class Outcomes:
    """A pytest plugin: counts and skip reasons of one session."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.xfailed = 0
        # (node id, reason) of each skip, at collection or of a test.
        self.skips = []

    @staticmethod
    def _reason(report):
        longrepr = report.longrepr
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            reason = str(longrepr[2])
        else:
            reason = str(longrepr)
        return reason[len("Skipped: "):] if reason.startswith("Skipped: ") \
            else reason

    def pytest_collectreport(self, report):
        if report.skipped:
            self.skips.append((report.nodeid, self._reason(report)))
        elif report.failed:
            self.failed += 1

    def pytest_runtest_logreport(self, report):
        if hasattr(report, "wasxfail"):
            if report.when == "call" or report.skipped:
                self.xfailed += 1
            return
        if report.skipped:
            self.skips.append((report.nodeid, self._reason(report)))
        elif report.failed:
            self.failed += 1
        elif report.passed and report.when == "call":
            self.passed += 1


def parse(argv):
    name, allowed, rest = None, None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest = argv[i + 1:]
            break
        if a in ("--name", "--allowed-skips") and i + 1 < len(argv):
            if a == "--name":
                name = argv[i + 1]
            else:
                allowed = argv[i + 1]
            i += 2
            continue
        sys.exit(f"run_pytest.py: unknown argument {a!r} (usage: --name "
                 f"NAME --allowed-skips README -- PYTEST_ARGS...)")
    if not name or not allowed or not rest:
        sys.exit("run_pytest.py: usage: --name NAME --allowed-skips README "
                 "-- PYTEST_ARGS...")
    return name, allowed, rest


def main(argv):
    name, allowed_path, pytest_args = parse(argv)
    try:
        import pytest
    except ImportError:
        print(f"run_pytest.py: {name}: pytest is missing for "
              f"{sys.executable} (Debian package python3-pytest; "
              f"ops/bootstrap installs it)")
        return finish(name, allowed_path, [(name, "pytest is missing")],
                      passed=0)
    outcomes = Outcomes()
    status = int(pytest.main(["-rs"] + pytest_args, plugins=[outcomes]))
    sys.stdout.flush()
    if status not in (0, 5) or outcomes.failed:
        return status or 1
    if status == 5 and not outcomes.skips:
        print(f"run_pytest.py: {name}: no tests collected from "
              f"{' '.join(pytest_args)}")
        return 1
    return finish(name, allowed_path, outcomes.skips, outcomes.passed)


def finish(name, allowed_path, skips, passed):
    """The exit status of a run without failures (see the file comment)."""
    if not skips:
        return 0
    print(f"\nrun_pytest.py: {name}: {passed} passed, {len(skips)} "
          f"skipped:")
    for node, reason in skips:
        print(f"  SKIPPED {node}: {reason}")
    if os.environ.get("CI") == "true":
        try:
            entries = allowed_skips.read(allowed_path)
        except allowed_skips.Error as e:
            print(f"run_pytest.py: {name}: CI=true: {e}")
            return 1
        unlisted = [(node, reason) for node, reason in skips
                    if not allowed_skips.allowed(entries, name, reason)]
        if unlisted:
            print(f"run_pytest.py: {name}: CI=true: a skip on the CI machine "
                  f"fails the run unless its reason is on the list of "
                  f"allowed skips in {allowed_path}; not listed:")
            for node, reason in unlisted:
                print(f"  {node}: {reason}")
            return 1
        print(f"run_pytest.py: {name}: CI=true: every skip is on the list "
              f"in {allowed_path}")
    return SKIP_EXIT if passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

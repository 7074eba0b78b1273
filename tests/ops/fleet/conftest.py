"""pytest setup of the fleet tests (tests/ops/fleet, run by ctest).

ctest runs each file as `/usr/bin/python3 -m pytest FILE` with
QIPU_SOURCE_DIR and QIPU_BINARY_DIR set (tests/ops/CMakeLists.txt). When
every test of a run was skipped (Slurm, munge, Prometheus, python3-yaml or
a binary missing; pytest prints the reason with -rs), the run exits 77,
which ctest reports as "Skipped".
"""

import pytest

_outcomes = {"passed": 0, "failed": 0, "skipped": 0}


def pytest_configure(config):
    # Always show why tests were skipped.
    if "s" not in (config.option.reportchars or ""):
        config.option.reportchars = (config.option.reportchars or "") + "s"


def pytest_runtest_logreport(report):
    if report.skipped:
        _outcomes["skipped"] += 1
    elif report.failed:
        _outcomes["failed"] += 1
    elif report.passed and report.when == "call":
        _outcomes["passed"] += 1


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if (exitstatus == 0 and _outcomes["skipped"] > 0 and
            _outcomes["passed"] == 0 and _outcomes["failed"] == 0):
        session.exitstatus = 77

"""pytest setup of the clients/python tests (run by ctest, label python).

ctest runs each test file as `/usr/bin/python3 -m pytest FILE` with
PYTHONPATH=<build>/python, QIPU_SOURCE_DIR and QIPU_BINARY_DIR set
(clients/python/CMakeLists.txt). When every test of a run was skipped (a
Python module, a binary or the shared corpus missing: pytest prints the
reason with -rs), the run exits 77, which ctest reports as "Skipped".
"""

import os
import tempfile

import pytest

import qipu_testing

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


@pytest.fixture(scope="module")
def tmp_root():
    with tempfile.TemporaryDirectory(prefix="qipu_py_") as d:
        yield d


@pytest.fixture(scope="module")
def fox_pro_server(tmp_root):
    """A coordinator with the fox-pro corpus imported (module scope)."""
    qipu_testing.need_module("grpc")
    corpus = qipu_testing.corpus_dir("fox-pro")
    db = os.path.join(tmp_root, "db")
    c = qipu_testing.Coordinator(db, tmp_root).start()
    try:
        summary = qipu_testing.import_corpus(c, corpus)
        c.import_summary = summary
        yield c
    finally:
        status = c.stop()
        assert status == 0, f"coordinator exited {status}:\n{c.log_tail()}"

"""pytest setup of the python tests (run by ctest, label python).

ctest runs each test file through tests/common/run_pytest.py (qipu_pytest
in cmake/qipu_pytest.cmake) with PYTHONPATH=<build>/python,
QIPU_SOURCE_DIR and QIPU_BINARY_DIR set (python/CMakeLists.txt).
It reports a file whose every test was skipped (a Python module, a binary
or the shared corpus missing) as "Skipped" and prints the reasons of every
skip; under CI=true a skip not listed in tests/README.md fails the run.
"""

import os
import tempfile

import pytest

import qipu_testing


def pytest_configure(config):
    # Always show why tests were skipped (also when run by hand).
    if "s" not in (config.option.reportchars or ""):
        config.option.reportchars = (config.option.reportchars or "") + "s"


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

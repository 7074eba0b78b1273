"""pytest setup of the fleet tests (tests/ops/fleet, run by ctest).

ctest runs each file through tests/common/run_pytest.py (qipu_pytest in
cmake/qipu_pytest.cmake) with QIPU_SOURCE_DIR and QIPU_BINARY_DIR set.
It reports a file whose every test was skipped (Slurm, munge, Prometheus,
python3-yaml, root or a binary missing) as "Skipped" and prints the
reasons of every skip; under CI=true a skip not listed in tests/README.md
fails the run.
"""


def pytest_configure(config):
    # Always show why tests were skipped (also when run by hand).
    if "s" not in (config.option.reportchars or ""):
        config.option.reportchars = (config.option.reportchars or "") + "s"

"""pytest setup of the browser test: the fleet tests' hooks
(tests/ops/fleet/conftest.py: skip reasons shown). ctest runs it through
tests/common/run_pytest.py, which reports a file whose every test was
skipped as "Skipped" (cmake/qipu_pytest.cmake)."""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "qipu_fleet_conftest",
    os.path.join(os.path.dirname(__file__), "../../ops/fleet/conftest.py"))
_fleet = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fleet)

pytest_configure = _fleet.pytest_configure

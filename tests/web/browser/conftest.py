"""pytest setup of the browser test: the fleet tests' hooks
(tests/ops/fleet/conftest.py: skip reasons shown, exit 77 when every test
was skipped, which ctest reports as "Skipped")."""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "qipu_fleet_conftest",
    os.path.join(os.path.dirname(__file__), "../../ops/fleet/conftest.py"))
_fleet = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fleet)

pytest_configure = _fleet.pytest_configure
pytest_runtest_logreport = _fleet.pytest_runtest_logreport
pytest_sessionfinish = _fleet.pytest_sessionfinish

"""The test harness's own test (ctest TestHarness.Skips): how skips show
in ctest, with and without CI=true.

- run_pytest.py over small pytest files written here: a module skipped
  at import exits 77 (ctest: "Skipped"), not pytest's 5; tests skipped
  one by one, all of them, exit 77; some skipped beside passing ones exit
  0 with the skips printed; a file without tests, a failing test and a
  file that does not import fail; under CI=true every skip fails unless
  an entry of the list names the test (glob) and a text of its reason.
- qipu_gtest_main (gtest_main.cc) over qipu_skip_sample
  (skip_sample_test.cc): a GTEST_SKIP prints "[  SKIPPED ]" (ctest's
  skip pattern for discovered tests) and exits 0; under CI=true one whose
  reason is not on the list fails instead, naming the list.

Each case runs the real script or binary as a process, with its own list
file (run_pytest.py's --allowed-skips; QIPU_ALLOWED_SKIPS for the
binary).
"""

import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, "run_pytest.py")
BINARY_DIR = os.environ.get("QIPU_BINARY_DIR", "")

# A list file: prose and an entry outside the markers (which does not
# count), then the section.
LIST = """\
before the section
- `*` `an unlisted reason` -- outside the markers: not an entry
<!-- allowed-skips: begin -->
prose that is not an entry
- `Sample.*` `a listed reason` -- the pytest samples
- `SkipSample.SkipsWithAListed*` `the sample's listed reason` -- the binary
<!-- allowed-skips: end -->
"""


@pytest.fixture
def allowed(tmp_path):
    path = tmp_path / "allowed.md"
    path.write_text(LIST)
    return str(path)


def env_for(ci):
    env = dict(os.environ)
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    return env


def run_pytest(tmp_path, allowed, name, body, ci=False):
    """run_pytest.py over a file holding `body`: (exit status, output)."""
    f = tmp_path / "test_sample.py"
    f.write_text(textwrap.dedent(body))
    p = subprocess.run(
        [sys.executable, RUN, "--name", name, "--allowed-skips", allowed,
         "--", "-q", "-p", "no:cacheprovider", str(f)],
        env=env_for(ci), cwd=str(tmp_path), capture_output=True, text=True,
        timeout=60)
    return p.returncode, p.stdout + p.stderr


MODULE_SKIP = """
    import pytest
    pytest.importorskip("qipu_no_such_module", reason="{reason}")

    def test_never_runs():
        pass
"""

SOME_SKIP = """
    import pytest

    def test_passes():
        assert 1 + 1 == 2

    def test_skips():
        pytest.skip("{reason}")
"""

ALL_SKIP = """
    import pytest

    def test_one():
        pytest.skip("{reason}")

    def test_two():
        pytest.skip("{reason}")
"""


def test_a_module_skipped_at_import_is_skipped_not_failed(tmp_path, allowed):
    status, out = run_pytest(tmp_path, allowed, "Sample.Module",
                             MODULE_SKIP.format(reason="an unlisted reason"))
    assert status == 77, out
    assert "SKIPPED" in out and "an unlisted reason" in out, out


def test_tests_all_skipped_one_by_one_are_skipped(tmp_path, allowed):
    status, out = run_pytest(tmp_path, allowed, "Sample.All",
                             ALL_SKIP.format(reason="an unlisted reason"))
    assert status == 77, out
    assert "1 passed" not in out and out.count("an unlisted reason") >= 2


def test_some_skipped_pass_and_print_their_reasons(tmp_path, allowed):
    status, out = run_pytest(tmp_path, allowed, "Sample.Some",
                             SOME_SKIP.format(reason="an unlisted reason"))
    assert status == 0, out
    tail = out[out.index("run_pytest.py: Sample.Some: 1 passed, 1 skipped"):]
    assert "SKIPPED" in tail and "test_skips: an unlisted reason" in tail


def test_failures_and_empty_or_broken_files_fail(tmp_path, allowed):
    status, out = run_pytest(tmp_path, allowed, "Sample.Fails", """
        import pytest

        def test_fails():
            assert 1 + 1 == 3

        def test_skips():
            pytest.skip("a listed reason")
    """)
    assert status == 1, out
    status, out = run_pytest(tmp_path, allowed, "Sample.Empty",
                             "import os\n")
    assert status == 1, out
    assert "no tests collected" in out, out
    status, out = run_pytest(tmp_path, allowed, "Sample.Broken",
                             "import qipu_no_such_module\n")
    assert status not in (0, 77), out
    assert "qipu_no_such_module" in out, out


@pytest.mark.parametrize("body", [MODULE_SKIP, SOME_SKIP, ALL_SKIP],
                         ids=["module", "some", "all"])
def test_under_ci_an_unlisted_skip_fails(tmp_path, allowed, body):
    status, out = run_pytest(tmp_path, allowed, "Sample.Ci",
                             body.format(reason="an unlisted reason"),
                             ci=True)
    assert status == 1, out
    assert "CI=true" in out and "not listed" in out, out
    assert "an unlisted reason" in out.split("not listed")[1], out


@pytest.mark.parametrize("body,want", [(MODULE_SKIP, 77), (SOME_SKIP, 0),
                                       (ALL_SKIP, 77)],
                         ids=["module", "some", "all"])
def test_under_ci_a_listed_skip_is_allowed(tmp_path, allowed, body, want):
    status, out = run_pytest(
        tmp_path, allowed, "Sample.Ci",
        body.format(reason="skipped for a listed reason here"), ci=True)
    assert status == want, out
    assert "every skip is on the list" in out, out


def test_under_ci_the_glob_must_match_the_test_too(tmp_path, allowed):
    status, out = run_pytest(tmp_path, allowed, "Other.Test",
                             ALL_SKIP.format(reason="a listed reason"),
                             ci=True)
    assert status == 1, out
    # The entry outside the markers does not count either.
    status, out = run_pytest(tmp_path, allowed, "Sample.Outside",
                             ALL_SKIP.format(reason="an unlisted reason"),
                             ci=True)
    assert status == 1, out


def test_under_ci_a_list_without_its_section_fails(tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("no markers here\n")
    status, out = run_pytest(tmp_path, str(path), "Sample.NoList",
                             ALL_SKIP.format(reason="a listed reason"),
                             ci=True)
    assert status == 1, out
    assert "has no section between" in out, out


def sample(test, ci, allowed):
    """qipu_skip_sample with --gtest_filter=SkipSample.<test>."""
    path = os.path.join(BINARY_DIR, "tests", "qipu_skip_sample")
    if not BINARY_DIR or not os.access(path, os.X_OK):
        pytest.skip(f"{path} is not built")
    env = env_for(ci)
    env["QIPU_ALLOWED_SKIPS"] = allowed
    p = subprocess.run([path, f"--gtest_filter=SkipSample.{test}"], env=env,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def test_gtest_skips_show_as_skipped_without_ci(allowed):
    for test in ("SkipsWithAListedReason", "SkipsWithAnUnlistedReason"):
        status, out = sample(test, False, allowed)
        assert status == 0, out
        assert "[  SKIPPED ]" in out, out
    status, out = sample("Passes", False, allowed)
    assert status == 0 and "[       OK ]" in out, out


def test_gtest_under_ci_an_unlisted_skip_fails(allowed):
    status, out = sample("SkipsWithAnUnlistedReason", True, allowed)
    assert status == 1, out
    # No "[  SKIPPED ]" left for ctest's skip pattern to match.
    assert "[  SKIPPED ]" not in out, out
    assert "[  FAILED  ] SkipSample.SkipsWithAnUnlistedReason" in out, out
    assert ("CI=true: SkipSample.SkipsWithAnUnlistedReason was skipped "
            "(the sample's unlisted reason)") in out, out
    assert allowed in out, out


def test_gtest_under_ci_a_listed_skip_and_a_pass_are_fine(allowed):
    status, out = sample("SkipsWithAListedReason", True, allowed)
    assert status == 0, out
    assert "[  SKIPPED ]" in out, out
    status, out = sample("Passes", True, allowed)
    assert status == 0 and "[       OK ]" in out, out


def test_gtest_under_ci_a_list_without_its_section_fails(tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("no markers here\n")
    status, out = sample("SkipsWithAListedReason", True, str(path))
    assert status == 1, out
    assert "the list of allowed skips cannot be read" in out, out
    assert "has no section between" in out, out

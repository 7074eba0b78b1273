"""Helpers of the python tests: the built binaries, the shared
fox-pro corpus, a real qipu-coordinator process on 127.0.0.1, `qipu` runs.

Everything a test needs but cannot find (a binary not built, the corpus
absent, a Python module missing) skips the test with the reason.
"""

import json
import os
import re
import subprocess
import time

import pytest

SOURCE_DIR = os.environ.get(
    "QIPU_SOURCE_DIR",
    os.path.abspath(os.path.join(os.path.dirname(__file__), "../../..")))
BINARY_DIR = os.environ.get("QIPU_BINARY_DIR", "")
PYTHON = "/usr/bin/python3"


def need_module(name):
    """Imports `name` or skips the calling test (module) with the reason."""
    return pytest.importorskip(
        name, reason=f"Python module {name} is missing (Debian: "
        f"python3-{name.split('.')[0]}; ops/bootstrap installs it)")


def binary(rel):
    """The path of a built binary (rel to the build dir) or a skip."""
    if not BINARY_DIR:
        pytest.skip("QIPU_BINARY_DIR is not set (run through ctest)")
    path = os.path.join(BINARY_DIR, rel)
    if not os.access(path, os.X_OK):
        pytest.skip(f"{path} is not built")
    return path


def qipu_bin():
    return binary("ops/qipu")


def coordinator_bin():
    return binary("coordinator/qipu-coordinator")


def corpus_dir(name="fox-pro"):
    """The shared corpus `name` (../shared/corpora/<name> next to the
    checkout, or /work/shared/corpora/<name>), or a skip."""
    for root in (os.path.join(SOURCE_DIR, "..", "shared"), "/work/shared"):
        path = os.path.join(root, "corpora", name)
        if os.path.isdir(path):
            return os.path.abspath(path)
    pytest.skip(f"the {name} corpus is absent (neither {SOURCE_DIR}/../shared/"
                f"corpora/{name} nor /work/shared/corpora/{name})")


def run_qipu(args, timeout=300):
    """Runs `qipu args...` to its end; fails the test unless it exits 0.
    Returns its stdout."""
    cmd = [qipu_bin()] + [str(a) for a in args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, (
        f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def last_json(out):
    """The last non-empty line of `out`, parsed as JSON."""
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines, "no output"
    return json.loads(lines[-1])


class Coordinator:
    """qipu-coordinator on a database directory, listening on 127.0.0.1
    with a port the kernel picks (read from its "listening on" line)."""

    def __init__(self, db_dir, log_dir, flags=()):
        self.db_dir = db_dir
        self.log_dir = log_dir
        # Extra flags (TLS, --auth); with --tls-cert the readiness probe is
        # the "listening on" line alone (printed once the server serves).
        self.flags = list(flags)
        self.process = None
        self.address = None

    def start(self, timeout=60):
        out_path = os.path.join(self.log_dir, "coordinator.out")
        self._out = open(out_path, "w+")
        self._err = open(os.path.join(self.log_dir, "coordinator.log"), "w")
        self.process = subprocess.Popen(
            [coordinator_bin(), "--db", self.db_dir, "--listen",
             "127.0.0.1:0", "--log-level", "warn"] + self.flags,
            stdout=self._out, stderr=self._err)
        deadline = time.monotonic() + timeout
        while True:
            with open(out_path) as f:
                m = re.search(r"listening on (\S+:\d+)", f.read())
            if m:
                self.address = m.group(1)
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("qipu-coordinator did not start:\n" +
                                   self.log_tail())
            time.sleep(0.01)  # Polling: the line comes once the server is up.
        if "--tls-cert" in self.flags:
            return self
        import grpc
        ch = grpc.insecure_channel(self.address)
        try:
            grpc.channel_ready_future(ch).result(
                timeout=max(1.0, deadline - time.monotonic()))
        finally:
            ch.close()
        return self

    def log_tail(self, chars=4000):
        with open(os.path.join(self.log_dir, "coordinator.log")) as f:
            return f.read()[-chars:]

    def stop(self, timeout=60):
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._out.close()
        self._err.close()
        status = self.process.returncode
        self.process = None
        return status


def import_corpus(coordinator, corpus):
    """Imports `corpus` through the coordinator; the summary JSON."""
    return last_json(run_qipu(["import", "--server", coordinator.address,
                               corpus, "--json", "--no-progress"]))

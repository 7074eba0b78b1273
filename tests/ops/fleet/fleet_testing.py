"""Helpers of the fleet tests: the built binaries, free ports, a real
qipu-coordinator process on 127.0.0.1 (RocksDB in a temp dir), `qipu`
runs, and waiting for a condition with a deadline.

Whatever a test needs but cannot find (a binary not built, a Debian
package not installed) skips the test with the reason and the package that
provides it (ops/bootstrap installs them all).
"""

import json
import os
import re
import shutil
import socket
import subprocess
import time

import pytest

SOURCE_DIR = os.environ.get(
    "QIPU_SOURCE_DIR",
    os.path.abspath(os.path.join(os.path.dirname(__file__), "../../..")))
BINARY_DIR = os.environ.get("QIPU_BINARY_DIR", "")


def binary(rel):
    """The path of a built binary (relative to the build dir) or a skip."""
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


def worker_bin():
    return binary("worker/qipu-worker")


def need_program(name, package, dirs=("/usr/sbin", "/usr/bin")):
    """The path of program `name` or a skip naming its Debian package."""
    path = shutil.which(name, path=os.pathsep.join(
        list(dirs) + [os.environ.get("PATH", "")]))
    if path is None:
        pytest.skip(f"{name} is missing (Debian package {package}; "
                    f"ops/bootstrap installs it)")
    return path


def need_module(name, package):
    """Imports Python module `name` or skips with its Debian package."""
    return pytest.importorskip(
        name, reason=f"Python module {name} is missing (Debian package "
        f"{package} for /usr/bin/python3; ops/bootstrap installs it)")


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (for daemons that
    cannot be told to pick one themselves: Slurm, Prometheus)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout, what, interval=0.05):
    """Polls `predicate` until it returns a true value, which it returns;
    fails the test with `what` after `timeout` seconds. `what` may be a
    callable giving the message (e.g. with logs)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            msg = what() if callable(what) else what
            pytest.fail(f"timed out after {timeout} s waiting for {msg}")
        time.sleep(interval)  # Polling a condition, not waiting out a time.


def run(cmd, timeout=60, env=None, check=True):
    """Runs `cmd` to its end; with `check`, fails the test unless it exits
    0. Returns the CompletedProcess (text)."""
    cmd = [str(c) for c in cmd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=env)
    if check:
        assert p.returncode == 0, (
            f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def run_qipu(args, timeout=60):
    """Runs `qipu args...`; its stdout (fails the test unless it exits 0)."""
    return run([qipu_bin()] + list(args), timeout=timeout).stdout


def last_json(out):
    """The last non-empty line of `out`, parsed as JSON."""
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines, "no output"
    return json.loads(lines[-1])


def submit_job(address, games, *flags):
    """`qipu job submit` of `games` 9x9 games; the job id."""
    out = run_qipu(["job", "submit", "--server", address, "--games", games,
                    "--size", 9, "--json"] + list(flags))
    return int(last_json(out)["job"])


def job_status(address, job):
    """`qipu job status --json` of one job (requested, done, state...)."""
    return last_json(run_qipu(["job", "status", "--server", address,
                               "--job", job, "--json"]))


def stored_games(address, job):
    """How many games of `job` the coordinator's query engine finds
    (`qipu query results --job`): each stored game counts once."""
    return int(last_json(run_qipu(["query", "results", "--server", address,
                                   "--job", job, "--json"]))["games"])


def health_status(address, timeout=5):
    """grpc.health.v1.Health/Check of the whole server (service ""), as a
    Kubernetes `grpc:` probe asks it: 1 SERVING, 2 NOT_SERVING."""
    grpc = need_module("grpc", "python3-grpcio")
    with grpc.insecure_channel(address) as ch:
        check = ch.unary_unary("/grpc.health.v1.Health/Check")
        # HealthCheckRequest{service: ""} is the empty message; the reply
        # HealthCheckResponse{status} is field 1, a varint.
        reply = check(b"", timeout=timeout)
    assert len(reply) == 2 and reply[0] == 0x08, f"reply {reply!r}"
    return reply[1]


class Coordinator:
    """qipu-coordinator on a fresh database in `root`, gRPC and metrics on
    127.0.0.1 ports it picks itself (read from its first lines); gRPC on
    `listen` when given (HOST:0 for another interface)."""

    def __init__(self, root, extra_args=(), listen="127.0.0.1:0"):
        self.root = root
        self.extra_args = [str(a) for a in extra_args]
        self.listen = listen
        self.process = None
        self.address = None
        self.metrics_address = None

    def start(self, timeout=60):
        os.makedirs(self.root, exist_ok=True)
        self._out_path = os.path.join(self.root, "coordinator.out")
        self._log_path = os.path.join(self.root, "coordinator.log")
        with open(self._out_path, "w") as out, \
                open(self._log_path, "w") as log:
            self.process = subprocess.Popen(
                [coordinator_bin(), "--db", os.path.join(self.root, "db"),
                 "--listen", self.listen, "--metrics", "127.0.0.1:0",
                 "--log-level", "info"] + self.extra_args,
                stdout=out, stderr=log)

        def started():
            with open(self._out_path) as f:
                text = f.read()
            m = re.search(r"listening on (\S+:\d+)", text)
            n = re.search(r"metrics on (\S+:\d+)", text)
            if m and n:
                return m.group(1), n.group(1)
            if self.process.poll() is not None:
                pytest.fail("qipu-coordinator exited at start:\n" +
                            self.log_tail())
            return None

        self.address, self.metrics_address = wait_for(
            started, timeout, lambda: "qipu-coordinator to start:\n" +
            self.log_tail())
        wait_for(lambda: self._serving(), timeout,
                 "the coordinator's health check to say SERVING")
        return self

    def _serving(self):
        try:
            return health_status(self.address, timeout=2) == 1
        except Exception:  # Not accepting calls yet.
            return False

    def metrics_text(self):
        """The /metrics page, as Prometheus scrapes it."""
        import urllib.request
        with urllib.request.urlopen(
                f"http://{self.metrics_address}/metrics", timeout=10) as r:
            return r.read().decode()

    def log_tail(self, chars=4000):
        with open(self._log_path) as f:
            return f.read()[-chars:]

    def stop(self, timeout=60):
        """SIGTERM, then SIGKILL after `timeout`; the exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        status = self.process.returncode
        self.process = None
        return status


def metric_names(text):
    """The metric names of a Prometheus text page (with the _bucket, _sum
    and _count series of histograms and summaries)."""
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            names.add(re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0))
    return names

#!/usr/bin/python3
"""qipu soak run: self-play ingest for a long stretch while workers and the
coordinator are killed on a schedule; then every game is checked stored
exactly once and the coordinator's memory flat across its lives.

What it runs (all on 127.0.0.1, every process started here and stopped by
its pid):

- one `qipu-coordinator` on a database in `--dir` (default: a temporary
  directory, removed at the end unless `--keep`), on a port the kernel
  picks at the first start and the same port at every restart;
- `--workers` `qipu-worker` processes, each with its own spool;
- a job feeder: `qipu job submit` of `--job-games` games whenever fewer
  than `--jobs-ahead` jobs are unfinished; jobs cycle through the
  `--policy` and `--size` values given, each with its own seed.

For `--minutes` (or `--seconds`), every `--kill-worker-every` seconds a
random worker gets SIGKILL and a replacement starts (every other time on
the killed worker's spool, as a restarted container would, which uploads
what the killed one had not; otherwise on a fresh spool, as a new node
would, and the killed worker's lease expires and its games are played
again), and every `--kill-coordinator-every` seconds the coordinator gets
SIGKILL and is restarted on the same database and port (each life lasts
that long). Its resident set (/proc/PID/status VmRSS) is sampled every
second, and its RocksDB and position-index bytes from its metrics page
every ten seconds (with VmRSS and RssAnon of that moment).

Then the kills stop, no more jobs are submitted, every job is waited for
to finish, the workers are stopped with SIGTERM, and it checks, against
the still running coordinator:

- nothing lost: every job (all of them, by `qipu job status`: also one
  whose submission was cut off by a kill) is done with done == requested
  and none rejected, and `qipu query results --job J` finds exactly its
  games; and every game the coordinator ever acknowledged to a worker
  (each worker's `--ack-log`, workers/<name>.acks) is stored, the copy
  acknowledged or an older one -- not one stored after its ack, which
  would be a game acknowledged, lost and played again
  (tests/ops/fleet/ack_check.py);
- nothing doubled: the exported games (`qipu export --format jsonl`) are
  as many as the jobs asked for, with distinct ids, each job's indices
  0..requested-1 once; `qipu query results|ko|cycles` and the openings
  root (per board size) count each game once;
- memory flat: at equal ages (the settle age -- 60 s or half a life --
  and the end of a full life) the heap (RssAnon) of no life after the
  second exceeds the second's by more than `--rss-margin-pct` percent
  plus `--rss-slack-mb` (the second is the first life to begin, as every
  later one does, with a crash recovery; when no later life reaches the
  settle age, the second is compared with the first). VmRSS, the block
  cache's usage (the memtables are charged to it) and the index buffer
  are reported next to it (rss.csv every second, memory.csv at each
  scrape).

It prints a human summary (to stderr with `--json`), the JSON summary with
`--json` (also written to summary.json in the run directory), and exits 0
when every check held, 1 on a violation (each one printed, saying what), 2
on bad arguments, 77 when a binary or a Debian package is missing.

Binaries from `--build-dir` (default $QIPU_BINARY_DIR): ops/qipu,
coordinator/qipu-coordinator, worker/qipu-worker. Debian's python3 with
python3-grpcio and python3-pytest (the helpers in tests/ops/fleet/ are
reused: fleet_testing.py). See ops/soak/README.md.
"""

import argparse
import datetime
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "ops", "fleet"))

try:
    import pytest  # fleet_testing reports through pytest's outcomes.
    import fleet_testing as ft
    import soak_checks
    from soak_checks import mb, metric_sum
except ImportError as e:  # pragma: no cover - depends on the host
    print(f"soak: {e} (Debian packages python3-pytest and python3-grpcio; "
          f"ops/bootstrap installs them)", file=sys.stderr)
    sys.exit(77)

# fleet_testing fails and skips with pytest's outcome exceptions
# (BaseException subclasses); outside pytest they are ordinary errors.
Failed = pytest.fail.Exception
Skipped = pytest.skip.Exception

# Seconds between RSS samples, metrics scrapes and job polls.
RSS_EVERY = 1.0
METRICS_EVERY = 10.0
POLL_EVERY = 2.0
PROGRESS_EVERY = 30.0
TICK = 0.2


class Fatal(Exception):
    """A failure after which the run cannot go on (the coordinator does not
    come back); the checks are skipped."""


def now():
    return time.monotonic()


def read_rss_kb(pid, field="VmRSS"):
    """/proc/PID/status's `field` (VmRSS, RssAnon...) in kB, or None when
    the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def read(path, tail=None):
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    return text[-tail:] if tail else text


class Worker:
    """One qipu-worker process in a slot; generation g of slot s is named
    w<s>-g<g>."""

    def __init__(self, soak, slot, generation, spool):
        self.slot = slot
        self.generation = generation
        self.name = f"w{slot}-g{generation}"
        self.spool = spool
        self.log = os.path.join(soak.root, "workers", f"{self.name}.log")
        # Every game the coordinator acknowledged to it (the "every acked
        # game is stored" check, soak_checks.check_acks).
        self.ack_log = os.path.join(soak.root, "workers", f"{self.name}.acks")
        args = soak.args
        cmd = [ft.worker_bin(), "--coordinator", soak.address,
               "--threads", args.threads, "--name", self.name,
               "--spool", spool, "--lease-games", args.lease_games,
               "--rpc-timeout", 3, "--drain-timeout", 60,
               "--ack-log", self.ack_log, "--log-level", "info"]
        if args.worker_nice:
            # A command, not a preexec_fn: this process has gRPC's threads
            # (the health checks), and Popen with a preexec_fn forks
            # through their fork handlers, which can hang.
            cmd = ["nice", "-n", args.worker_nice] + cmd
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [str(c) for c in cmd], stdout=log, stderr=subprocess.STDOUT)

    def stopped_line(self):
        """The worker's own count at its graceful stop, or None."""
        m = re.search(
            r"stopped; (\d+) lease\(s\), (\d+) game\(s\) played, (\d+) "
            r"stored, (\d+) duplicate, (\d+) rejected, (\d+) left in the "
            r"spool", read(self.log))
        if not m:
            return None
        return dict(zip(("leases", "played", "stored", "duplicate",
                         "rejected", "left"), (int(x) for x in m.groups())))


class Life:
    """One run of the coordinator process, start to kill or stop."""

    def __init__(self, number, pid, started, restart_s, games_at_start):
        self.number = number
        self.pid = pid
        self.started = started
        self.restart_s = restart_s
        self.games_at_start = games_at_start
        self.games_at_end = None
        self.ended = None
        self.ended_by = None
        # (age in seconds, RSS kB), every RSS_EVERY seconds.
        self.rss = []
        # (age, RSS kB, {memtables, index_buffer, block_cache} bytes,
        # anonymous RSS kB) at each metrics scrape, the RSS read right after
        # the page.
        self.metrics = []
        # Age at which the drain began, in the last life only.
        self.drain_age = None

    def point_at(self, age):
        """The first metrics sample at or after `age`, or None."""
        return next((m for m in self.metrics if m[0] >= age), None)

    def point_until(self, age):
        """The last metrics sample at or before `age`, or None."""
        return next((m for m in reversed(self.metrics) if m[0] <= age), None)


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.violations = []
        self.events = []
        self.coordinator = None
        self.address = None
        self.lives = []
        self.workers = {}
        self.retired_workers = []
        # job id -> {"games", "size", "policy", "seed"} of acknowledged
        # submissions.
        self.jobs = {}
        self.job_status = {}
        self.submit_failures = 0
        self.worker_kills = 0
        self.coordinator_kills = 0
        self.games_done = 0
        self.kill_phase_s = None
        self.drain_s = None
        self.checks = {}
        self._spools = 0

    # ---- helpers --------------------------------------------------------

    def note(self, what):
        t = round(now() - self.t0, 1)
        self.events.append({"t": t, "what": what})
        if self.args.verbose:
            print(f"soak [{t:7.1f} s] {what}", file=sys.stderr, flush=True)

    def violation(self, what):
        self.violations.append(what)
        print(f"soak: VIOLATION: {what}", file=sys.stderr, flush=True)

    def qipu(self, args, timeout=60):
        """Runs `qipu args...`: (exit status, stdout, stderr)."""
        try:
            p = ft.run([ft.qipu_bin()] + list(args), timeout=timeout,
                       check=False)
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {timeout} s"
        return p.returncode, p.stdout, p.stderr

    def qipu_json(self, args, timeout=60):
        """The JSON `qipu args... --json` prints, or raises Failed."""
        status, out, err = self.qipu(list(args) + ["--json"], timeout)
        if status != 0:
            pytest.fail(f"qipu {' '.join(map(str, args))} exited {status}: "
                        f"{err.strip()[-500:]}")
        return ft.last_json(out)

    # ---- the coordinator ------------------------------------------------

    def start_coordinator(self, restart_of=None):
        """Starts (or restarts on the same port) the coordinator; a new
        Life. Raises Fatal when it does not come back."""
        a = self.args
        extra = ["--lease-games", a.lease_games, "--lease-ttl-ms",
                 a.lease_ttl_ms, "--block-cache-mb", a.block_cache_mb,
                 "--memtable-mb", a.memtable_mb] + a.coordinator_flag
        listen = self.address or "127.0.0.1:0"
        began = now()
        last_error = None
        for attempt in range(3):
            self.coordinator = ft.Coordinator(
                os.path.join(self.root, "coordinator"), extra, listen=listen)
            try:
                self.coordinator.start(timeout=a.start_timeout)
                break
            except Failed as e:
                last_error = str(e)
                if self.coordinator.process is not None and \
                        self.coordinator.process.poll() is None:
                    self.coordinator.process.kill()
                    self.coordinator.process.wait()
                self.note(f"coordinator start attempt {attempt + 1} failed")
                self._rotate_logs(f"failed-start-{len(self.lives) + 1}-"
                                  f"{attempt}")
        else:
            raise Fatal(f"the coordinator did not come back on {listen}: "
                        f"{last_error}")
        if self.address is None:
            self.address = self.coordinator.address
        elif self.coordinator.address != self.address:
            raise Fatal(f"the coordinator came back on "
                        f"{self.coordinator.address}, not {self.address}")
        life = Life(len(self.lives) + 1, self.coordinator.process.pid, now(),
                    None if restart_of is None else now() - restart_of,
                    self.games_done)
        self.lives.append(life)
        self.note(f"coordinator life {life.number} (pid {life.pid}) serving "
                  f"on {self.address} after {now() - began:.2f} s")

    def _rotate_logs(self, tag):
        d = os.path.join(self.root, "coordinator")
        for name in ("coordinator.log", "coordinator.out"):
            path = os.path.join(d, name)
            if os.path.exists(path):
                base, ext = os.path.splitext(name)
                os.replace(path, os.path.join(d, f"{base}-{tag}{ext}"))

    def end_life(self, how):
        life = self.lives[-1]
        life.ended = now()
        life.ended_by = how
        life.games_at_end = self.games_done
        self._rotate_logs(f"life{life.number}")

    def kill_coordinator(self):
        killed_at = now()
        p = self.coordinator.process
        p.send_signal(signal.SIGKILL)
        p.wait()
        self.coordinator.process = None
        self.coordinator_kills += 1
        self.end_life("SIGKILL")
        self.note(f"coordinator life {self.lives[-1].number} killed "
                  f"(SIGKILL) at {self.games_done} games")
        self.start_coordinator(restart_of=killed_at)

    def check_coordinator(self):
        p = self.coordinator.process
        if p is not None and p.poll() is not None:
            self.violation(
                f"the coordinator (life {self.lives[-1].number}, pid {p.pid})"
                f" exited with status {p.returncode} on its own; log: "
                f"{self.coordinator.log_tail(1500)}")
            self.coordinator.process = None
            self.end_life(f"exited {p.returncode}")
            self.start_coordinator(restart_of=now())

    # ---- workers --------------------------------------------------------

    def fresh_spool(self, slot):
        self._spools += 1
        return os.path.join(self.root, "spools", f"s{slot}-{self._spools}")

    def start_worker(self, slot, spool):
        generation = self.workers[slot].generation + 1 \
            if slot in self.workers else 0
        self.workers[slot] = Worker(self, slot, generation, spool)

    def kill_worker(self):
        slot = self.rng.randrange(self.args.workers)
        w = self.workers[slot]
        w.process.send_signal(signal.SIGKILL)
        w.process.wait()
        self.worker_kills += 1
        self.retired_workers.append(w)
        # Every other replacement resumes the killed worker's spool.
        reuse = self.worker_kills % 2 == 1
        spool = w.spool if reuse else self.fresh_spool(slot)
        self.start_worker(slot, spool)
        self.note(f"worker {w.name} killed (SIGKILL); "
                  f"{self.workers[slot].name} started on "
                  f"{'its' if reuse else 'a fresh'} spool")

    def check_workers(self):
        for slot, w in list(self.workers.items()):
            status = w.process.poll()
            if status is not None:
                self.violation(f"worker {w.name} exited with status {status} "
                               f"on its own: {read(w.log, 800)}")
                self.retired_workers.append(w)
                self.start_worker(slot, w.spool)

    # ---- jobs -----------------------------------------------------------

    def poll_jobs(self):
        """Refreshes the status of every job; False when the coordinator
        did not answer."""
        status, out, _ = self.qipu(["job", "status", "--server",
                                    self.address, "--json", "--timeout", 5],
                                   timeout=30)
        if status != 0:
            return False
        try:
            jobs = ft.last_json(out)["jobs"]
        except (ValueError, KeyError, AssertionError):
            return False
        self.job_status = {int(j["job"]): j for j in jobs}
        self.games_done = sum(int(j["done"]) for j in jobs)
        return True

    def unfinished(self):
        return [j for j in self.jobs
                if self.job_status.get(j, {}).get("state") != "done"]

    def feed_jobs(self):
        a = self.args
        while len(self.unfinished()) < a.jobs_ahead:
            n = len(self.jobs) + self.submit_failures
            policy = a.policy[n % len(a.policy)]
            size = a.size[(n // len(a.policy)) % len(a.size)]
            seed = a.seed * 1000003 + n
            status, out, err = self.qipu(
                ["job", "submit", "--server", self.address, "--games",
                 a.job_games, "--size", size, "--policy", policy,
                 "--seed", seed, "--json", "--timeout", 10], timeout=30)
            if status != 0:
                self.submit_failures += 1
                self.note(f"job submit failed ({err.strip()[-200:]}); "
                          f"retried at the next tick")
                return
            job = int(ft.last_json(out)["job"])
            self.jobs[job] = {"games": a.job_games, "size": size,
                              "policy": policy, "seed": seed}
            self.job_status[job] = {"state": "submitted"}
            self.note(f"job {job} submitted: {a.job_games} games {size}x"
                      f"{size} {policy}")

    # ---- sampling -------------------------------------------------------

    def sample_rss(self):
        life = self.lives[-1]
        p = self.coordinator.process
        if p is None:
            return
        kb = read_rss_kb(p.pid)
        if kb is None:
            return
        age = now() - life.started
        life.rss.append((age, kb))
        self.rss_csv.write(f"{now() - self.t0:.1f},{life.number},{p.pid},"
                           f"{age:.1f},{kb},{self.games_done}\n")

    def sample_metrics(self):
        """The memory qipu accounts for (memtables, the position index's
        buffer, the block cache: each capped by a flag) with the RSS of
        the same moment."""
        p = self.coordinator.process
        if p is None:
            return
        try:
            text = self.coordinator.metrics_text()
        except Exception:  # Restarting or busy: the next scrape counts.
            return
        kb = read_rss_kb(p.pid)
        anon = read_rss_kb(p.pid, "RssAnon")
        if kb is None or anon is None:
            return
        life = self.lives[-1]
        parts = {
            "memtables": metric_sum(text, "qipu_rocksdb_bytes",
                                    'kind="memtable"'),
            "index_buffer": metric_sum(text, "qipu_rocksdb_bytes",
                                       'kind="buffer"'),
            "block_cache": metric_sum(text, "qipu_rocksdb_block_cache_bytes"),
        }
        age = now() - life.started
        life.metrics.append((age, kb, parts, anon))
        self.metrics_csv.write(
            f"{now() - self.t0:.1f},{life.number},{age:.1f},{kb},{anon}," +
            ",".join(str(int(parts[k])) for k in
                     ("memtables", "index_buffer", "block_cache")) + "\n")
        self.last_metrics_text = text

    def tick(self, due):
        """One round of sampling and polling; `due` holds the next times."""
        t = now()
        if t >= due["rss"]:
            self.sample_rss()
            due["rss"] = t + RSS_EVERY
        if t >= due["metrics"]:
            self.sample_metrics()
            due["metrics"] = t + self.metrics_every
        if t >= due["poll"]:
            self.poll_jobs()
            due["poll"] = t + POLL_EVERY
        if t >= due["progress"]:
            life = self.lives[-1]
            rss = life.rss[-1][1] if life.rss else None
            print(f"soak [{t - self.t0:7.1f} s] life {life.number} RSS "
                  f"{mb(rss)} MB; {self.games_done} games stored in "
                  f"{len(self.jobs)} jobs; kills: {self.worker_kills} "
                  f"worker, {self.coordinator_kills} coordinator",
                  file=sys.stderr, flush=True)
            due["progress"] = t + PROGRESS_EVERY
        self.check_coordinator()
        self.check_workers()

    # ---- the run --------------------------------------------------------

    def run(self):
        a = self.args
        self.t0 = now()
        os.makedirs(os.path.join(self.root, "workers"), exist_ok=True)
        os.makedirs(os.path.join(self.root, "spools"), exist_ok=True)
        self.rss_csv = open(os.path.join(self.root, "rss.csv"), "w",
                            buffering=1)
        self.rss_csv.write("t_s,life,pid,age_s,rss_kb,games_stored\n")
        self.metrics_csv = open(os.path.join(self.root, "memory.csv"), "w",
                                buffering=1)
        self.metrics_csv.write("t_s,life,age_s,rss_kb,rss_anon_kb,"
                               "memtables_bytes,index_buffer_bytes,"
                               "block_cache_bytes\n")
        # Four scrapes a life at least, one every ten seconds at most.
        self.metrics_every = min(
            METRICS_EVERY, (a.kill_coordinator_every or a.duration) / 4)
        self.last_metrics_text = ""
        self.start_coordinator()
        for slot in range(a.workers):
            self.start_worker(slot, self.fresh_spool(slot))
        self.feed_jobs()

        start = now()
        deadline = start + a.duration
        next_wkill = start + a.kill_worker_every \
            if a.kill_worker_every > 0 else float("inf")
        due = {"rss": start, "metrics": start, "poll": start,
               "progress": start + PROGRESS_EVERY}
        while now() < deadline:
            self.tick(due)
            # Every life lasts the same time: the memory check compares
            # lives at equal ages.
            if a.kill_coordinator_every > 0 and now() >= \
                    self.lives[-1].started + a.kill_coordinator_every:
                self.sample_rss()
                self.sample_metrics()
                self.poll_jobs()
                self.kill_coordinator()
                due["metrics"] = now() + 1
            if now() >= next_wkill:
                self.kill_worker()
                next_wkill += a.kill_worker_every
            self.feed_jobs()
            time.sleep(TICK)  # The loop's pace, not a wait for a condition.
        self.kill_phase_s = now() - start
        self.lives[-1].drain_age = now() - self.lives[-1].started
        self.note("kills stopped; draining the jobs")

        drain_start = now()
        drain_deadline = drain_start + a.drain_timeout
        while True:
            self.tick(due)
            if self.poll_jobs() and not self.unfinished():
                break
            if now() > drain_deadline:
                self.violation(
                    f"jobs unfinished {a.drain_timeout:.0f} s after the "
                    f"kills stopped: " + ", ".join(
                        f"{j}: {self.job_status.get(j)}"
                        for j in self.unfinished()))
                break
            time.sleep(0.5)  # Polling the jobs' progress.
        self.drain_s = now() - drain_start
        self.sample_rss()
        self.sample_metrics()
        self.note(f"jobs finished after {self.drain_s:.1f} s of drain")
        began = now()
        self.stop_workers()
        self.workers_stop_s = now() - began
        began = now()
        soak_checks.check_all(self)
        self.checks_s = now() - began
        self.stop_coordinator()

    def stop_workers(self):
        for w in self.workers.values():
            if w.process.poll() is None:
                w.process.send_signal(signal.SIGTERM)
        self.worker_stops = []
        for w in self.workers.values():
            try:
                status = w.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                w.process.kill()
                status = w.process.wait()
                self.violation(f"worker {w.name} did not stop within 90 s "
                               f"of SIGTERM")
            line = w.stopped_line()
            self.worker_stops.append({"name": w.name, "status": status,
                                      "counts": line})
            if status != 0:
                self.violation(f"worker {w.name} exited {status} after "
                               f"SIGTERM: {read(w.log, 800)}")
            elif line is None:
                self.violation(f"worker {w.name} stopped without its "
                               f"summary line: {read(w.log, 800)}")
            elif line["rejected"]:
                self.violation(f"worker {w.name}: {line['rejected']} games "
                               f"rejected")

    def stop_coordinator(self):
        began = now()
        status = self.coordinator.stop(timeout=60)
        self.coordinator_stop_s = now() - began
        self.end_life("SIGTERM")
        if status != 0:
            self.violation(f"the coordinator exited {status} after SIGTERM")

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="qipu soak run: ingest with workers and the coordinator "
        "killed on a schedule; nothing lost, nothing doubled, memory flat.")
    p.add_argument("--build-dir", default=os.environ.get("QIPU_BINARY_DIR"),
                   help="build directory with ops/qipu, coordinator/ and "
                   "worker/ (default $QIPU_BINARY_DIR)")
    p.add_argument("--dir", help="run directory (database, logs, rss.csv, "
                   "summary.json); default a temporary one")
    p.add_argument("--keep", action="store_true",
                   help="keep the temporary directory and the export")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--minutes", type=float, default=30.0)
    length.add_argument("--seconds", type=float)
    p.add_argument("--kill-worker-every", type=float, default=60.0,
                   metavar="S", help="seconds between worker kills (0: none)")
    p.add_argument("--kill-coordinator-every", type=float, default=300.0,
                   metavar="S",
                   help="seconds between coordinator kills (0: none)")
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--threads", type=int, default=1,
                   help="playing threads per worker")
    p.add_argument("--worker-nice", type=int, default=0,
                   help="nice increment of the workers (a shared machine)")
    p.add_argument("--policy", action="append",
                   help="job policy; repeat to cycle jobs through several "
                   "(default mcts:playouts=4)")
    p.add_argument("--size", action="append", type=int,
                   help="board size; repeat to cycle (default 9)")
    p.add_argument("--job-games", type=int, default=2000)
    p.add_argument("--jobs-ahead", type=int, default=2,
                   help="unfinished jobs kept queued")
    p.add_argument("--lease-games", type=int, default=32)
    p.add_argument("--lease-ttl-ms", type=int, default=10000)
    p.add_argument("--block-cache-mb", type=int, default=16,
                   help="the coordinator's block cache; small, so that it "
                   "is full in the first life")
    p.add_argument("--memtable-mb", type=int, default=32)
    p.add_argument("--coordinator-flag", action="append", default=[],
                   metavar="FLAG", help="one more qipu-coordinator argument "
                   "(repeat for several; --coordinator-flag=--no-sync)")
    p.add_argument("--rss-margin-pct", type=float, default=25.0)
    p.add_argument("--rss-slack-mb", type=float, default=16.0)
    p.add_argument("--drain-timeout", type=float, default=600.0,
                   help="seconds for the jobs to finish after the kills")
    p.add_argument("--start-timeout", type=float, default=120.0,
                   help="seconds for the coordinator to serve after a start")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true",
                   help="print the JSON summary on stdout")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print every kill, restart and submission")
    args = p.parse_args(argv)
    args.policy = args.policy or ["mcts:playouts=4"]
    args.size = args.size or [9]
    args.duration = args.seconds if args.seconds is not None \
        else args.minutes * 60
    if args.duration <= 0 or args.workers < 1 or args.job_games < 1 or \
            args.jobs_ahead < 1:
        p.error("--minutes/--seconds, --workers, --job-games and "
                "--jobs-ahead must be positive")
    if not args.build_dir:
        p.error("no --build-dir and QIPU_BINARY_DIR is not set")
    return args


def main(argv):
    args = parse_args(argv)
    ft.BINARY_DIR = os.path.abspath(args.build_dir)
    temp = args.dir is None
    root = tempfile.mkdtemp(prefix="qipu_soak_") if temp else \
        os.path.abspath(args.dir)
    os.makedirs(root, exist_ok=True)
    if os.path.exists(os.path.join(root, "coordinator", "db")):
        print(f"soak: {root} already holds a database; give an empty --dir",
              file=sys.stderr)
        return 2
    soak = Soak(args)
    soak.root = root
    soak.date = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")
    status = 0

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        ft.qipu_bin(), ft.coordinator_bin(), ft.worker_bin()
        ft.need_module("grpc", "python3-grpcio")
        soak.run()
    except Skipped as e:
        print(f"soak: skipped: {e}", file=sys.stderr)
        status = 77
    except (Fatal, Failed) as e:
        soak.violation(f"the run stopped: {e}")
    except KeyboardInterrupt:
        soak.violation("interrupted")
    finally:
        for w in list(soak.workers.values()) + soak.retired_workers:
            if w.process.poll() is None:
                w.process.kill()
                w.process.wait()
        if soak.coordinator is not None and \
                soak.coordinator.process is not None:
            soak.coordinator.process.kill()
            soak.coordinator.process.wait()
        for f in (getattr(soak, "rss_csv", None),
                  getattr(soak, "metrics_csv", None)):
            if f is not None:
                f.close()
    if status == 77:
        if temp:
            shutil.rmtree(root, ignore_errors=True)
        return status
    s = soak_checks.summary(soak)
    with open(os.path.join(root, "summary.json"), "w") as f:
        json.dump(s, f, indent=1)
    print(soak_checks.human(s), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps(s))
    if soak.violations and soak.lives:
        log = os.path.join(root, "coordinator",
                           f"coordinator-life{soak.lives[-1].number}.log")
        if not os.path.exists(log):
            log = os.path.join(root, "coordinator", "coordinator.log")
        print(f"soak: the last lines of {log}:\n" + read(log, 2000),
              file=sys.stderr)
    if temp and not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if soak.violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

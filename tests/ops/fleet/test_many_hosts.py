"""A fleet on many "hosts" over a bad network (ctest label "netns";
skipped without root, iproute2's `ip` or nftables' `nft`).

The test makes its own network (netns_lab.py): a bridge in one network
namespace, the coordinator in another and three workers in three more,
each host on the bridge through a veth pair, with addresses of its own in
10.213.0.0/24 that exist only inside these namespaces. Then:

- every worker loses 5% of its packets, in and out (nftables `numgen
  random mod 100 < 5 drop` in its namespace; this kernel has no netem
  qdisc, which the test notes);
- worker w1 reaches the coordinator through delay_proxy.py, run inside
  its namespace, which holds every chunk 50 ms each way;
- worker w2 is cut off (every packet dropped) for 15 s as soon as it
  holds a lease; the coordinator's lease TTL is 3 s, so its leases expire
  and go to the others while it keeps playing and spooling, and when it
  is back it uploads what it played (late copies of re-leased games are
  duplicates).

The job must end `done` with exactly GAMES games stored, none twice: the
job status, the query engine's count of the job's games, the exported
games (distinct ids, indices 0..GAMES-1), the coordinator's accepted-games
counter and the workers' own stored counts all say GAMES; every game
acknowledged to a worker (their --ack-log files) is stored, as the copy
acknowledged (ack_check.py), and every
aggregate (results, ko, cycles, the openings root and its continuations)
counts each game once. The coordinator serves its lab address with
--auth off, which takes --insecure; a `qipu token list` from that address
(not loopback) is refused. Everything the test made is removed by it,
also when it fails.
"""

import json
import os
import re
import signal
import subprocess
import tempfile
import time

import pytest

import ack_check
import fleet_testing as ft
from netns_lab import NetnsLab

GAMES = 120
LEASE_GAMES = 3
LEASE_TTL_MS = 3000
DROP_PERCENT = 5
DELAY_MS = 50
CUT_SECONDS = 15
WORKERS = ("w0", "w1", "w2")
DELAYED = "w1"
CUT = "w2"
PROXY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     "delay_proxy.py")
PYTHON = "/usr/bin/python3"


@pytest.fixture(scope="module")
def root():
    with tempfile.TemporaryDirectory(prefix="qipu_many_hosts_") as d:
        yield d


@pytest.fixture(scope="module")
def lab():
    ft.worker_bin()
    ft.coordinator_bin()
    ft.qipu_bin()
    net = NetnsLab(f"qmh{os.getpid()}")
    try:
        net.start(("coord",) + WORKERS)
        yield net
    finally:
        net.stop()


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


class Processes:
    """Child processes of the test, each stopped by its pid at the end:
    SIGTERM, then SIGKILL when it does not exit in time."""

    def __init__(self):
        self.procs = {}

    def start(self, name, cmd, log_path, **kwargs):
        with open(log_path, "w") as log:
            self.procs[name] = subprocess.Popen(
                [str(c) for c in cmd], stdout=log, stderr=subprocess.STDOUT,
                **kwargs)
        return self.procs[name]

    def stop(self, name, timeout):
        p = self.procs[name]
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return None

    def kill_all(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


def query(coordinator, *args):
    return ft.last_json(ft.run_qipu(
        ["query"] + list(args) + ["--server", coordinator.address, "--json"]))


def metric(text, series):
    m = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    assert m, f"{series} not on the metrics page:\n{text[:3000]}"
    return float(m.group(1))


def test_job_over_lossy_delayed_and_cut_links_stores_each_game_once(
        lab, root):
    started = time.monotonic()
    netem = lab.tc_netem_available(CUT)
    for w in WORKERS:
        lab.drop(w, DROP_PERCENT)
    procs = Processes()
    coordinator = None
    try:
        # The test itself talks to the coordinator from the coordinator's
        # host: `qipu` commands, the health check, the metrics page.
        with lab.entered("coord"):
            # A non-loopback address with --auth off: the lab's bridge is
            # the trusted network --insecure is for.
            coordinator = ft.Coordinator(
                os.path.join(root, "coordinator"),
                ["--lease-games", LEASE_GAMES, "--lease-ttl-ms",
                 LEASE_TTL_MS, "--insecure"],
                listen=f"{lab.address('coord')}:0").start()
            # MCTS games (a fraction of a second of a core each): a lease
            # of 3 lasts long enough to be cut in the middle of.
            job = ft.submit_job(coordinator.address, GAMES, "--policy",
                                "mcts:playouts=60", "--seed", 21)
        assert coordinator.address.startswith(lab.address("coord") + ":")

        proxy_log = os.path.join(root, "proxy.log")
        proxy = procs.start("proxy", lab.prefix(DELAYED) + [
            PYTHON, "-u", PROXY, "--listen", "127.0.0.1:0", "--upstream",
            coordinator.address, "--delay-ms", DELAY_MS], proxy_log)
        proxy_address = ft.wait_for(
            lambda: (re.search(r"listening on (\S+:\d+)", read(proxy_log))
                     or proxy.poll() is not None and pytest.fail(
                         "delay_proxy exited:\n" + read(proxy_log))),
            30, lambda: "the delay proxy:\n" + read(proxy_log)).group(1)

        logs = {w: os.path.join(root, f"{w}.log") for w in WORKERS}
        acks = {w: os.path.join(root, f"{w}.acks") for w in WORKERS}
        for w in WORKERS:
            target = proxy_address if w == DELAYED else coordinator.address
            procs.start(w, lab.prefix(w) + [
                ft.worker_bin(), "--coordinator", target, "--threads", 1,
                "--name", w, "--spool", os.path.join(root, f"spool-{w}"),
                "--lease-games", LEASE_GAMES, "--job", job,
                "--rpc-timeout", 3, "--drain-timeout", 60,
                "--ack-log", acks[w], "--log-level", "debug"], logs[w])

        def all_logs():
            return "\n".join(f"--- {w}\n{read(logs[w])[-2500:]}"
                             for w in WORKERS) + \
                f"\n--- proxy\n{read(proxy_log)[-500:]}" + \
                f"\n--- coordinator\n{coordinator.log_tail(2000)}"

        # w2 is cut off as soon as it holds a lease.
        lease = ft.wait_for(
            lambda: re.search(rf"lease (\S+) job {job}: playing",
                              read(logs[CUT])), 60,
            lambda: f"{CUT} to lease games:\n" + all_logs()).group(1)
        lab.cut(CUT)
        cut_at = time.monotonic()
        with lab.entered("coord"):
            done_at_cut = ft.job_status(coordinator.address, job)["done"]
            # Its leases expire during the cut (TTL 3 s) ...
            ft.wait_for(
                lambda: metric(coordinator.metrics_text(),
                               'qipu_leases{state="expired"}') >= 1,
                CUT_SECONDS - 1,
                lambda: "a lease of the cut worker to expire:\n" +
                all_logs(), interval=0.2)
        # ... and the job goes on without it; the cut lasts CUT_SECONDS
        # (a stretch of the scenario, not a wait for some condition).
        time.sleep(max(0.0, cut_at + CUT_SECONDS - time.monotonic()))
        cut_drops = lab.dropped(CUT, "qipu_cut")
        lab.restore(CUT)
        restored_at = time.monotonic()
        with lab.entered("coord"):
            done_after_cut = ft.job_status(coordinator.address, job)["done"]
            ft.wait_for(
                lambda: ft.job_status(coordinator.address, job)["state"] ==
                "done", 180, lambda: "the job to end:\n" + all_logs(),
                interval=0.5)
        finished = time.monotonic()

        # Every worker stops gracefully; w2 has uploaded what it spooled
        # while cut off (its drain timeout is far beyond the test's).
        for w in WORKERS:
            status = procs.stop(w, timeout=90)
            assert status == 0, f"{w} exited {status}:\n" + all_logs()
        procs.stop("proxy", timeout=30)
        workers_stopped = time.monotonic()
        stopped = {}
        for w in WORKERS:
            text = read(logs[w])
            m = re.search(
                r"stopped; (\d+) lease\(s\), (\d+) game\(s\) played, (\d+) "
                r"stored, (\d+) duplicate, (\d+) rejected, (\d+) left in the "
                r"spool", text)
            assert m, f"{w}:\n{text[-3000:]}"
            stopped[w] = dict(zip(("leases", "played", "stored", "duplicate",
                                   "rejected", "left"),
                                  (int(x) for x in m.groups())))
            assert stopped[w]["left"] == 0, (w, stopped[w])
            assert stopped[w]["rejected"] == 0, (w, stopped[w])
            # Acks come for games played here only (a game played twice by
            # the same worker, its lease lost and given back to it, is sent
            # once).
            assert (stopped[w]["stored"] + stopped[w]["duplicate"] <=
                    stopped[w]["played"]), (w, stopped[w])
        cut_log = read(logs[CUT])
        assert re.search(rf"lease {re.escape(lease)} job {job}: renewal "
                         rf"failed", cut_log), cut_log[-3000:]
        assert stopped[CUT]["played"] >= 1, stopped
        proxy_out = read(proxy_log)
        m = re.search(r"(\d+) connection\(s\), (\d+) bytes up, (\d+) bytes "
                      r"down", proxy_out)
        assert m and int(m.group(1)) >= 1 and int(m.group(2)) > 0 and \
            int(m.group(3)) > 0, proxy_out
        assert stopped[DELAYED]["stored"] + \
            stopped[DELAYED]["duplicate"] >= 1, stopped
        loss_drops = {w: lab.dropped(w, "qipu_loss") for w in WORKERS}
        assert sum(loss_drops.values()) > 0, loss_drops
        assert cut_drops > 0

        with lab.entered("coord"):
            status = ft.job_status(coordinator.address, job)
            assert status["state"] == "done", status
            assert status["requested"] == GAMES, status
            assert status["done"] == GAMES, status
            assert ft.stored_games(coordinator.address, job) == GAMES
            metrics = coordinator.metrics_text()
            assert metric(metrics,
                          'qipu_games_total{outcome="accepted"}') == GAMES
            assert metric(metrics,
                          'qipu_games_total{outcome="rejected"}') == 0
            # A game is stored once; every later copy is a duplicate, and
            # the coordinator counts more of them than the workers were
            # told of: an upload whose ack a broken stream lost is sent
            # again (and a game stored that way is acked "duplicate").
            duplicates = metric(metrics,
                                'qipu_games_total{outcome="duplicate"}')
            assert duplicates >= sum(s["duplicate"] for s in stopped.values())
            assert sum(s["stored"] for s in stopped.values()) <= GAMES
            assert sum(s["stored"] + s["duplicate"]
                       for s in stopped.values()) >= GAMES, stopped
            assert sum(s["played"] for s in stopped.values()) >= GAMES
            assert metric(metrics, 'qipu_leases{state="open"}') == 0
            assert metric(metrics, 'qipu_leases{state="expired"}') >= 1

            # The games themselves: GAMES distinct ids, each index once.
            export = os.path.join(root, "games.jsonl")
            ft.run_qipu(["export", "--server", coordinator.address, "--job",
                         job, "--format", "jsonl", "--out", export])
            with open(export) as f:
                games = [json.loads(line) for line in f if line.strip()]
            ids = [g["id"] for g in games]
            assert len(ids) == GAMES and len(set(ids)) == GAMES, ids
            assert sorted(int(i.rsplit("-", 1)[1]) for i in ids) == \
                list(range(GAMES)), ids
            # Every game acknowledged to a worker is stored, as
            # acknowledged (not lost and played again); every game was
            # acknowledged to some worker (each ended with an empty
            # spool).
            acked = ack_check.assert_acked_games_stored(
                [acks[w] for w in WORKERS],
                ack_check.stored_times_from_jsonl(export))
            assert acked["games"] == GAMES, acked

            # --auth off: token and admin calls only from the coordinator's
            # own host (loopback); this one comes from its lab address.
            refused = ft.run([ft.qipu_bin(), "token", "list", "--server",
                              coordinator.address], check=False)
            assert refused.returncode == 1, refused.stdout + refused.stderr
            assert "--auth off" in refused.stderr, refused.stderr

            # Every aggregate counts each game once.
            source = f"job:{job}"
            results = query(coordinator, "results", "--source", source)
            assert results["games"] == GAMES, results
            assert (results["black_wins"] + results["white_wins"] +
                    results["draws"] + results["void"] == GAMES), results
            assert sum(results["by_reason"].values()) == GAMES, results
            assert sum(results["length"]["counts"]) == GAMES, results
            assert query(coordinator, "ko", "--source",
                         source)["games"] == GAMES
            assert query(coordinator, "cycles", "--source",
                         source)["games"] == GAMES
            root_pos = query(coordinator, "openings", "--size", 9,
                             "--source", source)
            assert root_pos["games"] == GAMES, root_pos
            assert sum(c["games"] for c in root_pos["continuations"]) == \
                GAMES, root_pos
        print(f"many hosts: {GAMES} games over {len(WORKERS)} workers in "
              f"{finished - started:.1f} s, workers stopped "
              f"{workers_stopped - finished:.1f} s later (netem qdisc "
              f"{'available' if netem else 'absent'}; {CUT} cut "
              f"{cut_at - started:.1f}-{restored_at - started:.1f} s, "
              f"{cut_drops} packets dropped by the cut; job at "
              f"{done_at_cut}/{done_after_cut} games at cut/restore; "
              f"{DROP_PERCENT}% loss dropped {loss_drops}; workers "
              f"{stopped}; coordinator: {duplicates:.0f} duplicates; "
              f"{acked['acks']} acks of {acked['games']} games logged, "
              f"each stored as acknowledged; "
              f"{proxy_out.strip().splitlines()[-1]})")
    finally:
        procs.kill_all()
        stopping = time.monotonic()
        exit_status = coordinator.stop() if coordinator else None
        print(f"many hosts: coordinator stopped in "
              f"{time.monotonic() - stopping:.1f} s; the test took "
              f"{time.monotonic() - started:.1f} s")
    assert exit_status == 0, coordinator.log_tail()

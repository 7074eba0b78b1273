"""Debian's real prometheus against a live qipu-coordinator (ctest label
"prometheus"; skipped without the prometheus package).

Prometheus runs on a free 127.0.0.1 port with ops/prometheus/prometheus.yml
(its qipu-coordinator job pointed at the coordinator, 1 s scrape and
evaluation intervals) and the shipped alert rules, while the coordinator
plays a job of GAMES games with one qipu-worker and answers a few queries. The test reads the series back through /api/v1/query: the games
counter equals the games the coordinator's query engine finds, the rules
are loaded and evaluate without error, no alert is pending on a healthy
coordinator, every expression of the Grafana dashboard returns data; then
the coordinator stops and QipuCoordinatorDown goes pending.
"""

import json
import os
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest

import fleet_testing as ft
import promql

PROM_DIR = os.path.join(ft.SOURCE_DIR, "ops", "prometheus")
GAMES = 40


class Prometheus:
    """prometheus with `config` on 127.0.0.1:`port`, TSDB in `root`."""

    def __init__(self, root, config):
        self.root = root
        self.config = config
        self.process = None

    def start(self, timeout=60):
        binary = ft.need_program("prometheus", "prometheus")
        self.port = ft.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = os.path.join(self.root, "prometheus.log")
        with open(self._log, "w") as log:
            self.process = subprocess.Popen(
                [binary, f"--config.file={self.config}",
                 f"--storage.tsdb.path={os.path.join(self.root, 'tsdb')}",
                 f"--web.listen-address=127.0.0.1:{self.port}",
                 "--log.level=warn"],
                stdout=log, stderr=subprocess.STDOUT)
        ft.wait_for(self._ready, timeout,
                    lambda: "prometheus to be ready:\n" + self.log_tail())
        return self

    def _ready(self):
        if self.process.poll() is not None:
            pytest.fail("prometheus exited:\n" + self.log_tail())
        try:
            with urllib.request.urlopen(self.url + "/-/ready",
                                        timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def api(self, path, **params):
        """GET /api/v1/<path>; the "data" of a successful answer."""
        url = f"{self.url}/api/v1/{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
        assert body["status"] == "success", body
        return body["data"]

    def query(self, q):
        """An instant query's vector: [(labels, float value)]."""
        data = self.api("query", query=q)
        assert data["resultType"] == "vector", data
        return [(r["metric"], float(r["value"][1])) for r in data["result"]]

    def value(self, q):
        """The value of a query answering one series, or None."""
        result = self.query(q)
        assert len(result) <= 1, result
        return result[0][1] if result else None

    def log_tail(self, chars=3000):
        with open(self._log, errors="replace") as f:
            return f.read()[-chars:]

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def write_config(root, metrics_address):
    """The shipped prometheus.yml, scraping `metrics_address` every second,
    with the shipped rules evaluated every second."""
    yaml = ft.need_module("yaml", "python3-yaml")
    with open(os.path.join(PROM_DIR, "prometheus.yml")) as f:
        config = yaml.safe_load(f)
    config["global"]["scrape_interval"] = "1s"
    config["global"]["evaluation_interval"] = "1s"
    config["rule_files"] = [os.path.join(PROM_DIR, r)
                            for r in config["rule_files"]]
    jobs = [j for j in config["scrape_configs"]
            if j["job_name"] == "qipu-coordinator"]
    assert len(jobs) == 1, config["scrape_configs"]
    jobs[0]["static_configs"] = [{"targets": [metrics_address]}]
    config["scrape_configs"] = jobs
    path = os.path.join(root, "prometheus.yml")
    with open(path, "w") as f:
        yaml.safe_dump(config, f)
    return path


def play(coordinator, root, games):
    """A job of `games` games played to its end by one qipu-worker."""
    job = ft.submit_job(coordinator.address, games, "--seed", 11)
    ft.run([ft.worker_bin(), "--coordinator", coordinator.address, "--job",
            job, "--threads", 2, "--spool", os.path.join(root, "spool"),
            "--exit-when-idle", 1, "--log-level", "warn"], timeout=120)
    return job


def test_prometheus_reads_a_working_coordinator():
    ft.need_program("prometheus", "prometheus")
    ft.need_module("yaml", "python3-yaml")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="qipu_prom_") as root:
        coordinator = ft.Coordinator(os.path.join(root, "coordinator"))
        prometheus = None
        try:
            coordinator.start()
            prometheus = Prometheus(root, write_config(
                root, coordinator.metrics_address)).start()
            job = play(coordinator, root, GAMES)
            for _ in range(3):
                assert ft.stored_games(coordinator.address, job) == GAMES

            accepted = 'qipu_games_total{job="qipu-coordinator",' \
                'outcome="accepted"}'
            # A scrape after the worker left: every game stored, its last
            # lease returned.
            ft.wait_for(lambda: prometheus.value(accepted) == GAMES and
                        prometheus.value('qipu_leases{state="open"}') == 0,
                        60, lambda: f"{accepted} == {GAMES} and no open "
                        f"lease (now {prometheus.query(accepted)}, "
                        f"{prometheus.query('qipu_leases')}):\n" +
                        prometheus.log_tail())
            assert prometheus.value('up{job="qipu-coordinator"}') == 1
            assert prometheus.value("qipu_storage_writable") == 1
            assert prometheus.value("qipu_job_games_pending") == 0
            # Counted per query answered (tests/ops/metrics_test.cc checks
            # the count); here: the series is scraped.
            assert prometheus.value("qipu_queries_total") is not None
            assert prometheus.value(
                'qipu_rocksdb_estimated_keys{cf="games"}') > 0
            assert prometheus.value(
                "qipu_ingest_latency_seconds_count") >= GAMES
            # The same count as the coordinator's own query engine.
            assert ft.stored_games(coordinator.address, job) == GAMES

            # Every rule loaded and evaluated without error.
            def rules_ok():
                groups = prometheus.api("rules")["groups"]
                rules = [r for g in groups for r in g["rules"]]
                return (len(rules) == 11 and
                        all(r["health"] == "ok" and
                            not r["lastEvaluation"].startswith("0001")
                            for r in rules)) and groups

            groups = ft.wait_for(rules_ok, 30, lambda: "the rules to be "
                                 f"evaluated: {prometheus.api('rules')}")
            assert {g["name"] for g in groups} == {
                "qipu-coordinator", "qipu-fleet", "qipu-disk"}
            # A healthy coordinator: nothing pending, nothing firing (once
            # the rules ran after a scrape: QipuCoordinatorAbsent may be
            # pending from an evaluation before the first one).
            ft.wait_for(lambda: prometheus.api("alerts")["alerts"] == [], 30,
                        lambda: f"no alert: {prometheus.api('alerts')}")

            # Every dashboard expression is valid PromQL with data here.
            with open(os.path.join(PROM_DIR, "grafana", "qipu.json")) as f:
                dashboard = json.load(f)
            for title, expr in promql.grafana_exprs(dashboard):
                q = promql.grafana_to_promql(expr)
                # A rate needs two scrapes in its window.
                ft.wait_for(lambda: prometheus.query(q), 30,
                            f"panel {title}'s data: {q}")

            # The coordinator goes away: its down alert goes pending.
            assert coordinator.stop() == 0

            def down_pending():
                return [a for a in prometheus.api("alerts")["alerts"]
                        if a["labels"]["alertname"] == "QipuCoordinatorDown"
                        and a["state"] == "pending"]

            ft.wait_for(down_pending, 30, lambda: "QipuCoordinatorDown to "
                        f"be pending: {prometheus.api('alerts')}")
            assert prometheus.value('up{job="qipu-coordinator"}') == 0
        finally:
            if prometheus is not None:
                prometheus.stop()
            coordinator.stop()
    print(f"prometheus: {time.monotonic() - started:.1f} s")

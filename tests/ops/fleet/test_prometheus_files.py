"""ops/prometheus without a running Prometheus (ctest label "prometheus"):
promtool checks the scrape config and the alert rules and runs their unit
tests (skipped without Debian's prometheus package, which ships promtool);
every metric the rules and the Grafana dashboard name is one a live
qipu-coordinator exports on /metrics (or one of the few external metrics
listed below); the dashboard is valid JSON with the panels an operator
looks at first.
"""

import json
import os
import tempfile

import pytest

import fleet_testing as ft
import promql

PROM_DIR = os.path.join(ft.SOURCE_DIR, "ops", "prometheus")
CONFIG = os.path.join(PROM_DIR, "prometheus.yml")
RULES = os.path.join(PROM_DIR, "qipu-alerts.yml")
RULE_TESTS = os.path.join(PROM_DIR, "qipu-alerts.test.yml")
DASHBOARD = os.path.join(PROM_DIR, "grafana", "qipu.json")

# Metrics that come from elsewhere: Prometheus itself (up), node_exporter
# (the disk alerts) and the kubelet (the volume alert on Kubernetes).
EXTERNAL = {
    "up",
    "node_filesystem_avail_bytes",
    "node_filesystem_size_bytes",
    "kubelet_volume_stats_available_bytes",
    "kubelet_volume_stats_capacity_bytes",
}


@pytest.fixture(scope="module")
def exported():
    """The metric names of a live coordinator's /metrics page."""
    with tempfile.TemporaryDirectory(prefix="qipu_promfiles_") as d:
        c = ft.Coordinator(d).start()
        try:
            names = ft.metric_names(c.metrics_text())
        finally:
            assert c.stop() == 0
    assert "qipu_games_total" in names, names
    return names


def rules_exprs():
    yaml = ft.need_module("yaml", "python3-yaml")
    with open(RULES) as f:
        doc = yaml.safe_load(f)
    return [(r["alert"], r["expr"]) for g in doc["groups"]
            for r in g["rules"]]


def test_promtool_checks_the_config_and_rules():
    promtool = ft.need_program("promtool", "prometheus")
    out = ft.run([promtool, "check", "config", CONFIG]).stdout
    assert "SUCCESS" in out and "rules found" in out, out
    out = ft.run([promtool, "check", "rules", RULES]).stdout
    assert "SUCCESS: 11 rules found" in out, out


def test_every_alert_fires_in_its_unit_test():
    promtool = ft.need_program("promtool", "prometheus")
    p = ft.run([promtool, "test", "rules", RULE_TESTS], check=False)
    assert p.returncode == 0, p.stdout + p.stderr
    # Each alert of the rules is expected to fire at least once there.
    yaml = ft.need_module("yaml", "python3-yaml")
    with open(RULE_TESTS) as f:
        tests = yaml.safe_load(f)["tests"]
    fired = {c["alertname"] for t in tests for c in t["alert_rule_test"]
             if c["exp_alerts"]}
    assert fired == {name for name, _ in rules_exprs()}


def test_the_alert_rules_name_real_metrics(exported):
    for alert, expr in rules_exprs():
        names = promql.metric_names(expr)
        assert names, f"{alert}: no metric in {expr}"
        unknown = names - exported - EXTERNAL
        assert not unknown, f"{alert} names {unknown}, not exported"


def test_the_dashboard_is_json_with_the_main_panels(exported):
    with open(DASHBOARD) as f:
        dashboard = json.load(f)
    titles = {p["title"] for p in dashboard["panels"]}
    for needed in ("Ingest rate", "Games stored (database)", "Leases",
                   "Queries", "Storage health", "Ingest latency"):
        assert needed in titles, titles
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids)), ids
    exprs = promql.grafana_exprs(dashboard)
    assert len(exprs) >= len(dashboard["panels"])
    for title, expr in exprs:
        names = promql.metric_names(promql.grafana_to_promql(expr))
        assert names, f"panel {title}: no metric in {expr}"
        unknown = names - exported - {"up"}
        assert not unknown, f"panel {title} names {unknown}, not exported"


def test_the_metric_name_extraction():
    # The checks above are only as good as this.
    assert promql.metric_names(
        'sum by (instance, job) (rate(qipu_games_total{outcome=~"a|b"}'
        '[10m])) == 0 and on(instance) qipu_leases{state="open"} > 0'
    ) == {"qipu_games_total", "qipu_leases"}
    assert promql.metric_names(
        "histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m])))") == {
            "x_bucket"}
    assert promql.metric_names('absent(up{job="a"})') == {"up"}
    assert promql.metric_names("a / ignoring(state, outcome) b * 256") == {
        "a", "b"}
    assert promql.metric_names("a > 1e6 and a < 2.5e-3") == {"a"}

"""The metric names a PromQL expression reads, for checking alert rules and
dashboards against the metrics qipu actually exports. Not a PromQL parser:
enough for the expressions of ops/prometheus (selectors, functions,
aggregations with by/without, vector matching with on/ignoring).
"""

import re

_KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on",
             "ignoring", "group_left", "group_right", "inf", "nan"}


def metric_names(expr):
    """The metric names `expr` selects ("up", "qipu_games_total", ...)."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)     # string literals
    e = re.sub(r"\{[^}]*\}", " ", e)                  # label matchers
    e = re.sub(r"\[[^\]]*\]", " ", e)                 # ranges
    # Label lists of by/without/on/ignoring/group_left/group_right.
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*"
               r"\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        word = m.group(0)
        if m.start() > 0 and (e[m.start() - 1].isdigit() or
                              e[m.start() - 1] == "."):
            continue  # the exponent of a number (1e6)
        rest = e[m.end():].lstrip()
        if rest.startswith("("):
            continue  # a function or an aggregation
        if word.lower() in _KEYWORDS:
            continue
        names.add(word)
    return names


def grafana_exprs(dashboard):
    """Every (panel title, expr) of a Grafana dashboard's panels (nested
    rows included)."""
    out = []

    def walk(panels):
        for p in panels:
            for t in p.get("targets", []):
                if "expr" in t:
                    out.append((p.get("title", "?"), t["expr"]))
            walk(p.get("panels", []))

    walk(dashboard.get("panels", []))
    return out


def grafana_to_promql(expr, instance=".*", rate_interval="1m"):
    """A dashboard expression with Grafana's variables replaced, as
    Prometheus' HTTP API accepts it."""
    return (expr.replace("$__rate_interval", rate_interval)
            .replace("$__interval", rate_interval)
            .replace("$instance", instance))

"""ops/k8s without a cluster (ctest label "k8s"): what can be checked is.

- Every YAML file parses (Debian's python3-yaml), with the kinds and API
  versions expected, and the kustomization lists every manifest meant to
  be applied.
- The parts refer to each other correctly: Service selectors and pod
  labels, the StatefulSet's headless Service, the HPA's Deployment, probe
  and Service ports, the scrape annotations and the --metrics port, the
  workers' --coordinator and the Service, the token Secret and its key,
  volume mounts and the --db / --spool paths, the image user.
- Every command line in the manifests and the Containerfile is accepted by
  the binary it names: the binary run with those arguments plus --help
  exits 0 (CLI11 checks the values -- ranges, types -- before it acts on
  --help) and lists every flag used (CLI11 does not report unknown flags
  once --help is given, so the names are checked against its help).
- The coordinator answers the gRPC health check as Kubernetes' `grpc:`
  probe asks it (grpc.health.v1.Health/Check, service "").
- The coordinator runs with --auth required, and its init container's
  script, run for real with the built `qipu`, makes the first operator
  token once (a 0600 file on the volume, kept on a second run) and that
  token works against a coordinator started on the database it made.

Flags and environment variables of work not merged yet (TLS and tokens,
issue 20) are listed in PENDING: used but not yet known to a binary, they
are reported, not failed; once a binary knows one, the test says to
remove it from the list.
"""

import glob
import json
import os
import re
import tempfile

import pytest

import fleet_testing as ft

K8S = os.path.join(ft.SOURCE_DIR, "ops", "k8s")
CONTAINERFILE = os.path.join(K8S, "Containerfile")

# Flags and environment variables the manifests may use before the binaries
# know them (empty: the TLS and token work of issue 20 has landed).
PENDING_FLAGS = set()
PENDING_ENV = set()

KINDS = {
    ("v1", "Namespace"), ("v1", "Service"), ("v1", "Secret"),
    ("apps/v1", "StatefulSet"), ("apps/v1", "Deployment"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ("monitoring.coreos.com/v1", "PodMonitor"),
    ("kustomize.config.k8s.io/v1beta1", "Kustomization"),
}
# Applied by hand (kustomization.yaml says why), not by `kubectl apply -k`.
NOT_IN_KUSTOMIZATION = {"kustomization.yaml", "secret.example.yaml",
                        "podmonitor.yaml"}


def binaries():
    return {"qipu-coordinator": ft.coordinator_bin(),
            "qipu-worker": ft.worker_bin(), "qipu": ft.qipu_bin()}


@pytest.fixture(scope="module")
def docs():
    """[(file name, document)] of every ops/k8s/*.yaml."""
    yaml = ft.need_module("yaml", "python3-yaml")
    out = []
    for path in sorted(glob.glob(os.path.join(K8S, "*.yaml"))):
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                assert doc is not None, f"{path}: an empty document"
                out.append((os.path.basename(path), doc))
    assert out
    return out


def of_kind(docs, kind):
    return [d for _, d in docs if d["kind"] == kind]


def one(docs, kind, name):
    found = [d for d in of_kind(docs, kind) if d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} found"
    return found[0]


def workloads(docs):
    return of_kind(docs, "StatefulSet") + of_kind(docs, "Deployment")


def containers(docs):
    """[(workload, pod spec, container)] of every workload."""
    return [(w, w["spec"]["template"]["spec"], c) for w in workloads(docs)
            for c in w["spec"]["template"]["spec"]["containers"]]


def flag_values(args):
    """{flag: value} of `--flag=value` / `--flag value` arguments."""
    out = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--"):
            if "=" in a:
                k, v = a.split("=", 1)
            elif i + 1 < len(args) and not args[i + 1].startswith("--"):
                k, v = a, args[i + 1]
                i += 1
            else:
                k, v = a, None
            out[k] = v
        i += 1
    return out


def help_text(binary, subcommand=()):
    p = ft.run([binary] + list(subcommand) + ["--help"])
    return p.stdout


def help_flags(text):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text))


def check_command_line(cmd, where, pending):
    """`cmd` ([binary, args...]) is accepted by the built binary it names.
    Flags in PENDING_FLAGS the binary does not know yet go to `pending`."""
    name = os.path.basename(cmd[0])
    bins = binaries()
    assert name in bins, f"{where}: {name} is not a qipu binary"
    args = list(cmd[1:])
    # A subcommand of `qipu` comes before the flags.
    sub = []
    while args and not args[0].startswith("-"):
        sub.append(args.pop(0))
    known = help_flags(help_text(bins[name], sub))
    used = [a.split("=", 1)[0] for a in args if a.startswith("--")]
    for flag in used:
        if flag in known:
            continue
        assert flag in PENDING_FLAGS, (
            f"{where}: {name} {' '.join(sub)} has no flag {flag}")
        pending.add((name, flag))
    runnable = [a for a in args
                if a.split("=", 1)[0] not in {f for _, f in pending}]
    p = ft.run([bins[name]] + sub + runnable + ["--help"], check=False)
    assert p.returncode == 0, (
        f"{where}: {name} refuses {runnable}:\n{p.stdout}\n{p.stderr}")


def expand(arg, env):
    """Kubernetes' $(VAR) expansion of a container argument."""
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: env.get(m.group(1), m.group(0)), arg)


def container_env(container):
    """The container's environment as the kubelet would set it, with
    resourceFieldRef values from its resources and Secrets as
    placeholders."""
    env = {}
    for e in container.get("env", []):
        if "value" in e:
            env[e["name"]] = e["value"]
        elif "resourceFieldRef" in e.get("valueFrom", {}):
            ref = e["valueFrom"]["resourceFieldRef"]
            kind, res = ref["resource"].split(".")
            value = container["resources"][kind][res]
            assert str(ref.get("divisor", "1")) == "1" and \
                re.fullmatch(r"\d+", str(value)), (e, value)
            env[e["name"]] = str(value)
        else:
            env[e["name"]] = "secret"
    return env


def test_every_file_parses_with_known_kinds(docs):
    for name, d in docs:
        assert (d.get("apiVersion"), d.get("kind")) in KINDS, (name, d)
        if d["kind"] != "Kustomization":
            assert d["metadata"]["name"], name
    kustomization = of_kind(docs, "Kustomization")[0]
    files = {os.path.basename(p)
             for p in glob.glob(os.path.join(K8S, "*.yaml"))}
    assert set(kustomization["resources"]) == files - NOT_IN_KUSTOMIZATION
    assert [i["name"] for i in kustomization["images"]] == ["qipu"]
    for _, _, c in containers(docs):
        assert c["image"] == "qipu", c["name"]


def test_the_parts_refer_to_each_other(docs):
    # Services select the coordinator's pods, on ports the pods have.
    sts = one(docs, "StatefulSet", "qipu-coordinator")
    pod = sts["spec"]["template"]
    labels = pod["metadata"]["labels"]
    cont = pod["spec"]["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in cont["ports"]}
    for svc in of_kind(docs, "Service"):
        assert svc["spec"]["selector"].items() <= labels.items(), svc
        for p in svc["spec"]["ports"]:
            assert p["targetPort"] in ports, p
    assert sts["spec"]["selector"]["matchLabels"].items() <= labels.items()
    headless = one(docs, "Service", sts["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"

    # The coordinator listens, and exports metrics, where they are looked
    # for: container ports, probes, scrape annotations, the PodMonitor.
    flags = flag_values(cont["args"])
    assert flags["--listen"] == f"0.0.0.0:{ports['grpc']}"
    # The pod's network is not loopback: tokens, not --insecure.
    assert flags.get("--auth") == "required", flags
    assert "--insecure" not in flags, flags
    assert flags["--metrics"] == f"0.0.0.0:{ports['metrics']}"
    for probe in ("startupProbe", "readinessProbe"):
        assert cont[probe]["grpc"]["port"] == ports["grpc"], probe
    assert cont["livenessProbe"]["tcpSocket"]["port"] in ("grpc",
                                                          ports["grpc"])
    ann = pod["metadata"]["annotations"]
    assert ann["prometheus.io/scrape"] == "true"
    assert int(ann["prometheus.io/port"]) == ports["metrics"]
    assert ann["prometheus.io/path"] == "/metrics"
    pm = one(docs, "PodMonitor", "qipu-coordinator")
    assert pm["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pm["spec"]["podMetricsEndpoints"][0]["port"] == "metrics"
    # jobLabel: the label whose value becomes job="qipu-coordinator", as
    # the alert rules expect.
    assert labels[pm["spec"]["jobLabel"]] == "qipu-coordinator"

    # The database is on the claim's volume.
    claim = sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"]
    mount = {m["name"]: m["mountPath"] for m in cont["volumeMounts"]}
    assert flags["--db"].startswith(mount[claim] + "/")

    # Workers: the Service's gRPC port, the Secret's key, the spool volume,
    # the HPA on their Deployment, threads = the CPU limit.
    dep = one(docs, "Deployment", "qipu-worker")
    wpod = dep["spec"]["template"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= \
        wpod["metadata"]["labels"].items()
    wc = wpod["spec"]["containers"][0]
    wflags = flag_values(wc["args"])
    svc = one(docs, "Service", "qipu-coordinator")
    grpc_port = [p["port"] for p in svc["spec"]["ports"]
                 if p["name"] == "grpc"][0]
    assert wflags["--coordinator"] == f"qipu-coordinator:{grpc_port}"
    assert wflags["--threads"] == "$(QIPU_THREADS)"
    env = {e["name"]: e for e in wc["env"]}
    assert env["QIPU_THREADS"]["valueFrom"]["resourceFieldRef"][
        "resource"] == "limits.cpu"
    ref = env["QIPU_TOKEN"]["valueFrom"]["secretKeyRef"]
    secret = one(docs, "Secret", ref["name"])
    assert ref["key"] in secret["stringData"]
    wmount = {m["name"]: m["mountPath"] for m in wc["volumeMounts"]}
    vols = {v["name"]: v for v in wpod["spec"]["volumes"]}
    assert "emptyDir" in vols["spool"]  # node-local disk
    assert wflags["--spool"] == wmount["spool"]
    # Time to drain on SIGTERM, inside the pod's grace period.
    assert float(wflags["--drain-timeout"]) + 15 <= \
        wpod["spec"]["terminationGracePeriodSeconds"]
    hpa = one(docs, "HorizontalPodAutoscaler", "qipu-worker")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "qipu-worker")
    assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    # The HPA's CPU utilisation is relative to the requests.
    assert "cpu" in wc["resources"]["requests"]
    for w, spec, c in containers(docs):
        assert c["resources"]["requests"], c["name"]
        assert c["resources"]["limits"]["memory"], c["name"]
        assert spec["securityContext"]["runAsUser"] == 10001
        for m in c.get("volumeMounts", []):
            names = {v["name"] for v in spec.get("volumes", [])} | {
                t["metadata"]["name"]
                for t in w["spec"].get("volumeClaimTemplates", [])}
            assert m["name"] in names, m


def test_every_command_line_is_accepted(docs):
    pending = set()
    for w, _, c in containers(docs):
        where = f"{w['kind']}/{w['metadata']['name']}/{c['name']}"
        env = container_env(c)
        cmd = [expand(a, env) for a in c["command"] + c.get("args", [])]
        check_command_line(cmd, where, pending)
        # Environment variables meant for the binary (not used in $(...)
        # expansion) are ones it reads.
        expanded = " ".join(c.get("args", []))
        for name in env:
            if name.startswith("QIPU_") and f"$({name})" not in expanded:
                text = help_text(binaries()[os.path.basename(cmd[0])])
                if name not in text:
                    assert name in PENDING_ENV, (
                        f"{where}: {cmd[0]} does not read {name}")
                    pending.add((os.path.basename(cmd[0]), name))
    cmd = containerfile_cmd()
    check_command_line(cmd, "Containerfile CMD", pending)
    if pending:
        print("pending (not yet known to the binaries):",
              sorted(pending))


def test_the_pending_list_is_current(docs):
    # Once the binaries know a pending flag or variable, it must leave
    # PENDING_FLAGS / PENDING_ENV, so that a typo in it would fail again.
    for w, _, c in containers(docs):
        name = os.path.basename(c["command"][0])
        text = help_text(binaries()[name])
        used = {a.split("=", 1)[0] for a in c.get("args", [])} | {
            e["name"] for e in c.get("env", [])}
        for item in used & (PENDING_FLAGS | PENDING_ENV):
            known = (item in help_flags(text) if item.startswith("--")
                     else item in text)
            assert not known, (
                f"{name} now knows {item}: remove it from PENDING_FLAGS / "
                f"PENDING_ENV in {__file__}")


def containerfile_lines():
    """The Containerfile's instructions, continuation lines joined."""
    with open(CONTAINERFILE) as f:
        text = f.read()
    text = re.sub(r"\\\n", " ", text)
    return [l.strip() for l in text.splitlines()
            if l.strip() and not l.strip().startswith("#")]


def containerfile_cmd():
    cmds = [l for l in containerfile_lines() if l.startswith("CMD ")]
    assert len(cmds) == 1, cmds
    return json.loads(cmds[0][4:])


def test_the_containerfile(docs):
    lines = containerfile_lines()
    froms = [l.split()[1] for l in lines if l.startswith("FROM ")]
    assert froms == ["debian:12", "debian:12-slim"], froms
    run = " ".join(l for l in lines if l.startswith("RUN "))
    # ops/bootstrap's flags as it documents them in its usage line.
    bootstrap = os.path.join(ft.SOURCE_DIR, "ops", "bootstrap")
    usage = ft.run([bootstrap, "--help"]).stdout.splitlines()[0]
    m = re.search(r"\./ops/bootstrap ((?:--[\w-]+(?: [^-\s&]\S*)? *)+)", run)
    assert m, run
    for flag in re.findall(r"--[\w-]+", m.group(1)):
        assert flag in help_flags(usage), f"ops/bootstrap has no {flag}: {usage}"
    # The binaries copied out are the ones the build makes, where it
    # makes them.
    for rel in ("coordinator/qipu-coordinator", "worker/qipu-worker",
                "ops/qipu"):
        assert f"/build/{rel}" in run, rel
        ft.binary(rel)
    # The image's ports and user are the manifests'.
    expose = {int(p) for l in lines if l.startswith("EXPOSE ")
              for p in l.split()[1:]}
    ports = {p["containerPort"] for _, _, c in containers(docs)
             for p in c.get("ports", [])}
    assert expose == ports
    assert "USER 10001" in lines


def test_the_coordinator_answers_the_grpc_probe():
    # What the startup and readiness probes ask: grpc.health.v1 Check of
    # service "" on the gRPC port.
    ft.need_module("grpc", "python3-grpcio")
    with tempfile.TemporaryDirectory(prefix="qipu_k8s_") as d:
        c = ft.Coordinator(d).start()
        try:
            assert ft.health_status(c.address) == 1  # SERVING
        finally:
            assert c.stop() == 0


def test_the_init_container_makes_the_first_operator_token_once(docs):
    ft.need_module("grpc", "python3-grpcio")
    sts = one(docs, "StatefulSet", "qipu-coordinator")
    inits = sts["spec"]["template"]["spec"]["initContainers"]
    assert len(inits) == 1
    init = inits[0]
    assert init["command"][:2] == ["sh", "-c"], init["command"]
    script = init["command"][2]
    # Its qipu command line is one the binary accepts, on the coordinator's
    # database.
    m = re.search(r"^\s*(qipu token create [^>\n]*?)\s*>", script, re.M)
    assert m, script
    cmd = m.group(1).split()
    check_command_line(cmd, "StatefulSet/qipu-coordinator/operator-token",
                       set())
    coordinator_db = flag_values(
        sts["spec"]["template"]["spec"]["containers"][0]["args"])["--db"]
    assert flag_values(cmd[1:])["--db"] == coordinator_db
    mount = {m["name"]: m["mountPath"] for m in init["volumeMounts"]}
    assert coordinator_db.startswith(mount["data"] + "/")

    with tempfile.TemporaryDirectory(prefix="qipu_k8s_init_") as d:
        # The volume is d; `qipu` the built one.
        local = script.replace(mount["data"], d)
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(ft.qipu_bin()) + ":" + env["PATH"]
        ft.run(["sh", "-c", local], env=env)
        path = os.path.join(d, "operator-token")
        assert os.stat(path).st_mode & 0o777 == 0o600
        with open(path) as f:
            token = f.read().strip()
        assert re.fullmatch(r"qipu_[A-Za-z0-9_-]{43}", token), token
        # A second start keeps the file and makes no other token.
        ft.run(["sh", "-c", local], env=env)
        with open(path) as f:
            assert f.read().strip() == token
        c = ft.Coordinator(d, ["--auth", "required"]).start()
        try:
            listed = ft.last_json(ft.run_qipu(
                ["token", "list", "--server", c.address, "--token", token,
                 "--json"]))
            assert [(t["role"], t["name"]) for t in listed["tokens"]] == \
                [("operator", "k8s-bootstrap")], listed
            refused = ft.run([ft.qipu_bin(), "token", "list", "--server",
                              c.address], check=False)
            assert refused.returncode == 1, refused.stderr
        finally:
            assert c.stop() == 0

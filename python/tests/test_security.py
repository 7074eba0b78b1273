"""batches() and QueryClient against a coordinator with TLS and `--auth
required`: the token as metadata, the CA and client certificate of
ops/tls/make-certs, and the refusals (no token, a worker token, no TLS)."""

import os
import subprocess

import pytest

import qipu_testing

grpc = qipu_testing.need_module("grpc")
import qipu_client  # noqa: E402


@pytest.fixture(scope="module")
def secured(tmp_root):
    certs = os.path.join(tmp_root, "certs")
    subprocess.run(
        [os.path.join(os.environ["QIPU_SOURCE_DIR"], "ops/tls/make-certs"),
         "--out", certs, "--client", "trainer"],
        check=True, stdout=subprocess.DEVNULL)
    db = os.path.join(tmp_root, "db")
    tokens = {}
    for role in ("reader", "worker"):
        tokens[role] = qipu_testing.last_json(qipu_testing.run_qipu(
            ["token", "create", "--role", role, "--db", db,
             "--json"]))["token"]
    c = qipu_testing.Coordinator(db, tmp_root, flags=[
        "--tls-cert", os.path.join(certs, "server.pem"),
        "--tls-key", os.path.join(certs, "server.key"),
        "--tls-client-ca", os.path.join(certs, "ca.pem"),
        "--auth", "required"]).start()
    tls = {"tls_ca": os.path.join(certs, "ca.pem"),
           "tls_cert": os.path.join(certs, "client-trainer.pem"),
           "tls_key": os.path.join(certs, "client-trainer.key")}
    yield c, tokens, tls
    c.stop()


def test_reader_token_over_mtls(secured):
    c, tokens, tls = secured
    got = list(qipu_client.batches(c.address, token=tokens["reader"],
                                   timeout=30, **tls))
    assert got == []  # an empty database: a finished, empty stream


def test_refusals(secured, monkeypatch):
    c, tokens, tls = secured
    monkeypatch.delenv("QIPU_TOKEN", raising=False)
    with pytest.raises(qipu_client.QipuError) as e:
        list(qipu_client.batches(c.address, timeout=30, **tls))
    assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(qipu_client.QipuError) as e:
        list(qipu_client.batches(c.address, token=tokens["worker"],
                                 timeout=30, **tls))
    assert e.value.code == grpc.StatusCode.PERMISSION_DENIED
    # The token from the environment.
    monkeypatch.setenv("QIPU_TOKEN", tokens["reader"])
    assert list(qipu_client.batches(c.address, timeout=30, **tls)) == []
    # Plain text against the TLS port.
    with pytest.raises(qipu_client.QipuError) as e:
        list(qipu_client.batches(c.address, token=tokens["reader"],
                                 timeout=5))
    assert e.value.code in (grpc.StatusCode.UNAVAILABLE,
                            grpc.StatusCode.DEADLINE_EXCEEDED)
    with pytest.raises(ValueError):
        qipu_client.channel(c.address, tls_cert=tls["tls_cert"])


def test_queries_with_token_over_mtls(secured, monkeypatch):
    c, tokens, tls = secured
    monkeypatch.delenv("QIPU_TOKEN", raising=False)
    with qipu_client.QueryClient(c.address, token=tokens["reader"], timeout=30,
                                 **tls) as q:
        assert q.results()["outcomes"]["games"] == 0  # an empty database
        assert q.openings()["reached"]["games"] == 0
    with qipu_client.QueryClient(c.address, timeout=30, **tls) as q:
        with pytest.raises(qipu_client.QipuError) as e:
            q.results()
    assert e.value.code == grpc.StatusCode.UNAUTHENTICATED
    monkeypatch.setenv("QIPU_TOKEN", tokens["reader"])
    with qipu_client.QueryClient(c.address, timeout=30, **tls) as q:
        assert q.ko()["all"]["games"] == 0

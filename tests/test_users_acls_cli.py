"""``rockafka users`` and ``rockafka acls`` offline, on a data directory (the online form is exercised by
compat_tests/test_security_listeners.py against a live broker)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.facade.security import AclStore, CredentialStore, ScramClient, ScramMechanism, ScramServer


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_users_add_list_delete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = str(tmp_path)
    secret = tmp_path / "pw"
    secret.write_text("s3cret-Pa55\nignored second line\n")
    assert run(capsys, "users", "add", "alice", "--password-file", str(secret), "--data-dir", data)[0] == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("other-pw\n"))
    code, out, _ = run(capsys, "users", "add", "bob", "--mechanism", "SCRAM-SHA-512", "--iterations", "8192",
                       "--data-dir", data)  # fmt: skip
    assert (code, out) == (0, "user bob: SCRAM-SHA-512 set\n")
    code, out, _ = run(capsys, "users", "list", "--data-dir", data)
    assert out.splitlines() == [
        "alice\tSCRAM-SHA-256 (4096 iterations), SCRAM-SHA-512 (4096 iterations)",
        "bob\tSCRAM-SHA-512 (8192 iterations)",
    ]
    store = CredentialStore(tmp_path)
    assert "s3cret-Pa55" not in store.path.read_text()
    sha256 = ScramMechanism.SCRAM_SHA_256
    server, client = ScramServer(sha256, store.lookup), ScramClient(sha256, "alice", "s3cret-Pa55")
    client.verify(server.step(client.final(server.step(client.first()))))  # the password works
    assert run(capsys, "users", "delete", "alice", "--mechanism", "SCRAM-SHA-256", "--data-dir", data)[0] == 0
    assert list(CredentialStore(tmp_path).users()["alice"]) == [ScramMechanism.SCRAM_SHA_512]
    code, _, err = run(capsys, "users", "delete", "carol", "--data-dir", data)
    assert code == 1 and "carol has no such credentials" in err
    code, _, err = run(capsys, "users", "add", "x", "--password", "p", "--iterations", "10", "--data-dir", data)
    assert code == 2 and "--iterations must be 4096..16384" in err


def test_acls_add_list_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    code, out, _ = run(capsys, "acls", "add", "--allow-principal", "User:alice", "--allow-principal", "User:bob",
                       "--operation", "Read", "--operation", "describe", "--topic", "orders-",
                       "--resource-pattern-type", "prefixed", "--data-dir", data)  # fmt: skip
    assert code == 0 and len(out.splitlines()) == 4
    run(capsys, "acls", "add", "--deny-principal", "User:bob", "--deny-host", "10.0.0.7", "--operation", "All",
        "--cluster", "--data-dir", data)  # fmt: skip
    assert len(AclStore(tmp_path).bindings()) == 5
    code, out, _ = run(capsys, "acls", "list", "--topic", "orders-eu", "--resource-pattern-type", "match",
                       "--principal", "User:bob", "--data-dir", data)  # fmt: skip
    assert out.splitlines() == [
        "TOPIC:PREFIXED:orders- ALLOW User:bob READ from host *",
        "TOPIC:PREFIXED:orders- ALLOW User:bob DESCRIBE from host *",
    ]
    code, out, _ = run(capsys, "acls", "list", "--cluster", "--data-dir", data)
    assert out.splitlines() == ["CLUSTER:LITERAL:kafka-cluster DENY User:bob ALL from host 10.0.0.7"]
    code, out, _ = run(capsys, "acls", "remove", "--allow-principal", "User:alice", "--topic", "orders-",
                       "--resource-pattern-type", "prefixed", "--data-dir", data)  # fmt: skip
    assert code == 0 and len(out.splitlines()) == 2
    assert {b.entry.principal for b in AclStore(tmp_path).bindings()} == {"User:bob"}
    code, _, err = run(capsys, "acls", "add", "--operation", "Read", "--topic", "t", "--data-dir", data)
    assert code == 2 and "needs --allow-principal or --deny-principal" in err
    code, _, err = run(capsys, "acls", "add", "--allow-principal", "alice", "--operation", "Read", "--topic", "t",
                       "--data-dir", data)  # fmt: skip
    assert code == 2 and "Could not parse principal" in err


@pytest.mark.parametrize(
    ("spelled", "listed"),
    [("ClusterAction", "CLUSTER_ACTION"), ("DescribeConfigs", "DESCRIBE_CONFIGS"), ("idempotent-write",
     "IDEMPOTENT_WRITE"), ("ALTER_CONFIGS", "ALTER_CONFIGS")],
)  # fmt: skip
def test_operations_are_taken_as_kafka_acls_spells_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spelled: str, listed: str
) -> None:
    code, _, err = run(capsys, "acls", "add", "--allow-principal", "User:broker", "--operation", spelled,
                       "--cluster", "--data-dir", str(tmp_path))  # fmt: skip
    assert code == 0, err
    _, out, _ = run(capsys, "acls", "list", "--cluster", "--data-dir", str(tmp_path))
    assert out.splitlines() == [f"CLUSTER:LITERAL:kafka-cluster ALLOW User:broker {listed} from host *"]


def test_an_unknown_operation_is_one_line_naming_the_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["acls", "add", "--allow-principal", "User:a", "--operation", "Clusteraction", "--cluster",
              "--data-dir", str(tmp_path)])  # fmt: skip
    assert exited.value.code == 2
    assert "unknown operation 'Clusteraction'" in capsys.readouterr().err

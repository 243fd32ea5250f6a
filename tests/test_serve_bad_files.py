"""``rockafka serve`` given bad settings or a damaged data directory: one line on stderr, no traceback,
exit code 2 for a setting (a properties file or an --override that is not UTF-8) and 1 for a data
directory file (``meta.properties`` or ``scram-credentials.json`` that is not UTF-8, ``store.json``,
``topics.json`` or ``acls.json`` of the wrong shape). Each runs the real command in a child process,
bounded in time: a broker that started anyway would fail the test by the timeout. The client
properties of ``rockafka users --command-config`` follow the same rule (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.facade.broker import load_cluster_id
from rockafka.facade.config import ConfigError, load_broker_config
from rockafka.store import CorruptStoreError, MessageStore

from .store.helpers import small_config

TIMEOUT_S = 60
SMALL = {
    "listeners": "PLAINTEXT://127.0.0.1:0",
    "log.segment.bytes": str(8 << 20),
    "rockafka.consumequeue.units.per.file": "1024",
    "rockafka.index.slots": "1024",
    "rockafka.index.entries": "4096",
}


def serve(*arguments: str | bytes, data_dir: Path | None = None) -> tuple[int, str]:
    args: list[str | bytes] = [sys.executable, "-m", "rockafka", "serve", *arguments]
    settings = {**SMALL, **({"log.dirs": str(data_dir)} if data_dir is not None else {})}
    for key, value in settings.items():
        args += ["--override", f"{key}={value}"]
    done = subprocess.run(args, capture_output=True, timeout=TIMEOUT_S, check=False)
    return done.returncode, done.stderr.decode(errors="replace")


def one_line(stderr: str, *fragments: str) -> None:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("rockafka serve: ")]
    assert len(lines) == 1, stderr
    for fragment in fragments:
        assert fragment in lines[0], stderr


def test_properties_file_not_utf8_is_one_line_and_exit_2(tmp_path: Path) -> None:
    properties = tmp_path / "server.properties"
    properties.write_bytes(b"# settings\nnum.partitions=3\nlog.dirs=/tmp/x\xff\n")
    code, stderr = serve(str(properties))
    assert code == 2
    one_line(stderr, str(properties), "line 3 is not UTF-8", "0xff")


def test_override_not_utf8_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, stderr = serve("--override", b"num.partitions=3\xff")
    assert code == 2
    one_line(stderr, "'num.partitions' from --override is not UTF-8")


def test_meta_properties_not_utf8_is_one_line_and_exit_1(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "meta.properties").write_bytes(b"version=1\ncluster.id=\xffabc\nnode.id=0\n")
    code, stderr = serve(data_dir=data)
    assert code == 1
    one_line(stderr, "meta.properties: line 2 is not UTF-8")


@pytest.mark.parametrize(
    ("file", "document", "reason"),
    [
        ("store.json", {"version": 1, "commitlog_segment_bytes": [1, 2]}, "not a positive integer"),
        ("store.json", ["version", 1], "a JSON list where an object belongs"),
        ("config/topics.json", {"version": 1, "topics": {"orders": 5}}, "not the expected shape"),
    ],
)
def test_data_file_of_the_wrong_shape_is_one_line_and_exit_1(
    tmp_path: Path, file: str, document: object, reason: str
) -> None:
    data = tmp_path / "data"
    with MessageStore.open(small_config(data)) as store:
        store.topics.create("orders", 1)
    (data / file).write_text(json.dumps(document))
    (data / (file + ".bak")).unlink(missing_ok=True)
    code, stderr = serve(data_dir=data)
    assert code == 1
    one_line(stderr, str(data / file), reason)


@pytest.mark.parametrize(
    ("file", "content", "reason"),
    [
        ("scram-credentials.json", b"\xff{}", "is not valid JSON"),
        ("scram-credentials.json", b'{"version": 1, "users": [1]}', "is not a credentials file"),
        ("acls.json", b"[1]", "is not an ACL file"),
    ],
)
def test_security_file_with_bad_bytes_or_shape_is_one_line_and_exit_1(
    tmp_path: Path, file: str, content: bytes, reason: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / file).write_bytes(content)
    code, stderr = serve(data_dir=data)
    assert code == 1
    one_line(stderr, str(data / file), reason)


def test_load_cluster_id_keeps_a_damaged_file(tmp_path: Path) -> None:
    meta = tmp_path / "meta.properties"
    meta.write_bytes(b"cluster.id=\xfe\n")
    with pytest.raises(CorruptStoreError, match="line 1 is not UTF-8"):
        load_cluster_id(tmp_path, 0)
    assert meta.read_bytes() == b"cluster.id=\xfe\n"
    meta.write_text("version=1\ncluster.id=abc\n")
    assert load_cluster_id(tmp_path, 0) == "abc"


def test_a_utf8_properties_file_still_reads(tmp_path: Path) -> None:
    properties = tmp_path / "server.properties"
    properties.write_text("# é\nnum.partitions=4\n", encoding="utf-8")
    assert load_broker_config(properties).int("num.partitions") == 4
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_broker_config(None, [], {"ROCKAFKA_NUM_PARTITIONS": "4\udcff"})


def test_command_config_not_utf8_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rockafka users``/``acls --command-config``: the client properties file follows the same rule."""
    config = tmp_path / "client.properties"
    config.write_bytes(b"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PL\xffIN\n")
    assert main(["users", "list", "--bootstrap-server", "127.0.0.1:1", "--command-config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "client.properties: line 2 is not UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "command",
    [
        ["store", "inspect", "{data}"],
        ["pipeline", "export", "--data-dir", "{data}", "--topics", "orders", "--to", "json", "{out}"],
    ],
    ids=["store-inspect", "pipeline-export"],
)
def test_the_offline_tools_on_a_damaged_file_say_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    data = tmp_path / "data"
    with MessageStore.open(small_config(data)) as store:
        store.topics.create("orders", 1)
    topics = data / "config" / "topics.json"
    topics.write_text(json.dumps({"version": 1, "topics": {"orders": 5}}))
    topics.with_name("topics.json.bak").unlink(missing_ok=True)
    assert main([part.format(data=data, out=tmp_path / "out") for part in command]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(topics) in err and "Traceback" not in err


def test_an_embedded_broker_with_a_damaged_meta_properties_fails_cleanly_and_releases_its_store(
    tmp_path: Path,
) -> None:
    from rockafka.testing import Broker, BrokerError

    (tmp_path / "meta.properties").write_bytes(b"cluster.id=\xfe\n")
    with pytest.raises(BrokerError, match="line 1 is not UTF-8"):
        Broker(data_dir=tmp_path).start()
    (tmp_path / "meta.properties").write_text("version=1\ncluster.id=abc\n")
    with Broker(data_dir=tmp_path) as broker:  # the store's lock was released: it opens again
        assert broker.bootstrap

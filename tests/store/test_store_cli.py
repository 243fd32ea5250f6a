"""``rockafka store inspect|query|dump`` and the read-only StoreReader behind them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.store import MessageStore
from rockafka.store.reader import StoreReader

from .helpers import append, build_batch, small_config


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    with MessageStore.open(small_config(root), clock=iter(range(10**12, 2 * 10**12, 1000)).__next__) as store:
        store.topics.create("orders", 2, {"retention.ms": "-1"})
        for number in range(30):
            append(store, "orders", number % 2, build_batch([(b"k%d" % (number % 3), b"value %d" % number)]))
    return root


def test_inspect_lists_partitions_and_verifies(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["store", "inspect", str(store_dir)]) == 0
    out = capsys.readouterr().out
    assert "orders-0" in out and "orders-1" in out and ": OK" in out and "30 batches" in out


def test_inspect_finds_a_flipped_byte(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    segment = store_dir / "commitlog" / "00000000000000000000"
    data = bytearray(segment.read_bytes())
    data[64 + 70] ^= 0x01  # inside the first batch's records: only its CRC-32C shows it
    segment.write_bytes(bytes(data))
    assert main(["store", "inspect", str(store_dir)]) == 1
    assert "CORRUPT at offset 0: batch CRC-32C mismatch" in capsys.readouterr().out
    assert main(["store", "inspect", "--no-verify", str(store_dir)]) == 0


def test_query_by_key_newest_first(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["store", "query", str(store_dir), "--topic", "orders", "--key", "k1", "--limit", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["orders-0@14", "orders-1@12"]
    assert all("key=k1" in line for line in lines)
    since = str(10**12 + 26 * 1000)
    assert main(["store", "query", str(store_dir), "--topic", "orders", "--key", "k1", "--since", since]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["orders-0@14"]


def test_dump_from_an_offset(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["store", "dump", str(store_dir), "--topic", "orders", "--partition", "1", "--offset", "3"]
    assert main([*arguments, "--count", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["3", "4"] and "value=value 7" in lines[0]


@pytest.mark.parametrize(
    "arguments",
    [
        ["inspect", "{missing}"],
        ["inspect", "{empty}"],
        ["query", "{store}", "--topic", "nope", "--key", "k"],
        ["dump", "{store}", "--topic", "orders", "--partition", "7"],
    ],
)
def test_user_mistakes_give_one_line_and_exit_2(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    (tmp_path / "empty").mkdir()
    places = {"missing": str(tmp_path / "missing"), "empty": str(tmp_path / "empty"), "store": str(store_dir)}
    assert main(["store", *(a.format(**places) for a in arguments)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("rockafka store: ")
    assert "Traceback" not in captured.err


def test_the_reader_changes_nothing(store_dir: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in store_dir.rglob("*")}
    with StoreReader(store_dir) as reader:
        assert [p.high_watermark for p in reader.partitions()] == [15, 15]
        assert reader.scan().batches == 30
        assert len(reader.query_by_key("orders", b"k2")) == 10
    assert {p: p.stat().st_mtime_ns for p in store_dir.rglob("*")} == before


def test_the_reader_sees_a_store_open_in_a_broker_without_taking_its_lock(store_dir: Path) -> None:
    with MessageStore.open(small_config(store_dir)) as store:
        append(store, "orders", 0, build_batch([(b"new", b"while open")]))
        with StoreReader(store_dir) as reader:
            assert [p.high_watermark for p in reader.partitions()] == [16, 15]
            assert [r.value for r in reader.records("orders", 0, 14)] == [b"value 28", b"while open"]
            assert reader.scan().corrupt_record is None

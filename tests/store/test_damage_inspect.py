"""``rockafka store inspect`` on a damaged store: it goes on past damage, lists each damaged range, counts the
quarantine's losses (after the broker's recovery recorded them), and exits 1 while damage is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.cli import main
from rockafka.store import MessageStore
from rockafka.store.reader import StoreReader

from .helpers import append, build_batch, small_config


def test_inspect_goes_past_damage_and_counts_the_ledger(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "store"
    with MessageStore.open(small_config(root)) as store:
        store.topics.create("orders", 2)
        for number in range(30):
            append(store, "orders", number % 2, build_batch([(b"k", b"value %d" % number + b"x" * 100)]))
    segment = root / "commitlog" / "00000000000000000000"
    with StoreReader(root) as reader:
        clean = reader.scan()
    data = bytearray(segment.read_bytes())
    data[64 * 5 + 40] ^= 0xFF  # a byte inside the second batch's records
    segment.write_bytes(bytes(data))

    assert main(["store", "inspect", str(root)]) == 1
    out = capsys.readouterr().out
    assert "1 damaged range(s)" in out and "quarantine: 0 loss(es)" in out
    with StoreReader(root) as reader:
        report = reader.scan()
    assert len(report.damaged) == 1 and report.end_offset == clean.end_offset
    assert report.batches == clean.batches - 1

    (root / "checkpoint").unlink()
    with MessageStore.open(small_config(root)) as store:
        assert store.recovery_report is not None and len(store.recovery_report.damaged_ranges) == 1
    assert main(["store", "inspect", str(root)]) == 1
    out = capsys.readouterr().out
    assert "quarantine: 1 loss(es)" in out and "orders-" in out.split("quarantine:")[1]

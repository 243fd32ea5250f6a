"""The mirror's offset syncs: runs from (source, target) offset pairs, the file lines, and the translation of a
group's committed offset, checked against a model that walks the records one by one."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rockafka.pipeline import PipelineError
from rockafka.pipeline.offsets import TopicPartition
from rockafka.pipeline.offsetsyncs import OffsetSyncs, PartitionSyncs, Run, append_line, runs_of, task_runs

TP = TopicPartition("orders", 0)


def test_runs_break_at_a_gap_on_either_side() -> None:
    pairs = [(0, 0), (1, 1), (2, 2), (4, 3), (5, 4), (6, 6)]  # a source gap at 3, a target gap at 5

    assert runs_of(pairs) == [Run(0, 0, 3), Run(4, 3, 2), Run(6, 6, 1)]


def test_lines_appended_are_read_incrementally_and_a_replayed_batch_counts_once(tmp_path: Path) -> None:
    path = tmp_path / "offset-syncs.jsonl"
    syncs = OffsetSyncs(path)
    append_line(path, 0, [task_runs({TP: [(0, 0), (1, 1)]})])
    syncs.refresh()
    append_line(path, 1, [task_runs({TP: [(2, 3), (3, 4)]})])
    append_line(path, 1, [task_runs({TP: [(2, 3), (3, 4)]})])  # the replay of batch 1
    append_line(path, 2, [[]])  # a replay whose exactly-once tasks skipped: no runs
    syncs.refresh()

    assert syncs.partitions[TP].runs == [Run(0, 0, 2), Run(2, 3, 2)]
    assert [syncs.translate(TP, c, mirrored=4) for c in range(5)] == [0, 1, 3, 4, 5]


def test_an_offset_the_mirror_has_not_reached_waits(tmp_path: Path) -> None:
    path = tmp_path / "offset-syncs.jsonl"
    append_line(path, 0, [task_runs({TP: [(10, 0), (11, 1)]})])
    syncs = OffsetSyncs(path)
    syncs.refresh()

    assert syncs.translate(TP, 12, mirrored=12) == 2
    assert syncs.translate(TP, 13, mirrored=12) is None
    assert syncs.translate(TP, 3, mirrored=12) == 0  # before the first record copied: the source lost them
    assert syncs.translate(TopicPartition("other", 0), 0, mirrored=5) is None


def test_a_damaged_line_is_one_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "offset-syncs.jsonl"
    path.write_text('{"batch": 0, "runs": []}\nnot json\n')

    with pytest.raises(PipelineError, match=r"offset-syncs.jsonl: line 2 is not an offset sync"):
        OffsetSyncs(path).refresh()


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=40), st.data())
def test_translation_resumes_at_the_next_record(gaps: list[tuple[int, int]], data: st.DataObject) -> None:
    """Records copied with gaps before them on each side (markers, compaction): a consumer that committed ``c``
    on the source resumes on the target at the record after everything before ``c``, whatever ``c`` is."""
    pairs, source, target = [], 0, 0
    for source_gap, target_gap in gaps:
        source, target = source + source_gap, target + target_gap
        pairs.append((source, target))
        source, target = source + 1, target + 1
    syncs = OffsetSyncs(Path("/nonexistent"))
    syncs.partitions[TP] = PartitionSyncs(runs_of(pairs))
    committed = data.draw(st.integers(0, source))

    translated = syncs.translate(TP, committed, mirrored=source)

    assert translated is not None
    consumed = [t for s, t in pairs if s < committed]
    unread = [t for s, t in pairs if s >= committed]
    assert all(t < translated for t in consumed)
    assert all(t >= translated for t in unread)

"""The generated hot-message codec (``core_pyx/_hotcodec*``, ``_hotmessages``, ``hotcodec``): regenerated from the
specs it is byte for byte what is committed, its tuples have the generic codec's fields, and the generator refuses
what it cannot generate. (The bytes themselves: ``tests/core_pyx/test_hotcodec*.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.core_pyx import hotcodec
from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.codegen import HOT_FILES, SPEC_COMMIT, SpecError
from rockafka.facade.protocol.codegen.hot import HOT, TUPLE_RENAMES, plan_hot
from rockafka.facade.protocol.codegen.hotemit import emit_hot
from rockafka.facade.protocol.codegen.spec import load_specs
from rockafka.facade.protocol.messages import fetch, metadata, produce

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT.parent / "shared" / "kafka-message-specs"
CORE_PYX = ROOT / "core_pyx"


@pytest.mark.skipif(not SPECS.is_dir(), reason=f"no specs at {SPECS}")
def test_regenerated_hot_codec_is_what_is_committed() -> None:
    files = emit_hot(plan_hot(load_specs(SPECS)), SPEC_COMMIT)
    assert sorted(files) == sorted(HOT_FILES)
    for name, text in files.items():
        assert (CORE_PYX / name).read_text(encoding="utf-8") == text, f"{name} is stale: run make gen-protocol"


def test_committed_hot_files_carry_the_header() -> None:
    for name in HOT_FILES:
        first = (CORE_PYX / name).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"# GENERATED FROM apache/kafka@{SPEC_COMMIT} ") and first.endswith("make gen-protocol")


@pytest.mark.parametrize(
    ("hot", "generated"),
    [
        (hotcodec.ProduceRequest, produce.ProduceRequest),
        (hotcodec.TopicProduceData, produce.TopicProduceData),
        (hotcodec.PartitionProduceData, produce.PartitionProduceData),
        (hotcodec.ProduceResponse, produce.ProduceResponse),
        (hotcodec.PartitionProduceResponse, produce.PartitionProduceResponse),
        (hotcodec.FetchResponse, fetch.FetchResponse),
        (hotcodec.FetchableTopicResponse, fetch.FetchableTopicResponse),
        (hotcodec.PartitionData, fetch.PartitionData),
        (hotcodec.MetadataResponse, metadata.MetadataResponse),
        (hotcodec.MetadataResponseTopic, metadata.MetadataResponseTopic),
        (hotcodec.MetadataResponsePartition, metadata.MetadataResponsePartition),
    ],
)
def test_hot_tuples_have_the_generic_codecs_fields_in_spec_order(hot: type, generated: type) -> None:
    expected = tuple(TUPLE_RENAMES.get(info.attr, info.attr) for info in generated.FIELDS)  # type: ignore[attr-defined]
    assert hot._fields == expected  # type: ignore[attr-defined]


def test_handlers_serve_the_generated_versions() -> None:
    served = {"PRODUCE_VERSIONS": 0, "FETCH_VERSIONS": 1, "METADATA_VERSIONS": 3}
    for hot in HOT:
        handler = HANDLERS[served[hot.constant]]
        assert (handler.min_version, handler.max_version) == (hot.versions.lo, hot.versions.hi)
        assert (handler.decode if hot.decode else handler.encode) is not None


def test_a_hot_message_missing_from_the_specs_is_refused() -> None:
    with pytest.raises(SpecError, match="not in the specs"):
        plan_hot([])

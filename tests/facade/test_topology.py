"""The topology seam's pure parts: Kafka's coordinator hash, and the single broker's answers."""

from __future__ import annotations

from rockafka.facade.topology import coordinator_partition, java_string_hash


def test_the_hash_is_javas_string_hashcode() -> None:
    # values of java.lang.String.hashCode()
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("polygenelubricants") == -(1 << 31)
    assert java_string_hash("é€") == 233 * 31 + 0x20AC  # UTF-16 code units, not UTF-8 bytes
    assert java_string_hash("\U0001f600") == 0xD83D * 31 + 0xDE00  # a surrogate pair counts as two units


def test_the_partition_is_kafkas_abs_of_the_hash_modulo_the_count() -> None:
    assert coordinator_partition("hello", 50) == 99162322 % 50
    assert coordinator_partition("polygenelubricants", 50) == 0  # Utils.abs(Integer.MIN_VALUE) is 0
    negative = "the-group-7"
    assert java_string_hash(negative) < 0
    assert coordinator_partition(negative, 50) == abs(java_string_hash(negative)) % 50

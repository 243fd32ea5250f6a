"""Group config resources (KIP-848, KIP-932): settings one consumer-protocol or share group may override
(DescribeConfigs and IncrementalAlterConfigs of resource type GROUP).

=================================  ===================================================================
group config                       broker setting it overrides (its default)
=================================  ===================================================================
consumer.session.timeout.ms        group.consumer.session.timeout.ms
consumer.heartbeat.interval.ms     group.consumer.heartbeat.interval.ms
share.session.timeout.ms           group.share.session.timeout.ms
share.heartbeat.interval.ms        group.share.heartbeat.interval.ms
share.record.lock.duration.ms      group.share.record.lock.duration.ms
share.auto.offset.reset            none (``latest``; or ``earliest``): where a share group starts reading a
                                   partition it has no state for
=================================  ===================================================================

A group's heartbeat interval must stay below its session timeout (INVALID_CONFIG otherwise), for each kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .broker import BrokerConfig, ConfigSource
from .definitions import INT, STR, ConfigDef, at_least, one_of
from .errors import InvalidConfigError, UnknownConfigError
from .topic import ConfigSynonym, TopicConfigEntry
from .values import format_value, parse_value

SESSION_TIMEOUT: Final = "consumer.session.timeout.ms"
HEARTBEAT_INTERVAL: Final = "consumer.heartbeat.interval.ms"
SHARE_SESSION_TIMEOUT: Final = "share.session.timeout.ms"
SHARE_HEARTBEAT_INTERVAL: Final = "share.heartbeat.interval.ms"
SHARE_LOCK_DURATION: Final = "share.record.lock.duration.ms"
SHARE_AUTO_OFFSET_RESET: Final = "share.auto.offset.reset"

GROUP_CONFIGS: Final = {
    d.name: d
    for d in (
        ConfigDef(SESSION_TIMEOUT, INT, 45000, at_least(1), "group.consumer.session.timeout.ms", False,
                  "a member without a heartbeat for this long is removed from the group"),
        ConfigDef(HEARTBEAT_INTERVAL, INT, 5000, at_least(1), "group.consumer.heartbeat.interval.ms", False,
                  "the heartbeat interval the group's members are told to keep"),
        ConfigDef(SHARE_SESSION_TIMEOUT, INT, 45000, at_least(1), "group.share.session.timeout.ms", False,
                  "a share group member without a heartbeat for this long is removed from the group"),
        ConfigDef(SHARE_HEARTBEAT_INTERVAL, INT, 5000, at_least(1), "group.share.heartbeat.interval.ms", False,
                  "the heartbeat interval the share group's members are told to keep"),
        ConfigDef(SHARE_LOCK_DURATION, INT, 30000, at_least(1), "group.share.record.lock.duration.ms", False,
                  "how long a share group member holds the records it acquired"),
        ConfigDef(SHARE_AUTO_OFFSET_RESET, STR, "latest", one_of("latest", "earliest"), None, False,
                  "where a share group starts reading a partition it has no state for"),
    )
}  # fmt: skip
_INTERVAL_BELOW_TIMEOUT: Final = (
    (HEARTBEAT_INTERVAL, SESSION_TIMEOUT),
    (SHARE_HEARTBEAT_INTERVAL, SHARE_SESSION_TIMEOUT),
)


def group_definition(name: str) -> ConfigDef:
    definition = GROUP_CONFIGS.get(name)
    if definition is None:
        raise UnknownConfigError(name, "group configuration")
    return definition


def effective_group_configs(overrides: Mapping[str, str], broker: BrokerConfig) -> dict[str, int | str]:
    """Each group config's value: the group's own, else the broker setting's (or its default, without one)."""
    values: dict[str, int | str] = {}
    for name, definition in GROUP_CONFIGS.items():
        text = overrides.get(name)
        if text is not None:
            value = parse_value(definition, text)
        else:
            value = definition.default if definition.synonym is None else broker.values[definition.synonym]
        values[name] = str(value) if definition.type is STR else int(str(value))
    return values


def validate_group_configs(overrides: Mapping[str, str], broker: BrokerConfig) -> dict[str, str]:
    """A group's overrides, normalised; ``ConfigError`` for an unknown name, a bad value, or a heartbeat
    interval not below the session timeout."""
    normalised = {}
    for name, text in overrides.items():
        formatted = format_value(parse_value(group_definition(name), text))
        if formatted is not None:
            normalised[name] = formatted
    values = effective_group_configs(normalised, broker)
    for interval, timeout in _INTERVAL_BELOW_TIMEOUT:
        if int(values[interval]) >= int(values[timeout]):
            raise InvalidConfigError(interval, str(values[interval]), f"must be less than {timeout}")
    return normalised


def describe_group_config(overrides: Mapping[str, str], broker: BrokerConfig) -> list[TopicConfigEntry]:
    """Every group config with its effective value: the group's (GROUP_CONFIG) or the broker setting's."""
    entries = []
    for name, definition in sorted(GROUP_CONFIGS.items()):
        if definition.synonym is None:  # no broker setting: the group config's own default
            synonyms = [ConfigSynonym(name, format_value(definition.default), ConfigSource.DEFAULT_CONFIG)]
        else:
            broker_value = format_value(broker.values[definition.synonym])
            source = broker.sources.get(definition.synonym, ConfigSource.DEFAULT_CONFIG)
            synonyms = [ConfigSynonym(definition.synonym, broker_value, source)]
        if name in overrides:
            synonyms.insert(0, ConfigSynonym(name, overrides[name], ConfigSource.GROUP_CONFIG))
        winner = synonyms[0]
        entries.append(
            TopicConfigEntry(name, winner.value, winner.source, False, definition.type, definition.doc, tuple(synonyms))
        )
    return entries

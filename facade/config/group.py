"""Group config resources (KIP-848): settings one consumer-protocol group may override (DescribeConfigs and
IncrementalAlterConfigs of resource type GROUP).

=================================  ===================================================================
group config                       broker setting it overrides (its default)
=================================  ===================================================================
consumer.session.timeout.ms        group.consumer.session.timeout.ms
consumer.heartbeat.interval.ms     group.consumer.heartbeat.interval.ms
=================================  ===================================================================

A group's heartbeat interval must stay below its session timeout (INVALID_CONFIG otherwise). Kafka's share
group settings (``share.*``) are not group configs here, as share groups are not built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .broker import BrokerConfig, ConfigSource
from .definitions import INT, ConfigDef, at_least
from .errors import InvalidConfigError, UnknownConfigError
from .topic import ConfigSynonym, TopicConfigEntry
from .values import format_value, parse_value

SESSION_TIMEOUT: Final = "consumer.session.timeout.ms"
HEARTBEAT_INTERVAL: Final = "consumer.heartbeat.interval.ms"

GROUP_CONFIGS: Final = {
    d.name: d
    for d in (
        ConfigDef(SESSION_TIMEOUT, INT, 45000, at_least(1), "group.consumer.session.timeout.ms", False,
                  "a member without a heartbeat for this long is removed from the group"),
        ConfigDef(HEARTBEAT_INTERVAL, INT, 5000, at_least(1), "group.consumer.heartbeat.interval.ms", False,
                  "the heartbeat interval the group's members are told to keep"),
    )
}  # fmt: skip


def group_definition(name: str) -> ConfigDef:
    definition = GROUP_CONFIGS.get(name)
    if definition is None:
        raise UnknownConfigError(name, "group configuration")
    return definition


def effective_group_configs(overrides: Mapping[str, str], broker: BrokerConfig) -> dict[str, int]:
    """Each group config's value: the group's own, else the broker setting's."""
    values = {}
    for name, definition in GROUP_CONFIGS.items():
        text = overrides.get(name)
        value = parse_value(definition, text) if text is not None else broker.values[str(definition.synonym)]
        values[name] = int(value) if isinstance(value, int) else int(str(value))
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
    if values[HEARTBEAT_INTERVAL] >= values[SESSION_TIMEOUT]:
        raise InvalidConfigError(
            HEARTBEAT_INTERVAL, str(values[HEARTBEAT_INTERVAL]), f"must be less than {SESSION_TIMEOUT}"
        )
    return normalised


def describe_group_config(overrides: Mapping[str, str], broker: BrokerConfig) -> list[TopicConfigEntry]:
    """Every group config with its effective value: the group's (GROUP_CONFIG) or the broker setting's."""
    entries = []
    for name, definition in sorted(GROUP_CONFIGS.items()):
        broker_value = format_value(broker.values[str(definition.synonym)])
        source = broker.sources.get(str(definition.synonym), ConfigSource.DEFAULT_CONFIG)
        synonyms = [ConfigSynonym(str(definition.synonym), broker_value, source)]
        if name in overrides:
            synonyms.insert(0, ConfigSynonym(name, overrides[name], ConfigSource.GROUP_CONFIG))
        winner = synonyms[0]
        entries.append(
            TopicConfigEntry(name, winner.value, winner.source, False, definition.type, definition.doc, tuple(synonyms))
        )
    return entries

"""Topic settings: validation of what CreateTopics/AlterConfigs send, and what DescribeConfigs reports.

A topic setting's effective value comes from the topic's own override, else from its broker synonym
(``retention.ms`` from ``log.retention.ms``, then ``.minutes``, then ``.hours``, as Kafka resolves
them; a dynamic broker config before the static one), else from Kafka's default. DescribeConfigs lists the
synonyms in that order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .broker import BrokerConfig, ConfigSource
from .definitions import TOPIC_CONFIGS, ConfigDef, ConfigType
from .errors import UnknownConfigError
from .values import format_value, parse_value

#: Where a broker setting may come from, in Kafka's order of precedence (Kafka's defaults come last).
BROKER_LAYERS = (
    ConfigSource.DYNAMIC_BROKER_CONFIG,
    ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
    ConfigSource.STATIC_BROKER_CONFIG,
)
_EXTRA_SYNONYMS = {
    "retention.ms": (("log.retention.minutes", 60_000), ("log.retention.hours", 3_600_000)),
    "segment.ms": (("log.roll.hours", 3_600_000),),
}


@dataclass(frozen=True, slots=True)
class ConfigSynonym:
    name: str
    value: str | None
    source: ConfigSource


@dataclass(frozen=True, slots=True)
class TopicConfigEntry:
    """One row of a topic's DescribeConfigs answer."""

    name: str
    value: str | None
    source: ConfigSource
    read_only: bool
    type: ConfigType
    documentation: str
    synonyms: tuple[ConfigSynonym, ...]

    @property
    def is_default(self) -> bool:
        return self.source == ConfigSource.DEFAULT_CONFIG


def validate_topic_configs(configs: Mapping[str, str | None]) -> dict[str, str]:
    """Check topic settings as sent by a client; returns them normalised. Raises ConfigError on the first bad one."""
    normalised: dict[str, str] = {}
    for name, text in configs.items():
        definition = TOPIC_CONFIGS.get(name)
        if definition is None:
            raise UnknownConfigError(name, "topic configuration")
        formatted = format_value(parse_value(definition, text))
        if formatted is not None:
            normalised[name] = formatted
    return normalised


def describe_topic_config(overrides: Mapping[str, str], broker: BrokerConfig) -> list[TopicConfigEntry]:
    """Every topic setting with its effective value, source and synonyms, in Kafka's name order."""
    return [_describe_one(definition, overrides, broker) for _, definition in sorted(TOPIC_CONFIGS.items())]


def _describe_one(definition: ConfigDef, overrides: Mapping[str, str], broker: BrokerConfig) -> TopicConfigEntry:
    synonyms: list[ConfigSynonym] = []
    effective: list[str | None] = []
    """The topic setting's value each synonym gives (a broker synonym in hours or minutes, scaled to ms)."""
    if definition.name in overrides:
        synonyms.append(ConfigSynonym(definition.name, overrides[definition.name], ConfigSource.TOPIC_CONFIG))
        effective.append(overrides[definition.name])
    chain = [(definition.synonym, 1)] if definition.synonym else []
    chain.extend(_EXTRA_SYNONYMS.get(definition.name, ()))
    for source in BROKER_LAYERS:
        layer = broker.layer(source)
        for broker_name, scale in chain:
            if broker_name is None or broker_name not in layer:
                continue
            value = layer[broker_name]
            scaled = value * scale if isinstance(value, int) and not isinstance(value, bool) and value > 0 else value
            # the synonym shows the broker setting as set (Kafka: log.retention.hours=100), the entry its effect
            synonyms.append(ConfigSynonym(broker_name, format_value(value), source))
            effective.append(format_value(scaled))
    synonyms.append(
        ConfigSynonym(
            chain[0][0] if chain and chain[0][0] else definition.name,
            format_value(definition.default),
            ConfigSource.DEFAULT_CONFIG,
        )
    )
    effective.append(format_value(definition.default))
    winner = synonyms[0]
    return TopicConfigEntry(
        name=definition.name,
        value=effective[0],
        source=winner.source,
        read_only=definition.read_only,
        type=definition.type,
        documentation=definition.doc,
        synonyms=tuple(synonyms),
    )

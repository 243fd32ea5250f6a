"""Loading the broker's settings: defaults < properties file < environment < ``--override KEY=VALUE``.

With ``kafka_env`` (``rockafka serve --kafka-env``, the container image's entrypoint) the environment's
``KAFKA_*`` variables are read too, after the ``ROCKAFKA_*`` ones, by Kafka's images' rule (``kafka_env.py``).

The properties file is Kafka's ``server.properties`` format (``key=value``, ``key: value`` or
``key value``; ``#``/``!`` comments; a trailing backslash continues a line). An environment variable
``ROCKAFKA_LOG_DIRS`` sets ``log.dirs``: the name upper-cased with dots as underscores, for known
settings only (other ``ROCKAFKA_*`` variables belong to other parts of the program).
"""

from __future__ import annotations

import builtins
import difflib
import enum
import logging
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from .definitions import BROKER_CONFIGS, IGNORED_BROKER_SETTINGS, LISTENER_SCOPED, MECHANISM_SCOPED, ConfigDef, Value
from .errors import ConfigError, InvalidConfigError, UnknownConfigError
from .kafka_env import kafka_env_settings
from .kafka_names import KAFKA_BROKER_SETTINGS
from .values import parse_value

log = logging.getLogger(__name__)

ENV_PREFIX = "ROCKAFKA_"
RETENTION_SETTINGS = (("log.retention.ms", 1), ("log.retention.minutes", 60_000), ("log.retention.hours", 3_600_000))
LISTENER_PREFIX = "listener.name."
_NONE: Final[Mapping[str, Value]] = MappingProxyType({})
_LISTENER = re.compile(r"^(?P<name>[A-Za-z0-9_]+)://(?P<host>\[[^\]]*\]|[^:/\[\]]*):(?P<port>\d+)$")


class ConfigSource(enum.IntEnum):
    """Where a value came from, numbered as DescribeConfigs reports it."""

    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    #: A group config resource's own value (KIP-848; Kafka numbers client-metrics configs 7).
    GROUP_CONFIG = 8


@dataclass(frozen=True, slots=True)
class Listener:
    """One listener: ``NAME://host:port`` and the security protocol its name maps to."""

    name: str
    host: str
    port: int
    security_protocol: str

    @property
    def url(self) -> str:
        return f"{self.name}://{self.host}:{self.port}"


@dataclass(frozen=True, slots=True)
class BrokerConfig:
    """Every broker setting's effective value and source, with typed accessors for the common ones.

    A running broker's configuration may carry dynamic layers (AlterConfigs on a broker resource, Kafka's
    order: this broker's own ``dynamic_broker`` over the cluster-wide ``dynamic_default`` over ``base``, the
    static configuration); :meth:`with_dynamic` makes the next one. ``values`` is always the effective view.
    """

    values: Mapping[builtins.str, Value]
    sources: Mapping[builtins.str, ConfigSource]
    base: BrokerConfig | None = None
    """The static configuration under the dynamic layers (None: this one is static)."""
    dynamic_default: Mapping[builtins.str, Value] = field(default_factory=lambda: _NONE)
    dynamic_broker: Mapping[builtins.str, Value] = field(default_factory=lambda: _NONE)

    @property
    def static(self) -> BrokerConfig:
        """The configuration the broker started with (defaults, file, environment, overrides)."""
        return self.base or self

    def with_dynamic(self, default: Mapping[builtins.str, Value], broker: Mapping[builtins.str, Value]) -> BrokerConfig:
        """The static configuration under these dynamic layers (names it does not define stay in the layers only,
        as Kafka keeps the thread-pool settings Rockafka has no use for)."""
        static = self.static
        values, sources = dict(static.values), dict(static.sources)
        layers = ((default, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG), (broker, ConfigSource.DYNAMIC_BROKER_CONFIG))
        for layer, source in layers:
            for name, value in layer.items():
                if name in values:
                    values[name], sources[name] = value, source
        return BrokerConfig(values, sources, static, MappingProxyType(dict(default)), MappingProxyType(dict(broker)))

    def layer(self, source: ConfigSource) -> Mapping[builtins.str, Value]:
        """The settings one source sets: a dynamic layer, or the static settings (STATIC_BROKER_CONFIG)."""
        if source == ConfigSource.DYNAMIC_BROKER_CONFIG:
            return self.dynamic_broker
        if source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG:
            return self.dynamic_default
        static = self.static
        return {name: static.values[name] for name, where in static.sources.items() if where == source}

    def get(self, name: builtins.str) -> Value:
        return self.values[name]

    def int(self, name: builtins.str) -> builtins.int:
        value = self.values[name]
        if not isinstance(value, builtins.int) or isinstance(value, builtins.bool):
            raise TypeError(f"setting {name} is not an integer: {value!r}")
        return value

    def bool(self, name: builtins.str) -> builtins.bool:
        return builtins.bool(self.values[name])

    def str(self, name: builtins.str) -> builtins.str:
        return builtins.str(self.values[name])

    @property
    def node_id(self) -> builtins.int:
        broker_id = self.values.get("broker.id")
        if self.sources["node.id"] == ConfigSource.DEFAULT_CONFIG and isinstance(broker_id, builtins.int):
            return broker_id
        return self.int("node.id")

    @property
    def data_dir(self) -> Path:
        dirs = self.values["log.dirs"]
        if isinstance(dirs, list) and dirs:
            return Path(dirs[0])
        return Path(self.str("log.dir"))

    @property
    def listeners(self) -> list[Listener]:
        """The listeners to open: ``listeners`` without those ``controller.listener.names`` names (KRaft's)."""
        controller = set(self._list("controller.listener.names"))
        parsed = _parse_listeners("listeners", self._list("listeners"), self._protocol_map())
        return [item for item in parsed if item.name not in controller]

    @property
    def advertised_listeners(self) -> list[Listener]:
        """The advertised listeners, defaulting to the listeners with wildcard hosts shown as 127.0.0.1."""
        names = self.values["advertised.listeners"]
        if isinstance(names, list) and names:
            return _parse_listeners("advertised.listeners", names, self._protocol_map())
        return [
            Listener(
                item.name,
                item.host if item.host not in ("", "0.0.0.0", "::", "[::]") else "127.0.0.1",
                item.port,
                item.security_protocol,
            )
            for item in self.listeners
        ]

    def for_listener(
        self, listener_name: builtins.str, name: builtins.str, mechanism: builtins.str | None = None
    ) -> Value:
        """``name`` as one listener sees it: ``listener.name.<listener>.<mechanism>.<name>`` (for the settings
        Kafka scopes by mechanism), else ``listener.name.<listener>.<name>``, else the broker-wide value."""
        prefix = f"{LISTENER_PREFIX}{listener_name.lower()}."
        if mechanism is not None and (scoped := f"{prefix}{mechanism.lower()}.{name}") in self.values:
            return self.values[scoped]
        return self.values.get(prefix + name, self.values[name])

    @property
    def retention_ms(self) -> builtins.int:
        """The broker-wide retention: log.retention.ms, else minutes, else hours (Kafka's precedence)."""
        for name, scale in RETENTION_SETTINGS:
            value = self.values[name]
            if isinstance(value, builtins.int):
                return value if value < 0 else value * scale
        return 604_800_000

    def _list(self, name: builtins.str) -> list[builtins.str]:
        value = self.values[name]
        return list(value) if isinstance(value, list) else []

    def _protocol_map(self) -> dict[builtins.str, builtins.str]:
        mapping: dict[builtins.str, builtins.str] = {}
        for entry in self._list("listener.security.protocol.map"):
            name, sep, protocol = entry.partition(":")
            if not sep or protocol not in ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"):
                raise InvalidConfigError("listener.security.protocol.map", entry, "expects NAME:PROTOCOL entries")
            mapping[name] = protocol
        return mapping


def _parse_listeners(setting: str, entries: Iterable[str], protocols: Mapping[str, str]) -> list[Listener]:
    listeners: list[Listener] = []
    for entry in entries:
        match = _LISTENER.match(entry)
        if match is None:
            raise InvalidConfigError(setting, entry, "expects NAME://host:port")
        name, port = match["name"], int(match["port"])
        if name not in protocols:
            raise InvalidConfigError(setting, entry, f"listener name {name} is not in listener.security.protocol.map")
        if port > 65535:
            raise InvalidConfigError(setting, entry, "port must be at most 65535")
        if any(existing.name == name for existing in listeners):
            raise InvalidConfigError(setting, entry, f"listener name {name} appears twice")
        listeners.append(Listener(name, match["host"].strip("[]"), port, protocols[name]))
    return listeners


def decode_properties(data: bytes, path: Path) -> str:
    """The text of a properties file, which must be UTF-8; a :class:`ConfigError` naming the file, line
    and byte otherwise (Java's ``Properties.load`` would read Latin-1; a modern server.properties is UTF-8)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{path}: line {line} is not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def read_properties(text: str, source: str = "properties") -> list[tuple[str, str]]:
    """Parse Java properties text into (key, value) pairs, in order, as ``java.util.Properties.load`` does:
    ``#``/``!`` comments, ``=``, ``:`` or blanks between key and value, a trailing backslash continuing the
    line (also on the last line), and the escapes ``\\t \\n \\r \\f \\uXXXX`` (any other escaped character
    stands for itself). A malformed ``\\u`` escape is a :class:`ConfigError` naming ``source`` and the line."""
    pairs: list[tuple[str, str]] = []
    pending = ""
    first_line = 0
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = pending + raw.lstrip() if pending else raw.strip()
        if not pending:
            first_line = number
            if not line or line[0] in "#!":
                continue
        if _continues(line) and number < len(lines):
            pending = line[:-1]
            continue
        pending = ""
        pairs.append(_pair(line[:-1] if _continues(line) else line, f"{source}: line {first_line}"))
    return pairs


def _continues(line: str) -> bool:
    """An odd number of backslashes at the end continues the line."""
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def _pair(line: str, where: str) -> tuple[str, str]:
    match = re.match(r"^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$", line)
    key, value = (match[1], match[2]) if match else (line, "")
    return _unescape(key, where), _unescape(value.strip(), where)


_ESCAPES: Final = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _unescape(text: str, where: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 == len(text):
            out.append(char if char != "\\" else "")
            index += 1
            continue
        escaped = text[index + 1]
        if escaped == "u":
            digits = text[index + 2 : index + 6]
            if len(digits) < 4 or any(digit not in string.hexdigits for digit in digits):
                raise ConfigError(f"{where}: malformed \\uxxxx escape {text[index : index + 6]!r}")
            out.append(chr(int(digits, 16)))
            index += 6
        else:
            out.append(_ESCAPES.get(escaped, escaped))
            index += 2
    return "".join(out)


def load_broker_config(
    properties_file: Path | None = None,
    overrides: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    *,
    kafka_env: bool = False,
) -> BrokerConfig:
    """Build the effective configuration; raises :class:`ConfigError` with one readable line on a bad setting."""
    values: dict[str, Value] = {name: d.default for name, d in BROKER_CONFIGS.items()}
    sources = dict.fromkeys(BROKER_CONFIGS, ConfigSource.DEFAULT_CONFIG)

    def apply(name: str, text: str, origin: str) -> None:
        _check_text(name, text, origin)
        if name in IGNORED_BROKER_SETTINGS:
            log.info("setting %s (%s) has no effect on a single-node broker; ignored", name, origin)
            return
        definition = BROKER_CONFIGS.get(name) or listener_scoped_definition(name)
        if definition is None:
            if name in KAFKA_BROKER_SETTINGS:
                log.warning("setting %s (%s) is a Kafka broker setting Rockafka does not implement; ignored", name,
                            origin)  # fmt: skip
                return
            raise UnknownConfigError(name, origin, closest_setting(name))
        values[name] = parse_value(definition, text)
        sources[name] = ConfigSource.STATIC_BROKER_CONFIG

    if properties_file is not None:
        try:
            data = properties_file.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read properties file {properties_file}: {exc.strerror or exc}") from None
        for key, value in read_properties(decode_properties(data, properties_file), str(properties_file)):
            apply(key, value, f"in {properties_file}")
    env_names = {ENV_PREFIX + name.upper().replace(".", "_"): name for name in BROKER_CONFIGS}
    for variable, text in sorted((environ or {}).items()):
        if variable in env_names:
            apply(env_names[variable], text, f"from environment variable {variable}")
    if kafka_env:
        for name, text, variable in kafka_env_settings(environ or {}):
            apply(name, text, f"from environment variable {variable}")
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--override expects KEY=VALUE, got {item!r}")
        apply(key.strip(), value, "from --override")
    config = BrokerConfig(values, sources)
    _check_consistency(config)
    return config


def closest_setting(name: str) -> str | None:
    """The known broker setting (Rockafka's or Kafka's) a mistyped ``name`` most likely meant, if any is close."""
    known = sorted(BROKER_CONFIGS.keys() | KAFKA_BROKER_SETTINGS)
    found = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    return found[0] if found else None


def _check_text(name: str, text: str, origin: str) -> None:
    """Refuse a name or value that is not text: bytes that are not UTF-8 reach Python from the command line
    and the environment as lone surrogates, which no file, log line or response could carry."""
    for part, what in ((name, "setting name"), (text, f"value of '{name}'")):
        try:
            part.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ConfigError(f"the {what} {origin} is not UTF-8 text (at character {exc.start + 1})") from None


def listener_scoped_definition(name: str) -> ConfigDef | None:
    """The definition behind ``listener.name.<listener>.[<mechanism>.]<setting>``, or None for another name."""
    if not name.startswith(LISTENER_PREFIX):
        return None
    _, _, scoped = name[len(LISTENER_PREFIX) :].partition(".")
    if scoped in LISTENER_SCOPED:
        return BROKER_CONFIGS[scoped]
    _, _, setting = scoped.partition(".")
    return BROKER_CONFIGS[setting] if setting in MECHANISM_SCOPED else None


def _check_inter_broker_listener(config: BrokerConfig) -> None:
    """Kafka's rules: at most one of the two settings, naming an advertised listener."""
    name, protocol = config.values["inter.broker.listener.name"], config.values["security.inter.broker.protocol"]
    if name is not None and protocol is not None:
        raise InvalidConfigError(
            "inter.broker.listener.name", str(name), "only one of it and security.inter.broker.protocol may be set"
        )
    chosen = name if name is not None else protocol
    advertised = [item.name for item in config.advertised_listeners]
    if chosen is not None and chosen not in advertised:
        setting = "inter.broker.listener.name" if name is not None else "security.inter.broker.protocol"
        raise InvalidConfigError(setting, str(chosen), f"names no advertised listener ({', '.join(advertised)})")


def _check_consistency(config: BrokerConfig) -> None:
    listeners = config.listeners
    if not listeners:
        raise InvalidConfigError("listeners", "", "at least one listener is needed")
    advertised = {item.name for item in config.advertised_listeners}
    missing = [item.name for item in listeners if item.name not in advertised]
    if missing:
        raise InvalidConfigError(
            "advertised.listeners", ",".join(sorted(advertised)), f"lacks listener(s) {', '.join(missing)}"
        )
    _check_inter_broker_listener(config)
    low, high = config.int("group.min.session.timeout.ms"), config.int("group.max.session.timeout.ms")
    if low > high:
        raise InvalidConfigError("group.min.session.timeout.ms", str(low), "exceeds group.max.session.timeout.ms")

"""``dynamicBrokerConfigs.json``: the dynamic broker configs a single broker keeps, and the layering they make.

Format (UTF-8 JSON in the data directory, written by ``store.jsonfile``: to ``.tmp``, fsynced, the previous file
kept as ``.bak``, renamed into place, directory fsynced; read falls back to the ``.bak``)::

    {"version": 1,
     "default": {"log.retention.ms": "3600000"},     # the cluster-wide default (resource name "")
     "broker": {"message.max.bytes": "2000000"}}     # this broker's own (resource name: its node id)

Values are the text AlterConfigs sent, normalised (``format_value``), as Kafka keeps them. On start the broker
reads the file and layers it over its static settings: this broker's over the default over the static ones
(``BrokerConfig.with_dynamic``). A name the file holds that is no longer dynamic, or a value that no longer
parses, is left out with a WARNING (the file stays as it is until the next change). A file that neither it nor
its ``.bak`` can be read stops the broker with one line naming it (``CorruptStoreError``).

In a cluster the default layer is etcd's, not the file's (``cluster_broker_default.py``): ``cluster_default`` is
set when the broker joins, and :meth:`DynamicConfigs.apply_default` layers etcd's value as it changes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from rockafka.store import CorruptStoreError
from rockafka.store.jsonfile import read_json, write_json

from .config import BrokerConfig, ConfigError, Value, format_value
from .config.dynamic import check_dynamic

if TYPE_CHECKING:
    from .cluster_broker_default import ClusterBrokerDefault

log = logging.getLogger(__name__)

DYNAMIC_CONFIGS_FILE: Final = "dynamicBrokerConfigs.json"
FORMAT_VERSION: Final = 1
_LAYERS: Final = ("default", "broker")


class DynamicConfigs:
    """The dynamic broker configs of this broker: the file, and the texts of both layers as last written."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / DYNAMIC_CONFIGS_FILE
        self._texts: dict[str, dict[str, str]] = {layer: {} for layer in _LAYERS}
        self.cluster_default: ClusterBrokerDefault | None = None
        """In a cluster: where the default layer lives (etcd); None on a single broker (this file)."""

    def load(self, config: BrokerConfig) -> BrokerConfig:
        """``config`` under the layers the file holds (``config`` itself when there is no file)."""
        document = read_json(self.path, _parse)
        if document is None:
            return config
        parsed: dict[str, dict[str, Value]] = {}
        for layer in _LAYERS:
            parsed[layer], self._texts[layer] = _usable(str(self.path), document[layer])
        return config.with_dynamic(parsed["default"], parsed["broker"])

    def apply_default(self, config: BrokerConfig, texts: Mapping[str, str]) -> BrokerConfig:
        """``config`` with ``texts`` (the cluster's, from etcd) as its default layer; the file is not written."""
        parsed, self._texts["default"] = _usable("the cluster-wide broker default in etcd", texts)
        log.info("dynamic broker configs (cluster-wide default, from etcd) now %s", self._texts["default"] or "none")
        return config.with_dynamic(parsed, config.dynamic_broker)

    def texts(self, per_broker: bool) -> dict[str, str]:
        """One layer's settings as text: this broker's (``per_broker``) or the cluster-wide default."""
        return dict(self._texts["broker" if per_broker else "default"])

    def check(self, texts: Mapping[str, str]) -> dict[str, Value]:
        """The layer ``texts`` would make, parsed; ``StaticConfigError`` or ``ConfigError`` as ``check_dynamic``."""
        return check_dynamic(texts)

    def replace(self, config: BrokerConfig, per_broker: bool, texts: Mapping[str, str]) -> BrokerConfig:
        """Make ``texts`` one layer's whole set, written to the file before it takes effect; the new configuration.
        An ``OSError`` of the write leaves the file and the layers as they were."""
        parsed = check_dynamic(texts)
        layer = "broker" if per_broker else "default"
        normalised = {name: format_value(value) or "" for name, value in parsed.items()}
        written = {**self._texts, layer: normalised}
        write_json(self.path, {"version": FORMAT_VERSION, **written})
        self._texts = written
        log.info("dynamic broker configs (%s) now %s", _shown(per_broker), normalised or "none")
        default = config.dynamic_default if per_broker else parsed
        broker = parsed if per_broker else config.dynamic_broker
        return config.with_dynamic(default, broker)


def _usable(where: str, texts: Mapping[str, str]) -> tuple[dict[str, Value], dict[str, str]]:
    """The settings of ``texts`` that are dynamic and parse, parsed and as text; the others left out with a WARNING."""
    parsed: dict[str, Value] = {}
    kept: dict[str, str] = {}
    for name, text in texts.items():
        try:
            parsed.update(check_dynamic({name: text}))
        except ConfigError as exc:
            log.warning("%s: %s=%s left out (%s)", where, name, text, exc)
            continue
        kept[name] = text
    return parsed, kept


def _shown(per_broker: bool) -> str:
    return "this broker" if per_broker else "cluster-wide default"


def _parse(document: Any) -> dict[str, dict[str, str]]:
    if document.get("version") != FORMAT_VERSION:
        raise CorruptStoreError(f"unknown format version {document.get('version')!r}")
    return {layer: {str(name): str(text) for name, text in dict(document[layer]).items()} for layer in _LAYERS}

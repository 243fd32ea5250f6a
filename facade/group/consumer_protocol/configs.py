"""``groupConfigs.json``: the group config resources this broker keeps (``facade/config/group.py`` lists them).

One JSON document in the data directory, replaced atomically with a ``.bak`` (``store/jsonfile.py``)::

    {"version": 1, "groups": {group id: {config name: value text}}}

A group's overrides are written before they take effect; a group without overrides is left out. They apply to
the consumer-protocol or share group of that id (whether it exists yet or not): its session timeout and the
heartbeat interval its members are told; a share group's lock duration and where it starts reading. In a
cluster each broker keeps its own file: overrides set on one broker are not seen by another that later
coordinates the group.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from rockafka.facade.config import BrokerConfig
from rockafka.facade.config.group import effective_group_configs, validate_group_configs
from rockafka.store.jsonfile import read_json, write_json

log = logging.getLogger(__name__)

GROUP_CONFIGS_FILE: Final = "groupConfigs.json"
FORMAT_VERSION: Final = 1


def _parse(document: Any) -> dict[str, dict[str, str]]:
    if document["version"] != FORMAT_VERSION:
        raise ValueError(f"unknown version {document['version']!r}")
    return {str(group): {str(k): str(v) for k, v in configs.items()} for group, configs in document["groups"].items()}


class GroupConfigs:
    def __init__(self, data_dir: Path, broker: Callable[[], BrokerConfig]) -> None:
        self.path = data_dir / GROUP_CONFIGS_FILE
        self._broker = broker
        self._overrides: dict[str, dict[str, str]] = read_json(self.path, _parse) or {}

    def overrides(self, group_id: str) -> dict[str, str]:
        return dict(self._overrides.get(group_id, {}))

    def value(self, group_id: str, name: str) -> int:
        """The (numeric) group config's effective value: the group's override, else the broker setting's."""
        return int(self.text(group_id, name))

    def text(self, group_id: str, name: str) -> str:
        """The group config's effective value as text (``share.auto.offset.reset``'s ``latest``)."""
        return str(effective_group_configs(self._overrides.get(group_id, {}), self._broker())[name])

    def replace(self, group_id: str, overrides: Mapping[str, str], validate_only: bool = False) -> None:
        """Make ``overrides`` the group's whole set (``ConfigError`` if invalid; ``OSError`` if the file cannot
        be written, and nothing changes)."""
        normalised = validate_group_configs(overrides, self._broker())
        if validate_only:
            return
        written = {**self._overrides, group_id: normalised}
        if not normalised:
            del written[group_id]
        write_json(self.path, {"version": FORMAT_VERSION, "groups": written})
        self._overrides = written
        log.info("group %s configs now %s", group_id, normalised or "the broker's")

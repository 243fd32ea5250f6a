"""ACL and SCRAM-user fixtures appended to aiokafka's ``tests/conftest.py``, after :mod:`.aiokafka_overrides`.

Upstream's ``acl_manager`` and ``kafka_config`` fixtures (``tests/_testutil.py`` ``ACLManager`` and
``KafkaConfig``) run ``kafka-acls.sh`` and ``kafka-configs.sh`` inside the Kafka container through
ZooKeeper. These do the same job with Rockafka's own CLI, online through the broker as the super user
(``User:admin``, whose PLAIN password is in the JAAS line the runner configures, as in upstream's
``kafka_server_jaas.conf``), so a change is in force when the call returns, as it is in Kafka once
kafka-acls.sh has written to ZooKeeper and the test continues:

- ``add_acl``/``remove_acl``/``list_acl``/``cleanup`` -> ``rockafka acls add|remove|list`` with
  kafka-acls.sh's own options (``--allow-principal User:<name>``, ``--operation``, ``--topic``, ...);
- ``add_scram_user(username, password)`` -> ``rockafka users add <username>`` (SCRAM-SHA-256 and
  SCRAM-SHA-512, as upstream's ``--add-config 'SCRAM-SHA-256=[...],SCRAM-SHA-512=[...]'``), the password on
  standard input.

The commands come from ``$ROCKAFKA_CLI`` (the project's Python running ``rockafka``), the broker address
and login from ``$ROCKAFKA_ADMIN_BOOTSTRAP`` and ``$ROCKAFKA_ADMIN_CONFIG``.
"""

import json as _json
import logging as _logging
import os as _os
import subprocess as _subprocess

import pytest as _pytest

_admin_log = _logging.getLogger("rockafka.admin")


def _rockafka(*args: str, stdin: str | None = None) -> str:
    """Run ``rockafka <args>`` against the broker as its super user; RuntimeError (as upstream) on failure."""
    command = [
        *_json.loads(_os.environ["ROCKAFKA_CLI"]),
        *args,
        "--bootstrap-server",
        _os.environ["ROCKAFKA_ADMIN_BOOTSTRAP"],
        "--command-config",
        _os.environ["ROCKAFKA_ADMIN_CONFIG"],
    ]
    done = _subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        _admin_log.warning("rockafka %s: %s%s", " ".join(args[:2]), done.stdout, done.stderr)
        raise RuntimeError(f"rockafka {' '.join(args[:2])} failed: {done.stderr.strip()}")
    _admin_log.debug("rockafka %s: %s", " ".join(args[:2]), done.stdout)
    return done.stdout


class RockafkaACLManager:
    """Upstream ``ACLManager``'s interface; the bindings it added are removed by ``cleanup()``."""

    def __init__(self) -> None:
        self._active_acls: list[dict] = []

    def add_acl(self, **acl_params) -> None:
        _rockafka("acls", "add", *self._format_params(**acl_params))
        self._active_acls.append(acl_params)

    def remove_acl(self, **acl_params) -> None:
        _rockafka("acls", "remove", *self._format_params(**acl_params))
        self._active_acls.remove(acl_params)

    def list_acl(self, principal: str | None = None) -> bytes:
        options = ["--principal", f"User:{principal}"] if principal else []
        return _rockafka("acls", "list", *options).encode()

    def cleanup(self) -> None:
        for acl_params in self._active_acls[:]:
            self.remove_acl(**acl_params)

    @staticmethod
    def _format_params(
        cluster=None,
        topic=None,
        group=None,
        transactional_id=None,
        allow_principal=None,
        deny_principal=None,
        allow_host=None,
        deny_host=None,
        operation=None,
    ) -> list[str]:
        """kafka-acls.sh's options for upstream's keyword arguments (the same names)."""
        options = []
        if cluster:
            options.append("--cluster")
        for flag, value in (("--topic", topic), ("--group", group), ("--transactional-id", transactional_id)):
            if value is not None:
                options += [flag, value]
        for flag, value in (("--allow-principal", allow_principal), ("--deny-principal", deny_principal)):
            if value is not None:
                options += [flag, f"User:{value}"]
        for flag, value in (("--allow-host", allow_host), ("--deny-host", deny_host), ("--operation", operation)):
            if value is not None:
                options += [flag, value]
        return options


class RockafkaKafkaConfig:
    """Upstream ``KafkaConfig``'s interface: SCRAM users."""

    def add_scram_user(self, username: str, password: str) -> None:
        _rockafka("users", "add", username, stdin=password + "\n")


@_pytest.fixture(scope="class")
def acl_manager(kafka_server):
    return RockafkaACLManager()


@_pytest.fixture(scope="class")
def kafka_config(kafka_server):
    return RockafkaKafkaConfig()

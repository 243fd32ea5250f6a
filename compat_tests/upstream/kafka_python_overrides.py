"""Fixture overrides appended to kafka-python's ``test/integration/conftest.py``: every broker is Rockafka.

kafka-python's built-in external mode (``KAFKA_URI``) gives every test one PLAINTEXT broker and ignores
the transport a fixture asks for, so upstream skips ``test_sasl_integration.py`` under it and
``test_ssl_integration.py`` always spawns its own SSL Kafka. The runner's broker has every listener those
fixtures would spawn (:mod:`.suites`), so here ``KafkaFixture.instance(...)`` returns an external fixture
for the listener matching the requested ``transport`` and ``sasl_mechanism``:

- ``PLAINTEXT`` -> ``$KAFKA_URI`` (exactly upstream's external mode);
- ``SSL`` -> the ``SSL`` listener, with ``ssl_dir`` the runner's certificate directory (its ``ca-cert``
  signed the broker's certificate, as ``gen_ssl_resources`` lays it out);
- ``SASL_PLAINTEXT`` with a mechanism -> the listener offering only that mechanism, ``SASL_PLAIN``,
  ``SASL_SCRAM_SHA_256`` or ``SASL_SCRAM_SHA_512``, where the fixture's user ``alice`` exists.

``KAFKA_URI`` is read here and removed from the environment before the test modules are imported, so
``test_sasl_integration.py``'s "external broker" skip (it means: a broker without SASL) does not apply:
the fixture factory then takes upstream's own path, ``KafkaFixture.instance(0, transport=...,
sasl_mechanism=...)``, which lands here. ``get_topic_names()`` runs ``kafka-topics.sh --list`` upstream;
here :mod:`compat_tests.upstream.topic_names` does the same with the fixture's connection settings.
Against groups of R members (the runner's ``--replicas R``, ``$ROCKAFKA_REPLICAS``) the fixture's ``replicas``,
the replication factor its ``create_topics`` asks for, is R where the test leaves upstream's default of 1.
"""

import json as _json
import os as _os
import subprocess as _subprocess
import tempfile as _tempfile
from urllib.parse import urlparse as _urlparse

from test.integration.fixtures import KafkaFixture as _KafkaFixture

_KAFKA_URI = _urlparse(_os.environ.pop("KAFKA_URI"))
_LISTENERS = _json.loads(_os.environ["ROCKAFKA_LISTENERS"])
_LISTENERS["PLAINTEXT"] = f"{_KAFKA_URI.hostname}:{_KAFKA_URI.port}"
_REPLICAS = int(_os.environ.get("ROCKAFKA_REPLICAS", "1"))


def _listener_name(transport, sasl_mechanism):
    if sasl_mechanism is None:
        return transport
    return "SASL_" + sasl_mechanism.replace("-", "_")


def _rockafka_instance(cls, broker_id, zookeeper=None, zk_chroot=None, host="localhost", port=None,
                       external=False, transport="PLAINTEXT", replicas=1, partitions=4, sasl_mechanism=None,
                       auto_create_topic=True, tmp_dir=None):  # fmt: skip
    """Upstream ``KafkaFixture.instance``'s signature; an external fixture for the matching listener."""
    address = _LISTENERS[_listener_name(transport.upper(), sasl_mechanism and sasl_mechanism.upper())]
    listener_host, listener_port = address.rsplit(":", 1)
    replicas = _REPLICAS if replicas == 1 else replicas
    fixture = cls(listener_host, int(listener_port), broker_id, external=True, transport=transport,
                  replicas=replicas, partitions=partitions, sasl_mechanism=sasl_mechanism,
                  auto_create_topic=auto_create_topic, tmp_dir=tmp_dir)  # fmt: skip
    if fixture.ssl_enabled:
        fixture.ssl_dir = _os.environ["ROCKAFKA_SSL_DIR"]
    return fixture


def _command_config(fixture):
    """The fixture's client settings as Kafka client properties (upstream renders sasl_command.conf)."""
    lines = [f"security.protocol={fixture.transport}"]
    if fixture.sasl_enabled:
        module = "plain.PlainLoginModule" if fixture.sasl_mechanism == "PLAIN" else "scram.ScramLoginModule"
        lines += [
            f"sasl.mechanism={fixture.sasl_mechanism}",
            f"sasl.jaas.config=org.apache.kafka.common.security.{module} required "
            f'username="{fixture.broker_user}" password="{fixture.broker_password}";',
        ]
    if fixture.ssl_enabled:
        lines += [f"ssl.truststore.location={fixture.ssl_dir}/ca-cert", "ssl.endpoint.identification.algorithm="]
    return "\n".join(lines) + "\n"


def _rockafka_get_topic_names(self):
    with _tempfile.NamedTemporaryFile("w", suffix=".properties") as config:
        config.write(_command_config(self))
        config.flush()
        command = [*_json.loads(_os.environ["ROCKAFKA_TOPIC_NAMES"]), "--bootstrap-server", self.bootstrap_server(),
                   "--command-config", config.name]  # fmt: skip
        done = _subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        self.out(done.stderr)
        raise RuntimeError("Failed to list topics!")
    return done.stdout.splitlines(False)


_KafkaFixture.instance = classmethod(_rockafka_instance)
_KafkaFixture.get_topic_names = _rockafka_get_topic_names

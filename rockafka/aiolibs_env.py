"""``rockafka serve --aiolibs-env``: the settings the ``aiolibs/kafka`` image's start script derives from its
environment, so that aiokafka's test suite drives the Rockafka image through its own docker fixture.

aiokafka's ``tests/conftest.py`` starts its Kafka image with these variables (and mounts the TLS files its
``gen-ssl-certs.sh`` made at ``/ssl_cert``); its start script turns them into broker settings, and so does
:func:`aiolibs_settings`:

- ``ADVERTISED_HOST`` and ``ADVERTISED_PORT``: a PLAINTEXT listener on every address at that port, advertised
  as ``ADVERTISED_HOST:ADVERTISED_PORT``;
- ``ADVERTISED_SSL_PORT``: an SSL listener there, with the broker's key and certificate
  (``/ssl_cert/server.key``, ``server.crt``: PEM, which Rockafka reads; the script names the JKS stores made
  from them) and the CA (``/ssl_cert/ca.crt``) as the trust store, client certificates required, TLS 1.2;
- ``SASL_MECHANISMS`` with ``ADVERTISED_SASL_PLAINTEXT_PORT`` and ``ADVERTISED_SASL_SSL_PORT``: SASL_PLAINTEXT
  and SASL_SSL listeners offering those mechanisms (GSSAPI left out: Rockafka has no Kerberos), the PLAIN
  users of the image's JAAS file (``admin``, ``test``, ``test2``, each with its name as password), and the
  ACL authorizer allowing everyone on resources no ACL names;
- ``NUM_PARTITIONS``: ``num.partitions``;
- always: ``auto.create.topics.enable=true``, ``super.users=User:admin``, and the values of Kafka's shipped
  ``server.properties`` the script starts from that differ from Rockafka's defaults.

SCRAM users are not made here: the suite adds them with ``kafka-configs.sh --zookeeper`` through ``docker exec``.
``SASL_JAAS_FILE`` only chooses which of the image's JAAS files the script uses; the users above are those of
the one aiokafka's fixture names for current Kafka versions. ``--override`` still wins over these.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rockafka.facade.config import ConfigError

CERTIFICATES = Path("/ssl_cert")
CERTIFICATES_VARIABLE = "AIOLIBS_SSL_DIR"
"""Where the TLS files are instead, when set (the image's entrypoint copies them for the broker's user)."""
PLAIN_USERS = ("admin", "test", "test2")
"""The PLAIN users of the aiolibs/kafka image's ``kafka_server_jaas.conf``; each user's password is its name."""
OFFERED = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


def _port(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise ConfigError(f"{name}={value!r} is not a port number (environment of the aiolibs/kafka image)")
    return value


def _listeners(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """(security protocol, port) of each listener the variables ask for."""
    plain = _port(environ, "ADVERTISED_PORT")
    if plain is None:
        raise ConfigError("ADVERTISED_PORT is not set (the aiolibs/kafka image's environment needs it)")
    listeners = [("PLAINTEXT", plain)]
    ssl = _port(environ, "ADVERTISED_SSL_PORT")
    if ssl is not None:
        listeners.append(("SSL", ssl))
    if environ.get("SASL_MECHANISMS", "").strip():
        for protocol, variable in (("SASL_PLAINTEXT", "ADVERTISED_SASL_PLAINTEXT_PORT"),
                                   ("SASL_SSL", "ADVERTISED_SASL_SSL_PORT")):  # fmt: skip
            port = _port(environ, variable)
            if port is not None:
                listeners.append((protocol, port))
    return listeners


def _tls(certificates: Path) -> dict[str, str]:
    try:
        key = (certificates / "server.key").read_text()
        chain = (certificates / "server.crt").read_text()
    except OSError as exc:
        raise ConfigError(f"the SSL listener needs gen-ssl-certs.sh's files in {certificates}: {exc}") from None
    return {
        "ssl.keystore.type": "PEM",
        "ssl.keystore.key": key,
        "ssl.keystore.certificate.chain": chain,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(certificates / "ca.crt"),
        "ssl.client.auth": "required",
        "ssl.endpoint.identification.algorithm": "",
        "ssl.enabled.protocols": "TLSv1.2",
    }


def _sasl(mechanisms: str) -> dict[str, str]:
    offered = [m.strip() for m in mechanisms.split(",") if m.strip() in OFFERED]
    users = " ".join(f'user_{user}="{user}"' for user in PLAIN_USERS)
    return {
        "sasl.enabled.mechanisms": ",".join(offered),
        "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required "
        f'username="admin" password="admin" {users};',
        "authorizer.class.name": "kafka.security.auth.SimpleAclAuthorizer",
        "allow.everyone.if.no.acl.found": "true",
    }


def aiolibs_settings(environ: Mapping[str, str], certificates: Path | None = None) -> dict[str, str]:
    """The broker settings the aiolibs/kafka image's start script would give for ``environ`` (TLS files from
    ``certificates``, else ``$AIOLIBS_SSL_DIR``, else ``/ssl_cert``); ConfigError (one line) for a missing or
    malformed variable, or TLS files that cannot be read."""
    if certificates is None:
        certificates = Path(environ.get(CERTIFICATES_VARIABLE) or CERTIFICATES)
    host = environ.get("ADVERTISED_HOST", "").strip() or "127.0.0.1"
    listeners = _listeners(environ)
    settings = {
        "listeners": ",".join(f"{protocol}://0.0.0.0:{port}" for protocol, port in listeners),
        "advertised.listeners": ",".join(f"{protocol}://{host}:{port}" for protocol, port in listeners),
        "auto.create.topics.enable": "true",
        "super.users": "User:admin",
        "group.initial.rebalance.delay.ms": "0",  # Kafka's shipped server.properties
        "group.min.session.timeout.ms": "6000",  # Kafka's default (aiokafka's tests expect 200 ms refused)
    }
    partitions = environ.get("NUM_PARTITIONS", "").strip()
    if partitions:
        settings["num.partitions"] = partitions
    protocols = {protocol for protocol, _ in listeners}
    if protocols & {"SSL", "SASL_SSL"}:
        settings.update(_tls(certificates))
    if protocols & {"SASL_PLAINTEXT", "SASL_SSL"}:
        settings.update(_sasl(environ["SASL_MECHANISMS"]))
    return settings

"""Kafka client properties files, and the Java client's security settings in kafka-python's terms.

A properties file (``--from-config``/``--to-config``, the file a Java client or ``kafka-console-consumer
--consumer.config`` reads) holds ``name=value`` lines (``name: value`` too; ``#``/``!`` comments; a trailing
``\\`` continues a line). Each setting becomes the ``kafka.``-prefixed option the ``rockafka`` source and sink
take, so the admin calls and the Spark jobs use the same settings.

The Java client's security settings that kafka-python spells differently are translated:

- ``sasl.jaas.config`` with ``PlainLoginModule`` or ``ScramLoginModule`` → ``sasl_plain_username`` and
  ``sasl_plain_password`` (its ``username="..."`` and ``password="..."``); other login modules are refused;
- ``ssl.truststore.location`` (``ssl.truststore.type=PEM``) → ``ssl_cafile``;
- ``ssl.keystore.location`` (``ssl.keystore.type=PEM``: certificate and key in one file) → ``ssl_certfile``
  and ``ssl_keyfile``; ``ssl.key.password`` → ``ssl_password``;
- ``ssl.endpoint.identification.algorithm`` → ``ssl_check_hostname`` (empty: off; ``https``: on).

JKS and PKCS12 stores are refused (kafka-python reads PEM files): convert them with ``keytool``/``openssl``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import OptionError

JAAS_MODULES = (
    "org.apache.kafka.common.security.plain.PlainLoginModule",
    "org.apache.kafka.common.security.scram.ScramLoginModule",
)
#: Java names consumed by the translation (values checked there); kafka.-prefixed, lower case.
JAVA_ONLY = frozenset(
    {
        "kafka.sasl.jaas.config",
        "kafka.ssl.truststore.location",
        "kafka.ssl.truststore.type",
        "kafka.ssl.truststore.password",
        "kafka.ssl.keystore.location",
        "kafka.ssl.keystore.type",
        "kafka.ssl.keystore.password",
        "kafka.ssl.key.password",
        "kafka.ssl.endpoint.identification.algorithm",
    }
)
_JAAS_VALUE = re.compile(r'(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"')


def read_properties(path: Path) -> dict[str, str]:
    """The settings of a Java properties file; an unreadable file or a line without a name is an error."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise OptionError(f"cannot read the client properties file {path}: {exc.strerror}") from None
    settings: dict[str, str] = {}
    pending = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = pending + raw.strip()
        if line.endswith("\\") and not line.endswith("\\\\"):
            pending = line[:-1]
            continue
        pending = ""
        if not line or line.startswith(("#", "!")):
            continue
        match = re.match(r"([^=:\s]+)\s*[=:\s]\s*(.*)$", line)
        if match is None:
            raise OptionError(f"{path}:{number}: expected name=value, not {line!r}")
        settings[match.group(1)] = match.group(2)
    return settings


def as_options(settings: Mapping[str, str]) -> dict[str, str]:
    """The ``kafka.``-prefixed options of a client's settings (as the Spark Kafka source takes them)."""
    return {f"kafka.{name}": value for name, value in settings.items()}


def java_security(options: Mapping[str, str]) -> dict[str, Any]:
    """kafka-python settings for the Java-only options among ``options`` (lower-case names, ``kafka.``-prefixed)."""
    config: dict[str, Any] = {}
    jaas = options.get("kafka.sasl.jaas.config")
    if jaas is not None:
        config.update(_jaas(jaas))
    truststore = options.get("kafka.ssl.truststore.location")
    if truststore is not None:
        _pem_only(options, "truststore")
        config["ssl_cafile"] = truststore
    keystore = options.get("kafka.ssl.keystore.location")
    if keystore is not None:
        _pem_only(options, "keystore")
        config["ssl_certfile"] = config["ssl_keyfile"] = keystore
    if "kafka.ssl.key.password" in options:
        config["ssl_password"] = options["kafka.ssl.key.password"]
    algorithm = options.get("kafka.ssl.endpoint.identification.algorithm")
    if algorithm is not None:
        if algorithm.lower() not in ("", "https"):
            raise OptionError(f"ssl.endpoint.identification.algorithm must be https or empty, not {algorithm!r}")
        config["ssl_check_hostname"] = algorithm.lower() == "https"
    return config


def _jaas(text: str) -> dict[str, str]:
    module = text.split(None, 1)[0] if text.strip() else ""
    if module not in JAAS_MODULES:
        raise OptionError(f"sasl.jaas.config: only PlainLoginModule and ScramLoginModule are supported, not {module!r}")
    values = dict(_JAAS_VALUE.findall(text))
    if "username" not in values or "password" not in values:
        raise OptionError('sasl.jaas.config needs username="..." and password="..."')
    return {"sasl_plain_username": _unescape(values["username"]), "sasl_plain_password": _unescape(values["password"])}


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _pem_only(options: Mapping[str, str], store: str) -> None:
    kind = options.get(f"kafka.ssl.{store}.type", "JKS")
    if kind.upper() != "PEM":
        raise OptionError(
            f"ssl.{store}.type {kind} is not supported: kafka-python reads PEM files "
            f"(convert the {store} to PEM and set ssl.{store}.type=PEM)"
        )

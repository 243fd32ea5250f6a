"""TLS for SSL and SASL_SSL listeners: a server :class:`ssl.SSLContext` from Kafka's ``ssl.*`` settings.

Supported (PEM only; Python's ssl module reads neither JKS nor PKCS12 keystores):

- the broker's key and certificate chain: ``ssl.keystore.type=PEM`` with ``ssl.keystore.location`` (one PEM
  file holding the private key and the certificate chain, as Kafka's PEM keystore file does) and
  ``ssl.key.password`` for an encrypted key; or the PEM text itself in ``ssl.keystore.key`` and
  ``ssl.keystore.certificate.chain`` (kept in an anonymous in-memory file while loading, never on disk);
- trusted CAs for client certificates: ``ssl.truststore.type=PEM`` with ``ssl.truststore.location`` (a PEM
  file of CA certificates) or the PEM text in ``ssl.truststore.certificates``;
- ``ssl.client.auth``: ``required`` (a client without a trusted, valid certificate fails the handshake),
  ``requested`` (a certificate is verified if sent), ``none``. On a SASL_SSL listener only the
  listener-scoped value applies (KIP-684): Kafka ignores the broker-wide one there, so one broker may
  require certificates on its SSL listener and SASL logins alone on its SASL_SSL listener;
- ``ssl.enabled.protocols`` (TLSv1.2, TLSv1.3) and ``ssl.cipher.suites`` (TLS 1.2 suites, OpenSSL names).

Each setting may be given for one listener as ``listener.name.<listener>.ssl...``.

The same settings make the **client** context a broker uses to reach the others on the inter-broker listener
(:func:`client_ssl_context`, ``facade/interbroker.py``), as Kafka's brokers do: the truststore verifies the
other broker's certificate (the system's CAs without one), the keystore, when set, is presented as the broker's
own certificate (for listeners that require client certificates), and ``ssl.endpoint.identification.algorithm``
(``https``, the default, or empty) says whether the certificate must name the host dialled.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from typing import Final

from rockafka.facade.config import BrokerConfig
from rockafka.facade.config.broker import LISTENER_PREFIX

from .errors import SecuritySetupError

_VERSIONS: Final = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3}
_CLIENT_AUTH: Final = {"required": ssl.CERT_REQUIRED, "requested": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}
_Setting = Callable[[str], object]


def server_ssl_context(config: BrokerConfig, listener_name: str, *, sasl: bool = False) -> ssl.SSLContext:
    """The TLS context of one listener (``sasl``: a SASL_SSL listener); :class:`SecuritySetupError` (one line,
    no secrets) when unusable."""

    def setting(name: str) -> object:
        return config.for_listener(listener_name, name)

    where = f"listener {listener_name}"
    for kind in ("keystore", "truststore"):
        if setting(f"ssl.{kind}.type") != "PEM":
            raise SecuritySetupError(
                f"{where}: ssl.{kind}.type={setting(f'ssl.{kind}.type')} is not supported; convert it to PEM "
                f"and set ssl.{kind}.type=PEM (see docs/security.md)"
            )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    _load_key_and_chain(context, where, setting)
    _load_trust(context, where, setting)
    client_auth = _client_auth(config, listener_name, sasl)
    if client_auth != "none" and not (setting("ssl.truststore.location") or setting("ssl.truststore.certificates")):
        raise SecuritySetupError(f"{where}: ssl.client.auth={client_auth} needs a truststore (ssl.truststore.location)")
    context.verify_mode = _CLIENT_AUTH[client_auth]
    versions = sorted(_VERSIONS[v] for v in _as_list(setting("ssl.enabled.protocols")))
    if not versions:
        raise SecuritySetupError(f"{where}: ssl.enabled.protocols is empty")
    context.minimum_version, context.maximum_version = versions[0], versions[-1]
    ciphers = _as_list(setting("ssl.cipher.suites"))
    if ciphers:
        try:
            context.set_ciphers(":".join(ciphers))
        except ssl.SSLError:
            raise SecuritySetupError(f"{where}: no usable cipher in ssl.cipher.suites") from None
    return context


def client_ssl_context(config: BrokerConfig, listener_name: str) -> ssl.SSLContext:
    """The TLS context this broker dials other brokers' ``listener_name`` with (see the module docstring);
    :class:`SecuritySetupError` (one line, no secrets) when unusable."""

    def setting(name: str) -> object:
        return config.for_listener(listener_name, name)

    where = f"inter-broker listener {listener_name}"
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if setting("ssl.truststore.location") or setting("ssl.truststore.certificates"):
        _load_trust(context, where, setting)
    else:
        context.load_default_certs(ssl.Purpose.SERVER_AUTH)
    if setting("ssl.keystore.location") or setting("ssl.keystore.key"):
        _load_key_and_chain(context, where, setting)
    algorithm = str(setting("ssl.endpoint.identification.algorithm") or "")
    if algorithm not in ("", "https", "HTTPS"):
        raise SecuritySetupError(f"{where}: ssl.endpoint.identification.algorithm={algorithm} (https or empty)")
    context.check_hostname = bool(algorithm)
    versions = sorted(_VERSIONS[v] for v in _as_list(setting("ssl.enabled.protocols")))
    if versions:
        context.minimum_version, context.maximum_version = versions[0], versions[-1]
    return context


def _client_auth(config: BrokerConfig, listener_name: str, sasl: bool) -> str:
    """``ssl.client.auth`` for the listener; on SASL_SSL only its ``listener.name.<listener>.`` value (else none)."""
    if not sasl:
        return str(config.for_listener(listener_name, "ssl.client.auth"))
    return str(config.values.get(f"{LISTENER_PREFIX}{listener_name.lower()}.ssl.client.auth", "none"))


def _as_list(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def _load_key_and_chain(context: ssl.SSLContext, where: str, setting: _Setting) -> None:
    password = setting("ssl.key.password")
    key_password = str(password) if password else None
    chain, key, location = (
        setting("ssl.keystore.certificate.chain"),
        setting("ssl.keystore.key"),
        setting("ssl.keystore.location"),
    )
    try:
        if chain and key:
            _load_from_memory(context, f"{key}\n{chain}\n", key_password)
        elif location:
            context.load_cert_chain(str(location), password=key_password)
        else:
            raise SecuritySetupError(
                f"{where}: TLS needs ssl.keystore.location, or ssl.keystore.certificate.chain and ssl.keystore.key"
            )
    except (ssl.SSLError, OSError) as exc:
        raise SecuritySetupError(f"{where}: cannot load the broker's key and certificate: {_reason(exc)}") from None


def _load_from_memory(context: ssl.SSLContext, pem: str, password: str | None) -> None:
    """Load a key and chain given as text: OpenSSL reads files only, so use an anonymous in-memory file."""
    if not hasattr(os, "memfd_create"):
        raise SecuritySetupError("PEM text keystores need Linux (memfd); use ssl.keystore.location instead")
    descriptor = os.memfd_create("rockafka-keystore", os.MFD_CLOEXEC)
    try:
        os.write(descriptor, pem.encode("utf-8"))
        context.load_cert_chain(f"/proc/self/fd/{descriptor}", password=password)
    finally:
        os.close(descriptor)


def _load_trust(context: ssl.SSLContext, where: str, setting: _Setting) -> None:
    location, certificates = setting("ssl.truststore.location"), setting("ssl.truststore.certificates")
    try:
        if location:
            context.load_verify_locations(cafile=str(location))
        if certificates:
            context.load_verify_locations(cadata=str(certificates))
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise SecuritySetupError(f"{where}: cannot load the truststore: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({exc.filename})" if exc.filename else exc.strerror
    return str(exc)

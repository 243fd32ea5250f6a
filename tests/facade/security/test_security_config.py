"""Security settings as the broker loads them: listener- and mechanism-scoped names, precedence, hidden
passwords, and setups that cannot work."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.facade.config import ConfigError, load_broker_config
from rockafka.facade.security import SecurityService, SecuritySetupError

LISTENERS = (
    "listeners=PLAINTEXT://127.0.0.1:9092,CLIENTS://127.0.0.1:9093",
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CLIENTS:SASL_PLAINTEXT",
)


def test_listener_and_mechanism_scoped_settings_take_precedence() -> None:
    config = load_broker_config(
        None,
        [
            *LISTENERS,
            "connections.max.reauth.ms=1000",
            "listener.name.clients.connections.max.reauth.ms=2000",
            "listener.name.clients.scram-sha-512.connections.max.reauth.ms=3000",
            "listener.name.clients.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-512",
        ],
    )
    assert config.for_listener("PLAINTEXT", "connections.max.reauth.ms") == 1000
    assert config.for_listener("CLIENTS", "connections.max.reauth.ms") == 2000
    assert config.for_listener("CLIENTS", "connections.max.reauth.ms", "PLAIN") == 2000
    assert config.for_listener("CLIENTS", "connections.max.reauth.ms", "SCRAM-SHA-512") == 3000
    assert config.for_listener("CLIENTS", "sasl.enabled.mechanisms") == ["PLAIN", "SCRAM-SHA-512"]


@pytest.mark.parametrize(
    ("override", "shown"),
    [
        ("listener.name.clients.log.retention.ms=5", "unknown setting 'listener.name.clients.log.retention.ms'"),
        ("listener.name.clients.ssl.client.auth=always", "must be one of required, requested, none"),
        ("sasl.enabled.mechanisms=GSSAPI", "must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512"),
        ("authorizer.class.name=com.example.Custom", "must be one of"),
        ("ssl.keystore.type=PEMX", "must be one of PEM, JKS, PKCS12"),
    ],
)
def test_bad_security_settings_are_named(override: str, shown: str) -> None:
    with pytest.raises(ConfigError, match=shown):
        load_broker_config(None, [*LISTENERS, override])


def test_sasl_listener_reads_plain_users_from_the_scoped_jaas_line(tmp_path: Path) -> None:
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="a" user_bob="b";'
    config = load_broker_config(
        None, [*LISTENERS, f"log.dirs={tmp_path}", f"listener.name.clients.plain.sasl.jaas.config={jaas}"]
    )
    security = SecurityService(config)
    settings = security.listeners["CLIENTS"].sasl
    assert settings is not None and settings.plain_users == {"alice": "a", "bob": "b"}
    assert security.listeners["PLAINTEXT"].sasl is None and security.session("PLAINTEXT") is None
    assert security.session("CLIENTS") is not None
    assert security.authorizer is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (["ssl.keystore.type=JKS"], "ssl.keystore.type=JKS is not supported"),
        ([], "TLS needs ssl.keystore.location"),
        (["ssl.keystore.location=/nonexistent/keystore.pem", "ssl.key.password=pw-123"], "No such file"),
        (['listener.name.clients.plain.sasl.jaas.config=NoSemicolon required user_a="pw-123"'], "must end with"),
    ],
)
def test_unusable_setups_fail_with_one_line_without_secrets(tmp_path: Path, settings: list[str], message: str) -> None:
    listeners = [
        "listeners=SSL://127.0.0.1:9093,CLIENTS://127.0.0.1:9094",
        "listener.security.protocol.map=SSL:SSL,CLIENTS:SASL_PLAINTEXT",
    ]
    if any("jaas" in item for item in settings):
        listeners = list(LISTENERS)
    config = load_broker_config(None, [*listeners, f"log.dirs={tmp_path}", *settings])
    with pytest.raises(SecuritySetupError, match=message) as caught:
        SecurityService(config)
    assert "pw-123" not in str(caught.value) and "\n" not in str(caught.value)

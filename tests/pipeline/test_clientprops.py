"""Kafka client properties files and the Java client's security settings, as kafka-python settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.pipeline import OptionError
from rockafka.pipeline.clientprops import as_options, read_properties
from rockafka.pipeline.wire import client_config


def test_a_java_clients_properties_file_becomes_kafka_python_settings(tmp_path: Path) -> None:
    path = tmp_path / "client.properties"
    path.write_text(
        "# a comment\n! another\n\n"
        "bootstrap.servers = broker-1:9093\n"
        "security.protocol: SASL_SSL\n"
        "sasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
        '    username="mig\\"rator" password="p=w;d";\n'
        "ssl.truststore.type=PEM\nssl.truststore.location=/etc/ca.pem\n"
        "ssl.keystore.type=PEM\nssl.keystore.location=/etc/me.pem\nssl.key.password=kp\n"
        "ssl.endpoint.identification.algorithm=\n"
    )

    config = client_config(as_options(read_properties(path)), "consumer")

    assert config == {
        "bootstrap_servers": "broker-1:9093", "security_protocol": "SASL_SSL", "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": 'mig"rator', "sasl_plain_password": "p=w;d", "ssl_cafile": "/etc/ca.pem",
        "ssl_certfile": "/etc/me.pem", "ssl_keyfile": "/etc/me.pem", "ssl_password": "kp", "ssl_check_hostname": False,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ssl.truststore.location": "/etc/t.jks"}, "ssl.truststore.type JKS is not supported"),
        ({"ssl.keystore.location": "/k.p12", "ssl.keystore.type": "PKCS12"}, "convert the keystore to PEM"),
        ({"sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required;"}, "needs username"),
        ({"ssl.endpoint.identification.algorithm": "dns"}, "must be https or empty"),
        ({"client.dns.lookup.policy": "x"}, "has no setting 'client_dns_lookup_policy'"),
    ],
)
def test_settings_kafka_python_cannot_use_are_refused(settings: dict[str, str], message: str) -> None:
    options = {name.lower(): value for name, value in as_options({"bootstrap.servers": "b:1", **settings}).items()}
    with pytest.raises(OptionError, match=message):
        client_config(options, "consumer")


def test_a_line_without_a_name_is_refused_with_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.properties"
    path.write_text("bootstrap.servers=b:1\n=value\n")
    with pytest.raises(OptionError, match=r"bad\.properties:2: expected name=value"):
        read_properties(path)

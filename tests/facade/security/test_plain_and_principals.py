"""SASL/PLAIN, the JAAS line it reads its users from, and principals named after certificate subjects."""

from __future__ import annotations

import pytest

from rockafka.facade.security.errors import SaslAuthenticationError, SecuritySetupError
from rockafka.facade.security.plain import PLAIN_LOGIN_MODULE, PlainServer, parse_jaas, plain_users
from rockafka.facade.security.principal import (
    NoMatchingRuleError,
    certificate_principal,
    parse_mapping_rules,
    parse_principal,
    rfc2253,
)

JAAS = (
    f'{PLAIN_LOGIN_MODULE} required\n  username="admin" password="admin-secret"\n'
    '  user_admin="admin-secret" user_alice="al\\"ice; pw" user_bob=bare;'
)


def test_jaas_users_are_the_user_options() -> None:
    (module,) = parse_jaas(JAAS)
    assert (module.class_name, module.control_flag) == (PLAIN_LOGIN_MODULE, "required")
    assert plain_users([module]) == {"admin": "admin-secret", "alice": 'al"ice; pw', "bob": "bare"}


def test_jaas_with_two_modules_keeps_the_plain_users() -> None:
    text = "org.apache.kafka.common.security.scram.ScramLoginModule required; " + JAAS
    assert sorted(plain_users(parse_jaas(text))) == ["admin", "alice", "bob"]


@pytest.mark.parametrize(
    "text",
    [
        f'{PLAIN_LOGIN_MODULE} required user_a="x"',  # no ';'
        f'{PLAIN_LOGIN_MODULE} user_a="x";',  # no control flag
        f'{PLAIN_LOGIN_MODULE} always user_a="x";',  # unknown control flag
        "",
        f'{PLAIN_LOGIN_MODULE} required user_a="unterminated;',
    ],
)
def test_bad_jaas_lines_are_refused_without_showing_them(text: str) -> None:
    with pytest.raises(SecuritySetupError) as caught:
        parse_jaas(text)
    assert 'user_a="' not in str(caught.value)


def test_plain_accepts_a_configured_user() -> None:
    server = PlainServer({"alice": "pw"})
    assert server.step(b"\x00alice\x00pw") == b""
    assert server.complete and server.username == "alice"
    assert PlainServer({"alice": "pw"}).step(b"alice\x00alice\x00pw") == b""


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (b"\x00alice\x00wrong", "Invalid username or password"),
        (b"\x00mallory\x00pw", "Invalid username or password"),
        (b"bob\x00alice\x00pw", "authorization id that is different"),
        (b"\x00alice", "expected 3 tokens"),
        (b"\x00\x00pw", "username not specified"),
        (b"\x00alice\x00", "password not specified"),
    ],
)
def test_plain_refusals(message: bytes, reason: str) -> None:
    server = PlainServer({"alice": "pw"})
    with pytest.raises(SaslAuthenticationError, match=reason):
        server.step(message)
    assert not server.complete


def test_certificate_subject_is_named_as_kafkas_default_principal_builder_does() -> None:
    subject = (
        (("countryName", "US"),),
        (("organizationName", "Rockafka, Inc."),),
        (("organizationalUnitName", "Test"), ("localityName", "Town")),
        (("commonName", " #client+1 "),),
    )
    assert rfc2253(subject) == "CN=\\ #client\\+1\\ ,OU=Test+L=Town,O=Rockafka\\, Inc.,C=US"
    assert certificate_principal({"subject": subject}).startswith("User:CN=")


def test_attributes_without_a_keyword_are_printed_as_oid_and_der_hex() -> None:
    subject = ((("emailAddress", "a@b"),), (("commonName", "x"),))
    assert rfc2253(subject) == "CN=x,1.2.840.113549.1.9.1=#1603614062"


def test_no_certificate_is_anonymous_and_principals_parse() -> None:
    assert certificate_principal(None) == certificate_principal({}) == "User:ANONYMOUS"
    assert (parse_principal("User:CN=a,O=b").principal_type, parse_principal("User:CN=a,O=b").name) == (
        "User",
        "CN=a,O=b",
    )
    for bad in ("alice", ":alice", "User:"):
        with pytest.raises(ValueError):
            parse_principal(bad)


def test_principal_mapping_rules_as_kafka_applies_them() -> None:
    rules = parse_mapping_rules(
        r"RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, RULE:^CN=([^,]*),O=(.*)$/$1@$2/,"
        r"RULE:^.*[Cc]lient.*$/cl\/ient/U,DEFAULT"
    )
    assert len(rules) == 4

    def named(*rdns: tuple[str, str]) -> str:
        return certificate_principal({"subject": tuple(((k, v),) for k, v in rdns)}, rules)

    assert named(("countryName", "US"), ("organizationalUnitName", "ServiceUsers"), ("commonName", "Kafka1")) == (
        "User:kafka1"
    )
    assert named(("organizationName", "Acme"), ("commonName", "bob")) == "User:bob@Acme"
    assert named(("commonName", "my client")) == "User:CL/IENT"
    assert named(("countryName", "US"), ("commonName", "x")) == "User:CN=x,C=US"  # DEFAULT
    strict = parse_mapping_rules(r"RULE:^CN=admin$/admin/")
    with pytest.raises(NoMatchingRuleError):
        certificate_principal({"subject": ((("commonName", "x"),),)}, strict)
    for bad in ("RULE:unterminated", "NOT A RULE", "RULE:a/b/X"):
        with pytest.raises(ValueError):
            parse_mapping_rules(bad)

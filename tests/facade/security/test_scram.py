"""SCRAM-SHA-256/512: RFC 7677's test vector, both directions; refusals; the stored credential and its file."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from rockafka.facade.security.credentials import CredentialStore
from rockafka.facade.security.errors import SaslAuthenticationError
from rockafka.facade.security.scram import (
    ScramClient,
    ScramCredential,
    ScramMechanism,
    ScramServer,
    decode_saslname,
    encode_saslname,
)

SHA256 = ScramMechanism.SCRAM_SHA_256
SHA512 = ScramMechanism.SCRAM_SHA_512
# RFC 7677 section 3
RFC_SALT = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
RFC_CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO"
RFC_SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
RFC_CLIENT_FIRST = b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
RFC_SERVER_FIRST = b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
RFC_CLIENT_FINAL = (
    b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
)
RFC_SERVER_FINAL = b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def rfc_server() -> ScramServer:
    credential = ScramCredential.from_password(SHA256, "pencil", 4096, RFC_SALT)
    return ScramServer(SHA256, lambda user, m: credential if user == "user" else None, lambda: RFC_SERVER_NONCE)


def test_server_answers_rfc_7677_exactly() -> None:
    server = rfc_server()
    assert server.step(RFC_CLIENT_FIRST) == RFC_SERVER_FIRST
    assert not server.complete
    assert server.step(RFC_CLIENT_FINAL) == RFC_SERVER_FINAL
    assert server.complete and server.username == "user"


def test_client_speaks_rfc_7677_exactly() -> None:
    client = ScramClient(SHA256, "user", "pencil", nonce=RFC_CLIENT_NONCE)
    assert client.first() == RFC_CLIENT_FIRST
    assert client.final(RFC_SERVER_FIRST) == RFC_CLIENT_FINAL
    client.verify(RFC_SERVER_FINAL)
    with pytest.raises(SaslAuthenticationError):
        client.verify(b"v=" + base64.b64encode(b"x" * 32))


@pytest.mark.parametrize("mechanism", list(ScramMechanism))
def test_client_and_server_agree_for_each_mechanism(mechanism: ScramMechanism) -> None:
    credential = ScramCredential.from_password(mechanism, "s3cret, with=signs", 4096)
    server = ScramServer(mechanism, lambda user, m: credential if (user, m) == ("a,b=c", mechanism) else None)
    client = ScramClient(mechanism, "a,b=c", "s3cret, with=signs")
    client.verify(server.step(client.final(server.step(client.first()))))
    assert server.complete and server.username == "a,b=c"


def test_wrong_password_is_refused_at_the_proof() -> None:
    credential = ScramCredential.from_password(SHA512, "right")
    server = ScramServer(SHA512, lambda user, m: credential)
    client = ScramClient(SHA512, "alice", "wrong")
    with pytest.raises(SaslAuthenticationError, match="invalid credentials with SASL mechanism SCRAM-SHA-512"):
        server.step(client.final(server.step(client.first())))
    assert not server.complete


def test_unknown_user_is_refused_at_the_first_message() -> None:
    server = ScramServer(SHA256, lambda user, m: None)
    with pytest.raises(SaslAuthenticationError, match="invalid credentials"):
        server.step(b"n,,n=nobody,r=abc")


@pytest.mark.parametrize(
    ("first", "final", "reason"),
    [
        (b"p=tls-unique,,n=user,r=x", None, "channel binding"),
        (b"n,a=other,n=user,r=rOprNGfwEbeRWgbNEkqO", None, "authorization id"),
        (b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO,tokenauth=true", None, "delegation tokens"),
        (b"n,,n=us=er,r=x", None, "user name encoding"),
        (RFC_CLIENT_FIRST, RFC_CLIENT_FINAL.replace(b"r=rOpr", b"r=XOpr"), "nonce"),
        (RFC_CLIENT_FIRST, RFC_CLIENT_FINAL.replace(b"c=biws", b"c=eSws"), "channel binding"),
    ],
)
def test_malformed_exchanges_are_refused(first: bytes, final: bytes | None, reason: str) -> None:
    server = rfc_server()
    with pytest.raises(SaslAuthenticationError, match=reason):
        server.step(first)
        assert final is not None
        server.step(final)


def test_saslname_escaping_round_trips() -> None:
    assert encode_saslname("a,b=c") == "a=2Cb=3Dc"
    assert decode_saslname("a=2Cb=3Dc") == "a,b=c"


def test_the_credential_file_holds_salted_keys_only(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path)
    store.apply([("alice", ScramCredential.from_password(m, "alice-password")) for m in ScramMechanism], [])
    text = store.path.read_text()
    assert "alice-password" not in text
    salted = SHA256.salted_password("alice-password", store.lookup("alice", SHA256).salt, 4096)  # type: ignore[union-attr]
    assert base64.b64encode(salted).decode() not in text
    assert os.stat(store.path).st_mode & 0o777 == 0o600
    document = json.loads(text)
    assert sorted(document["users"]["alice"]) == ["SCRAM-SHA-256", "SCRAM-SHA-512"]
    assert CredentialStore(tmp_path).users() == store.users()


def test_a_change_by_another_process_is_seen(tmp_path: Path) -> None:
    broker_view = CredentialStore(tmp_path)
    assert broker_view.lookup("bob", SHA256) is None
    CredentialStore(tmp_path).apply([("bob", ScramCredential.from_password(SHA256, "pw"))], [])
    assert broker_view.lookup("bob", SHA256) is not None
    CredentialStore(tmp_path).apply([], [("bob", SHA256)])
    assert broker_view.lookup("bob", SHA256) is None
    assert broker_view.users() == {}

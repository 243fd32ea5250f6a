"""SASL through the broker's dispatcher, as clients drive it: SaslHandshake v0 (legacy raw tokens) and v1,
SaslAuthenticate v0-2, refusals that close the connection after answering, requests before authentication,
re-authentication and session expiry."""

from __future__ import annotations

from pathlib import Path

import pytest

from rockafka.facade.clock import ManualClock
from rockafka.facade.dispatch import RequestDispatcher
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import encode_request
from rockafka.facade.protocol.message import ApiMessage
from rockafka.facade.protocol.messages.api_versions import ApiVersionsRequest, ApiVersionsResponse
from rockafka.facade.protocol.messages.metadata import MetadataRequest
from rockafka.facade.protocol.messages.sasl_authenticate import SaslAuthenticateRequest, SaslAuthenticateResponse
from rockafka.facade.protocol.messages.sasl_handshake import SaslHandshakeRequest, SaslHandshakeResponse
from rockafka.facade.security import CredentialStore, ScramClient, ScramCredential, ScramMechanism

from .wire import Closed, Conn, broker, connect, decode_closing

JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-pw" user_bob="bob-pw";'
SETTINGS = (
    "listeners=PLAINTEXT://127.0.0.1:0,CLIENTS://127.0.0.1:0",
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CLIENTS:SASL_PLAINTEXT",
    f"listener.name.clients.plain.sasl.jaas.config={JAAS}",
)


def sasl_conn(dispatcher: RequestDispatcher) -> Conn:
    return connect(dispatcher, listener="CLIENTS", protocol="SASL_PLAINTEXT")


def plain(conn: Conn, user: str, password: str, version: int = 1) -> SaslAuthenticateResponse:
    handshake = conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1)
    assert handshake.error_code == ErrorCode.NONE
    assert handshake.mechanisms == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    return conn.call(SaslAuthenticateRequest(auth_bytes=f"\x00{user}\x00{password}".encode()), version)


@pytest.mark.parametrize("version", [0, 1, 2])
def test_plain_over_sasl_authenticate_every_version(tmp_path: Path, version: int) -> None:
    with broker(tmp_path, *SETTINGS, "connections.max.reauth.ms=60000") as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        assert conn.call(ApiVersionsRequest(), 3).error_code == ErrorCode.NONE
        answer = plain(conn, "alice", "alice-pw", version)
        assert (answer.error_code, answer.auth_bytes) == (ErrorCode.NONE, b"")
        assert answer.session_lifetime_ms == (60000 if version >= 1 else 0)
        assert conn.info.principal == "User:alice"
        assert conn.call(MetadataRequest(topics=[]), 1).brokers


def test_wrong_password_is_answered_then_the_connection_closes(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1)
        with pytest.raises(Closed) as closed:
            conn.raw(_frame(SaslAuthenticateRequest(auth_bytes=b"\x00alice\x00nope"), 2))
        answer = decode_closing(closed.value, SaslAuthenticateResponse, 2)
        assert answer.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
        assert answer.error_message == "Authentication failed: Invalid username or password"
        assert "nope" not in closed.value.reason
        assert conn.info.principal == "User:ANONYMOUS"


def test_unsupported_mechanism_is_answered_with_the_offer_then_closed(tmp_path: Path) -> None:
    with (
        broker(tmp_path, *SETTINGS, "listener.name.clients.sasl.enabled.mechanisms=SCRAM-SHA-512") as (_, d),
        pytest.raises(Closed) as closed,
    ):
        sasl_conn(d).raw(_frame(SaslHandshakeRequest(mechanism="PLAIN"), 1))
    answer = decode_closing(closed.value, SaslHandshakeResponse, 1)
    assert (answer.error_code, answer.mechanisms) == (ErrorCode.UNSUPPORTED_SASL_MECHANISM, ["SCRAM-SHA-512"])


@pytest.mark.parametrize("stage", ["before handshake", "after handshake"])
def test_other_requests_before_authentication_close_the_connection(tmp_path: Path, stage: str) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        if stage == "after handshake":
            conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1)
        with pytest.raises(Closed) as closed:
            conn.call(MetadataRequest(topics=None), 9)
        assert closed.value.response is None
        assert "Unexpected Kafka request of type 3" in closed.value.reason


def test_legacy_handshake_v0_then_raw_tokens(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        assert conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 0).error_code == ErrorCode.NONE
        assert conn.raw(b"\x00bob\x00bob-pw") == b"\x00\x00\x00\x00"  # an empty raw token
        assert conn.info.principal == "User:bob"
        assert conn.call(MetadataRequest(topics=[]), 0).brokers
        refused = sasl_conn(dispatcher)
        refused.call(SaslHandshakeRequest(mechanism="PLAIN"), 0)
        with pytest.raises(Closed) as closed:
            refused.raw(b"\x00bob\x00wrong")
        assert closed.value.response is None


def test_legacy_scram_takes_two_raw_round_trips(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        sha512 = ScramMechanism.SCRAM_SHA_512
        credentials(dispatcher).apply([("carol", ScramCredential.from_password(sha512, "pw"))], [])
        conn = sasl_conn(dispatcher)
        conn.call(SaslHandshakeRequest(mechanism="SCRAM-SHA-512"), 0)
        client = ScramClient(sha512, "carol", "pw")
        server_first = conn.raw(client.first())
        assert server_first is not None
        server_final = conn.raw(client.final(server_first[4:]))
        assert server_final is not None
        client.verify(server_final[4:])
        assert conn.info.principal == "User:carol"


def test_scram_over_sasl_authenticate(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        sha256 = ScramMechanism.SCRAM_SHA_256
        credentials(dispatcher).apply([("carol", ScramCredential.from_password(sha256, "pw"))], [])
        conn = sasl_conn(dispatcher)
        conn.call(SaslHandshakeRequest(mechanism="SCRAM-SHA-256"), 1)
        client = ScramClient(sha256, "carol", "pw")
        first = conn.call(SaslAuthenticateRequest(auth_bytes=client.first()), 1)
        final = conn.call(SaslAuthenticateRequest(auth_bytes=client.final(first.auth_bytes)), 1)
        client.verify(final.auth_bytes)
        assert conn.info.principal == "User:carol"
        again = conn.call(SaslAuthenticateRequest(auth_bytes=b"x"), 1)
        assert again.error_code == ErrorCode.ILLEGAL_SASL_STATE


def test_reauthentication_keeps_the_principal(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS, "connections.max.reauth.ms=600000") as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        plain(conn, "alice", "alice-pw")
        assert plain(conn, "alice", "alice-pw").error_code == ErrorCode.NONE
        assert conn.info.principal == "User:alice"
        with pytest.raises(Closed) as closed:
            conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1)
            conn.raw(_frame(SaslAuthenticateRequest(auth_bytes=b"\x00bob\x00bob-pw"), 1))
        answer = decode_closing(closed.value, SaslAuthenticateResponse, 1)
        assert answer.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
        assert "Cannot change principals" in (answer.error_message or "")


def test_without_v1_authenticate_a_second_handshake_is_illegal(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        plain(conn, "alice", "alice-pw", version=0)
        assert conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1).error_code == ErrorCode.ILLEGAL_SASL_STATE
        assert conn.call(MetadataRequest(topics=[]), 1).brokers  # still open


def test_an_expired_session_closes_on_the_next_request(tmp_path: Path) -> None:
    clock = ManualClock()
    with broker(tmp_path, *SETTINGS, "connections.max.reauth.ms=50", clock=clock) as (_, dispatcher):
        conn = sasl_conn(dispatcher)
        assert plain(conn, "alice", "alice-pw").session_lifetime_ms == 50
        clock.advance(0.049)
        assert conn.call(MetadataRequest(topics=[]), 1).brokers  # within its lifetime
        clock.advance(0.002)
        with pytest.raises(Closed, match="expired"):
            conn.call(MetadataRequest(topics=[]), 1)


def test_oversized_frames_before_authentication_close(tmp_path: Path) -> None:
    with (
        broker(tmp_path, *SETTINGS, "sasl.server.max.receive.size=64") as (_, dispatcher),
        pytest.raises(Closed, match=r"sasl\.server\.max\.receive\.size"),
    ):
        sasl_conn(dispatcher).raw(_frame(SaslHandshakeRequest(mechanism="P" * 100), 1))


def test_sasl_requests_on_a_plaintext_listener_are_illegal(tmp_path: Path) -> None:
    with broker(tmp_path, *SETTINGS) as (_, dispatcher):
        conn = connect(dispatcher)
        assert conn.call(SaslHandshakeRequest(mechanism="PLAIN"), 1).error_code == ErrorCode.ILLEGAL_SASL_STATE
        assert conn.call(SaslAuthenticateRequest(auth_bytes=b""), 2).error_code == ErrorCode.ILLEGAL_SASL_STATE
        versions = conn.call(ApiVersionsRequest(), 3, ApiVersionsResponse)
        assert {17, 36} <= {k.api_key for k in versions.api_keys}


def _frame(request: ApiMessage, version: int) -> bytes:
    return encode_request(request, version, 99, client_id="security-test")[4:]


def credentials(dispatcher: RequestDispatcher) -> CredentialStore:
    assert dispatcher.security is not None
    return dispatcher.security.credentials

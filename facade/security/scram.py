"""SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka speaks them: credentials, server, client.

A credential is what the broker keeps per user and mechanism: the salt, the iteration count, and
``StoredKey = H(HMAC(SaltedPassword, "Client Key"))`` and ``ServerKey = HMAC(SaltedPassword, "Server Key")``
where ``SaltedPassword = PBKDF2-HMAC(password, salt, iterations)``. Neither the password nor the salted
password is kept; a stolen credential cannot be replayed as a password.

Exchange (no channel binding, as Kafka: the gs2 header is ``n,,`` or ``n,a=<authzid>,``)::

    client-first  n,,n=<user>,r=<client nonce>[,<extensions>]
    server-first  r=<client nonce><server nonce>,s=<base64 salt>,i=<iterations>
    client-final  c=<base64 gs2 header>,r=<nonce>,p=<base64 ClientProof>
    server-final  v=<base64 ServerSignature>

``AuthMessage = client-first-bare + "," + server-first + "," + client-final-without-proof``;
``ClientProof = ClientKey XOR HMAC(StoredKey, AuthMessage)``; the server checks ``H(ClientKey) == StoredKey``.
User names escape ``,`` and ``=`` as ``=2C`` and ``=3D``. An authorization id, when sent, must equal the user
name. Kafka's delegation-token extension (``tokenauth=true``) is refused: there are no delegation tokens.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .errors import SaslAuthenticationError

MIN_ITERATIONS: Final = 4096
MAX_ITERATIONS: Final = 16384
DEFAULT_ITERATIONS: Final = 4096


class ScramMechanism(enum.Enum):
    """The mechanisms, with Kafka's wire codes (DescribeUserScramCredentials/AlterUserScramCredentials)."""

    SCRAM_SHA_256 = (1, "SCRAM-SHA-256", "sha256")
    SCRAM_SHA_512 = (2, "SCRAM-SHA-512", "sha512")

    def __init__(self, code: int, mechanism_name: str, hash_name: str) -> None:
        self.code = code
        self.mechanism_name = mechanism_name
        self.hash_name = hash_name

    @classmethod
    def named(cls, name: str) -> ScramMechanism:
        for mechanism in cls:
            if mechanism.mechanism_name == name:
                return mechanism
        raise ValueError(f"unknown SCRAM mechanism {name!r}")

    @classmethod
    def of_code(cls, code: int) -> ScramMechanism:
        for mechanism in cls:
            if mechanism.code == code:
                return mechanism
        raise ValueError(f"unknown SCRAM mechanism code {code}")

    def hash(self, data: bytes) -> bytes:
        return hashlib.new(self.hash_name, data).digest()

    def hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, self.hash_name).digest()

    def salted_password(self, password: str, salt: bytes, iterations: int) -> bytes:
        return hashlib.pbkdf2_hmac(self.hash_name, password.encode("utf-8"), salt, iterations)


@dataclass(frozen=True, slots=True)
class ScramCredential:
    """What the broker stores for one user and mechanism (no password, no salted password)."""

    mechanism: ScramMechanism
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int

    @classmethod
    def from_salted_password(
        cls, mechanism: ScramMechanism, salt: bytes, salted_password: bytes, iterations: int
    ) -> ScramCredential:
        client_key = mechanism.hmac(salted_password, b"Client Key")
        server_key = mechanism.hmac(salted_password, b"Server Key")
        return cls(mechanism, salt, mechanism.hash(client_key), server_key, iterations)

    @classmethod
    def from_password(
        cls, mechanism: ScramMechanism, password: str, iterations: int = DEFAULT_ITERATIONS, salt: bytes | None = None
    ) -> ScramCredential:
        salt = secrets.token_bytes(32) if salt is None else salt
        return cls.from_salted_password(
            mechanism, salt, mechanism.salted_password(password, salt, iterations), iterations
        )


CredentialLookup = Callable[[str, ScramMechanism], ScramCredential | None]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise SaslAuthenticationError("Invalid base64 in SCRAM message") from None


def _fields(message: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in message.split(","):
        key, sep, value = item.partition("=")
        if sep and len(key) == 1 and key not in out:
            out[key] = value
    return out


def decode_saslname(name: str) -> str:
    """RFC 5802 saslname: ``=2C`` is ``,`` and ``=3D`` is ``=``; any other ``=`` is an error."""
    out, index = [], 0
    while index < len(name):
        if name[index] == "=":
            code = name[index + 1 : index + 3]
            if code not in ("2C", "3D"):
                raise SaslAuthenticationError("Invalid user name encoding in SCRAM message")
            out.append("," if code == "2C" else "=")
            index += 3
        else:
            out.append(name[index])
            index += 1
    return "".join(out)


def encode_saslname(name: str) -> str:
    return name.replace("=", "=3D").replace(",", "=2C")


class ScramServer:
    """The broker side of one SCRAM exchange: :meth:`step` each client message, until :attr:`complete`."""

    def __init__(
        self, mechanism: ScramMechanism, lookup: CredentialLookup, server_nonce: Callable[[], str] | None = None
    ) -> None:
        self.mechanism = mechanism
        self._lookup = lookup
        self._server_nonce = server_nonce or (lambda: secrets.token_urlsafe(24))
        self._state = "first"
        self._credential: ScramCredential | None = None
        self._gs2_header = ""
        self._client_first_bare = ""
        self._server_first = ""
        self._nonce = ""
        self.username: str | None = None

    @property
    def complete(self) -> bool:
        return self._state == "complete"

    @property
    def failure(self) -> str:
        return (
            "Authentication failed during authentication due to invalid credentials with SASL mechanism "
            + self.mechanism.mechanism_name
        )

    def step(self, message: bytes) -> bytes:
        """The answer to one client message; raises :class:`SaslAuthenticationError` to end the exchange."""
        try:
            text = message.decode("utf-8")
        except UnicodeDecodeError:
            raise SaslAuthenticationError("SCRAM message is not UTF-8") from None
        if self._state == "first":
            return self._first(text)
        if self._state == "final":
            return self._final(text)
        raise SaslAuthenticationError("Unexpected SCRAM message after the exchange completed")

    def _first(self, text: str) -> bytes:
        gs2, sep, rest = text.partition(",")
        authzid, sep2, bare = rest.partition(",")
        if not sep or not sep2 or gs2 != "n" or (authzid and not authzid.startswith("a=")):
            raise SaslAuthenticationError("Invalid SCRAM client first message (channel binding is not supported)")
        fields = _fields(bare)
        if not bare.startswith("n=") or "r" not in fields or not fields["r"]:
            raise SaslAuthenticationError("Invalid SCRAM client first message")
        username = decode_saslname(fields["n"])
        if authzid and decode_saslname(authzid[2:]) != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        if "tokenauth=true" in bare.split(","):
            raise SaslAuthenticationError("Authentication failed: delegation tokens are not supported")
        credential = self._lookup(username, self.mechanism)
        if credential is None:
            raise SaslAuthenticationError(self.failure)
        self.username, self._credential = username, credential
        self._gs2_header = f"{gs2},{authzid},"
        self._client_first_bare = bare
        self._nonce = fields["r"] + self._server_nonce()
        self._server_first = f"r={self._nonce},s={_b64(credential.salt)},i={credential.iterations}"
        self._state = "final"
        return self._server_first.encode("ascii")

    def _final(self, text: str) -> bytes:
        credential = self._credential
        assert credential is not None
        without_proof, sep, proof_field = text.rpartition(",p=")
        fields = _fields(without_proof)
        if not sep or fields.get("r") != self._nonce:
            raise SaslAuthenticationError("Invalid client nonce in the final client message.")
        if _unb64(fields.get("c", "")) != self._gs2_header.encode("utf-8"):
            raise SaslAuthenticationError("Invalid channel binding in the final client message.")
        auth_message = f"{self._client_first_bare},{self._server_first},{without_proof}".encode()
        mechanism = self.mechanism
        signature = mechanism.hmac(credential.stored_key, auth_message)
        proof = _unb64(proof_field)
        if len(proof) != len(signature):
            raise SaslAuthenticationError(self.failure)
        client_key = bytes(a ^ b for a, b in zip(proof, signature, strict=True))
        if not hmac.compare_digest(mechanism.hash(client_key), credential.stored_key):
            raise SaslAuthenticationError(self.failure)
        self._state = "complete"
        return f"v={_b64(mechanism.hmac(credential.server_key, auth_message))}".encode("ascii")


class ScramClient:
    """The client side (the CLI and tests): :meth:`first`, :meth:`final`, then :meth:`verify` the server."""

    def __init__(self, mechanism: ScramMechanism, username: str, password: str, nonce: str | None = None) -> None:
        self.mechanism = mechanism
        self._password = password
        self._nonce = nonce or secrets.token_urlsafe(24)
        self._first_bare = f"n={encode_saslname(username)},r={self._nonce}"
        self._expected_signature = b""

    def first(self) -> bytes:
        return f"n,,{self._first_bare}".encode()

    def final(self, server_first: bytes) -> bytes:
        text = server_first.decode("utf-8")
        fields = _fields(text)
        if not fields.get("r", "").startswith(self._nonce):
            raise SaslAuthenticationError("server nonce does not extend the client nonce")
        mechanism = self.mechanism
        salted = mechanism.salted_password(self._password, _unb64(fields["s"]), int(fields["i"]))
        without_proof = f"c={_b64(b'n,,')},r={fields['r']}"
        auth_message = f"{self._first_bare},{text},{without_proof}".encode()
        client_key = mechanism.hmac(salted, b"Client Key")
        signature = mechanism.hmac(mechanism.hash(client_key), auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
        self._expected_signature = mechanism.hmac(mechanism.hmac(salted, b"Server Key"), auth_message)
        return f"{without_proof},p={_b64(proof)}".encode()

    def verify(self, server_final: bytes) -> None:
        fields = _fields(server_final.decode("utf-8"))
        if "v" not in fields or not hmac.compare_digest(_unb64(fields["v"]), self._expected_signature):
            raise SaslAuthenticationError("the server's signature does not verify")

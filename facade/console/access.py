"""Who is asking, and what they may see: the console's authentication and authorization.

With the broker's authorizer off (no ``authorizer.class.name``), the console asks for no credentials and
everyone sees everything, as every Kafka client does on such a broker. With it on, every request but the static
files must carry HTTP Basic credentials of a user the broker already has: a PLAIN user from a SASL listener's
``sasl.jaas.config``, or a SCRAM user (``rockafka users`` / AlterUserScramCredentials), checked against the stored
salted key (the password itself is never stored). The principal is ``User:<name>`` and the broker's own ACLs
decide, with Kafka's operations: a topic or group is listed only when the principal may DESCRIBE it, messages
need READ on the topic, creating a topic needs CREATE (on the cluster or the topic), deleting one DELETE, and an
offset reset READ on the group and the topic. Failed logins are answered 401 after the broker's
``connection.failed.authentication.delay.ms``, as a failed SASL handshake is.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..security.acl import AclOperation, ResourceType
from ..security.authorizer import Authorizer
from ..security.scram import ScramCredential, ScramMechanism
from .errors import AuthenticationRequiredError, ForbiddenError

CredentialLookup = Callable[[str, ScramMechanism], ScramCredential | None]
ANONYMOUS = "User:ANONYMOUS"


@dataclass(frozen=True, slots=True)
class Viewer:
    """The principal behind one request and the host it came from."""

    principal: str
    host: str


class ConsoleAccess:
    """Authenticates requests and answers ACL questions for the console."""

    def __init__(
        self, authorizer: Authorizer | None, plain_users: Mapping[str, str], scram_lookup: CredentialLookup
    ) -> None:
        self._authorizer = authorizer
        self._plain_users = dict(plain_users)
        self._scram_lookup = scram_lookup

    @property
    def required(self) -> bool:
        """Whether requests must carry credentials (the broker's authorizer is on)."""
        return self._authorizer is not None

    def viewer(self, authorization: str | None, host: str) -> Viewer:
        """The viewer of a request with this ``Authorization`` header (AuthenticationRequiredError if wrong)."""
        if self._authorizer is None:
            return Viewer(ANONYMOUS, host)
        user, password = _basic_credentials(authorization)
        if not self._password_matches(user, password):
            raise AuthenticationRequiredError("wrong user name or password")
        return Viewer(f"User:{user}", host)

    def allows(self, viewer: Viewer, operation: AclOperation, resource_type: ResourceType, name: str) -> bool:
        if self._authorizer is None:
            return True
        return self._authorizer.authorize(viewer.principal, viewer.host, operation, resource_type, name)

    def check(self, viewer: Viewer, operation: AclOperation, resource_type: ResourceType, name: str) -> None:
        if not self.allows(viewer, operation, resource_type, name):
            what = resource_type.name.lower()
            raise ForbiddenError(f"{viewer.principal} may not {operation.name} {what} {name!r}")

    def _password_matches(self, user: str, password: str) -> bool:
        expected = self._plain_users.get(user)
        if expected is not None and hmac.compare_digest(expected.encode(), password.encode()):
            return True
        for mechanism in ScramMechanism:
            credential = self._scram_lookup(user, mechanism)
            if credential is not None and _scram_password_matches(credential, password):
                return True
        return False


def _basic_credentials(authorization: str | None) -> tuple[str, str]:
    scheme, _, encoded = (authorization or "").partition(" ")
    if scheme.lower() != "basic" or not encoded:
        raise AuthenticationRequiredError("this broker checks ACLs: sign in with a user of the broker")
    try:
        user, sep, password = base64.b64decode(encoded, validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise AuthenticationRequiredError("malformed Basic credentials") from None
    if not sep or not user:
        raise AuthenticationRequiredError("malformed Basic credentials")
    return user, password


def _scram_password_matches(credential: ScramCredential, password: str) -> bool:
    """Whether ``password`` derives the credential's stored key (RFC 5802: H(HMAC(SaltedPassword, "Client Key")))."""
    mechanism = credential.mechanism
    salted = mechanism.salted_password(password, credential.salt, credential.iterations)
    stored_key = mechanism.hash(mechanism.hmac(salted, b"Client Key"))
    return hmac.compare_digest(stored_key, credential.stored_key)

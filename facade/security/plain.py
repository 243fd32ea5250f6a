"""SASL PLAIN (RFC 4616) and the JAAS configuration line Kafka reads its PLAIN users from.

A PLAIN message is ``[authzid] NUL authcid NUL password`` in UTF-8. As Kafka's PlainSaslServer: an
authorization id, when given, must equal the user name; the user must be one of the JAAS ``user_<name>``
options with exactly that password (compared in constant time); every refusal says only
"Invalid username or password".

JAAS line (``sasl.jaas.config``, Kafka's syntax)::

    org.apache.kafka.common.security.plain.PlainLoginModule required
        username="admin" password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";

A module class, a control flag (required/requisite/sufficient/optional), ``name=value`` options (value
quoted with ``"``, backslash escaping the next character, or bare), and a closing ``;``. The broker uses the
``user_<name>`` options of a PlainLoginModule; ``username``/``password`` (the inter-broker identity) are what
a broker of a cluster authenticates with to the others (``facade/interbroker.py``).
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .errors import SaslAuthenticationError, SecuritySetupError

PLAIN_LOGIN_MODULE: Final = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_LOGIN_MODULE: Final = "org.apache.kafka.common.security.scram.ScramLoginModule"
CONTROL_FLAGS: Final = frozenset({"required", "requisite", "sufficient", "optional"})
INVALID: Final = "Authentication failed: Invalid username or password"
_TOKEN = re.compile(r'\s*(?:(;)|([A-Za-z0-9_.$-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;"]+)|([A-Za-z0-9_.$-]+))')


@dataclass(frozen=True, slots=True)
class JaasModule:
    """One login module of a JAAS line: its class, control flag and options."""

    class_name: str
    control_flag: str
    options: Mapping[str, str] = field(default_factory=dict)


def parse_jaas(text: str) -> list[JaasModule]:
    """Parse a ``sasl.jaas.config`` value; :class:`SecuritySetupError` (without the text: it holds passwords)."""
    modules: list[JaasModule] = []
    words: list[str] = []
    options: dict[str, str] = {}
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise SecuritySetupError(f"sasl.jaas.config: cannot parse the JAAS line at character {position}")
        position = match.end()
        end, key, value, word = match.groups()
        if word is not None:
            if options or len(words) == 2:
                raise SecuritySetupError(f"sasl.jaas.config: unexpected word {word!r}")
            words.append(word)
        elif key is not None:
            options[key] = _unquote(value)
        elif end is not None:
            modules.append(_module(words, options))
            words, options = [], {}
        position = len(text) if text[position:].strip() == "" else position
    if words or options:
        raise SecuritySetupError("sasl.jaas.config: a login module must end with ';'")
    if not modules:
        raise SecuritySetupError("sasl.jaas.config: no login module")
    return modules


def _module(words: list[str], options: dict[str, str]) -> JaasModule:
    if len(words) != 2 or words[1].lower() not in CONTROL_FLAGS:
        raise SecuritySetupError("sasl.jaas.config: expected '<LoginModule class> <control flag> options... ;'")
    return JaasModule(words[0], words[1].lower(), dict(options))


def _unquote(value: str) -> str:
    if value.startswith('"'):
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def plain_users(modules: list[JaasModule]) -> dict[str, str]:
    """The ``user_<name>`` options of the PlainLoginModule(s): user name to password."""
    users: dict[str, str] = {}
    for module in modules:
        if module.class_name == PLAIN_LOGIN_MODULE:
            users.update({key[5:]: value for key, value in module.options.items() if key.startswith("user_")})
    return users


class PlainServer:
    """One PLAIN exchange: a single client message, an empty answer, or :class:`SaslAuthenticationError`."""

    def __init__(self, users: Mapping[str, str]) -> None:
        self._users = users
        self.username: str | None = None
        self.complete = False

    def step(self, message: bytes) -> bytes:
        if self.complete:
            raise SaslAuthenticationError("Unexpected PLAIN message after the exchange completed")
        parts = message.split(b"\x00")
        if len(parts) != 3:
            raise SaslAuthenticationError("Invalid SASL/PLAIN response: expected 3 tokens")
        try:
            authzid, username, password = (part.decode("utf-8") for part in parts)
        except UnicodeDecodeError:
            raise SaslAuthenticationError(INVALID) from None
        if not username:
            raise SaslAuthenticationError("Authentication failed: username not specified")
        if not password:
            raise SaslAuthenticationError("Authentication failed: password not specified")
        if authzid and authzid != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        expected = self._users.get(username)
        if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
            raise SaslAuthenticationError(INVALID)
        self.username = username
        self.complete = True
        return b""

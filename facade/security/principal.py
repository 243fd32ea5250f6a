"""Kafka principals (``Type:name``) and the principal Kafka's default builder takes from a TLS client certificate.

Kafka's ``DefaultKafkaPrincipalBuilder`` names an SSL client ``User:`` + the certificate subject as Java's
``X500Principal.getName()`` prints it (RFC 2253): relative distinguished names from the most specific
(``CN``) to the least (``C``), joined by ``,``; multi-valued RDNs joined by ``+``; the attribute keywords
CN, C, L, ST, O, OU, STREET, DC and UID; any other attribute as its dotted OID with ``#`` and the hex of
its DER encoding; ``,+"\\<>;`` escaped with a backslash, as are a leading ``#`` or space and a trailing space.
A client without a certificate is ``User:ANONYMOUS``, as are PLAINTEXT clients.

``ssl.principal.mapping.rules`` (Kafka's KIP-371 syntax) may rename a subject: a comma-separated list of
``RULE:<pattern>/<replacement>/[L|U]`` and ``DEFAULT``, tried in order; a rule whose pattern matches the whole
RFC 2253 name gives ``replacement`` (``$1`` is a group; ``\\/`` a slash), lower- or upper-cased with ``L``/``U``;
``DEFAULT`` keeps the name. When no rule matches, the client is refused (Kafka's NoMatchingRule).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .errors import SecurityError

ANONYMOUS: Final = "User:ANONYMOUS"
WILDCARD_PRINCIPAL: Final = "User:*"

_KEYWORDS: Final = {
    "commonName": "CN",
    "countryName": "C",
    "localityName": "L",
    "stateOrProvinceName": "ST",
    "organizationName": "O",
    "organizationalUnitName": "OU",
    "streetAddress": "STREET",
    "domainComponent": "DC",
    "userId": "UID",
}
#: OIDs of attributes RFC 2253 has no keyword for (Python's ssl names them; Java prints OID=#hex).
_OIDS: Final = {
    "emailAddress": ("1.2.840.113549.1.9.1", 0x16),  # IA5String
    "serialNumber": ("2.5.4.5", 0x13),  # PrintableString
    "title": ("2.5.4.12", 0x0C),
    "surname": ("2.5.4.4", 0x0C),
    "givenName": ("2.5.4.42", 0x0C),
    "pseudonym": ("2.5.4.65", 0x0C),
    "name": ("2.5.4.41", 0x0C),
    "initials": ("2.5.4.43", 0x0C),
    "generationQualifier": ("2.5.4.44", 0x0C),
    "dnQualifier": ("2.5.4.46", 0x13),
    "businessCategory": ("2.5.4.15", 0x0C),
    "postalCode": ("2.5.4.17", 0x0C),
}
_SPECIAL: Final = frozenset(',+"\\<>;')


@dataclass(frozen=True, slots=True)
class KafkaPrincipal:
    """``principal_type:name``, e.g. ``User:alice``."""

    principal_type: str
    name: str

    def __str__(self) -> str:
        return f"{self.principal_type}:{self.name}"


def parse_principal(text: str) -> KafkaPrincipal:
    """Parse ``Type:name`` as Kafka's SecurityUtils does; ValueError when there is no type or no name."""
    principal_type, sep, name = text.partition(":")
    if not sep or not principal_type or not name:
        raise ValueError(f"expected a principal in the form 'Type:name', got {text!r}")
    return KafkaPrincipal(principal_type, name)


_RULE = re.compile(r"\s*(?:(DEFAULT)|RULE:((?:\\/|[^/])*)/((?:\\/|[^/])*)/([LU]?))\s*(?:,|$)")


@dataclass(frozen=True, slots=True)
class MappingRule:
    """One ``ssl.principal.mapping.rules`` entry; ``pattern`` None is DEFAULT."""

    pattern: re.Pattern[str] | None
    replacement: str = ""
    case: str = ""

    def apply(self, name: str) -> str | None:
        if self.pattern is None:
            return name
        if self.pattern.fullmatch(name) is None:
            return None
        mapped = self.pattern.sub(self.replacement, name, count=1)
        return mapped.lower() if self.case == "L" else mapped.upper() if self.case == "U" else mapped


def parse_mapping_rules(text: str) -> tuple[MappingRule, ...]:
    """Parse Kafka's rules; ValueError naming the first part that is not a rule."""
    rules: list[MappingRule] = []
    position, text = 0, text.strip()
    while position < len(text):
        match = _RULE.match(text, position)
        if match is None or match.end() == position:
            raise ValueError(f"invalid rule at character {position}: {text[position : position + 40]!r}")
        position = match.end()
        if match[1]:
            rules.append(MappingRule(None))
            continue
        pattern = re.compile(match[2].replace("\\/", "/"))
        replacement = re.sub(r"\$(\d+)", r"\\g<\1>", match[3].replace("\\/", "/"))
        rules.append(MappingRule(pattern, replacement, match[4]))
    return tuple(rules)


class NoMatchingRuleError(SecurityError):
    """No ``ssl.principal.mapping.rules`` entry names this certificate: the client is refused."""


def certificate_principal(peer_certificate: dict[str, object] | None, rules: Sequence[MappingRule] = ()) -> str:
    """``User:<subject in RFC 2253 form>`` of a verified client certificate (``ssl.SSLSocket.getpeercert()``),
    mapped by ``rules`` when given, or ``User:ANONYMOUS`` when the client sent none."""
    if not peer_certificate or not peer_certificate.get("subject"):
        return ANONYMOUS
    subject = peer_certificate["subject"]
    assert isinstance(subject, tuple)
    name = rfc2253(subject)
    if not rules:
        return "User:" + name
    for rule in rules:
        mapped = rule.apply(name)
        if mapped is not None:
            return "User:" + mapped
    raise NoMatchingRuleError(f"no ssl.principal.mapping.rules entry applies to {name}")


def rfc2253(subject: Sequence[Sequence[tuple[str, str]]]) -> str:
    """A subject as Python's ssl module gives it (RDNs in certificate order) in RFC 2253 string form."""
    return ",".join("+".join(_attribute(name, value) for name, value in rdn) for rdn in reversed(subject))


def _attribute(name: str, value: str) -> str:
    keyword = _KEYWORDS.get(name)
    if keyword is not None:
        return f"{keyword}={_escape(value)}"
    oid, tag = _OIDS.get(name, (name, 0x0C))
    return f"{oid}=#{_der(tag, value.encode('utf-8')).hex()}"


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _escape(value: str) -> str:
    out = []
    for index, char in enumerate(value):
        edge = (index == 0 and char in "# ") or (index == len(value) - 1 and char == " ")
        out.append("\\" + char if char in _SPECIAL or edge else char)
    return "".join(out)

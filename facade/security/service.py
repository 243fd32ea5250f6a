"""The broker's security, built once from its settings: per-listener TLS and SASL, SCRAM credentials, ACLs.

Handlers reach it as ``ctx.security``; most need only ``ctx.authorize``/``ctx.check`` (see
``facade/handlers/context.py``). The authorizer is on when ``authorizer.class.name`` names one of Kafka's
ACL authorizers; without it every principal may do everything and the ACL APIs answer SECURITY_DISABLED.
A single broker keeps ACLs and credentials in files of its data directory; a broker in a cluster serves the
cluster's, kept in etcd (:meth:`SecurityService.share`, called when it joins).
"""

from __future__ import annotations

import logging
import re
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass

from rockafka.facade.config import BrokerConfig, Listener

from .acl_store import Acls, AclStore
from .authorizer import Authorizer, parse_super_users
from .credentials import Credentials, CredentialStore
from .errors import SecuritySetupError
from .plain import SCRAM_LOGIN_MODULE, parse_jaas, plain_users
from .principal import MappingRule, certificate_principal, parse_mapping_rules
from .sasl import SaslSession, SaslSettings
from .tls import server_ssl_context

log = logging.getLogger(__name__)

SASL_PROTOCOLS = frozenset({"SASL_PLAINTEXT", "SASL_SSL"})
TLS_PROTOCOLS = frozenset({"SSL", "SASL_SSL"})


@dataclass(frozen=True, slots=True)
class ListenerSecurity:
    """What one listener asks of its clients."""

    listener: Listener
    ssl_context: ssl.SSLContext | None
    sasl: SaslSettings | None
    principal_rules: tuple[MappingRule, ...] = ()
    """ssl.principal.mapping.rules of an SSL listener (empty: Kafka's default name)."""


class SecurityService:
    """Per-listener TLS contexts and SASL settings, the SCRAM credential store and the ACL authorizer."""

    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.credentials: Credentials = CredentialStore(config.data_dir)
        self.acls: Acls = AclStore(config.data_dir)
        self.authorizer: Authorizer | None = None
        if config.str("authorizer.class.name"):
            super_users = parse_super_users(config.values.get("super.users"))  # type: ignore[arg-type]
            self.authorizer = Authorizer(self.acls, super_users, config.bool("allow.everyone.if.no.acl.found"))
        self.listeners = {item.name: self._listener(item) for item in config.listeners}
        self.session_clock: Callable[[], float] = time.monotonic
        """What SASL session lifetimes (``connections.max.reauth.ms``) run on: a test broker's clock, if it has one."""

    def share(self, acls: Acls, credentials: Credentials) -> None:
        """Serve the cluster's ACLs and SCRAM credentials instead of this broker's files (on joining a cluster)."""
        self.acls = acls
        self.credentials = credentials
        if self.authorizer is not None:
            self.authorizer.store = acls

    def session(self, listener_name: str) -> SaslSession | None:
        """A new connection's SASL session (None on a listener without SASL)."""
        security = self.listeners.get(listener_name)
        if security is None or security.sasl is None:
            return None
        return SaslSession(
            security.sasl, lambda user, mechanism: self.credentials.lookup(user, mechanism), self.session_clock
        )

    def _listener(self, listener: Listener) -> ListenerSecurity:
        protocol = listener.security_protocol
        with_sasl = protocol in SASL_PROTOCOLS
        context = server_ssl_context(self.config, listener.name, sasl=with_sasl) if protocol in TLS_PROTOCOLS else None
        sasl = self._sasl_settings(listener) if protocol in SASL_PROTOCOLS else None
        rules_text = str(self.config.for_listener(listener.name, "ssl.principal.mapping.rules") or "DEFAULT")
        try:
            rules = parse_mapping_rules(rules_text) if rules_text.strip() != "DEFAULT" else ()
        except (ValueError, re.error) as exc:
            raise SecuritySetupError(f"listener {listener.name}: ssl.principal.mapping.rules: {exc}") from None
        return ListenerSecurity(listener, context, sasl, rules)

    def ssl_principal(self, listener_name: str, peer_certificate: dict[str, object] | None) -> str:
        """The principal of an SSL listener's client from its verified certificate (NoMatchingRuleError refuses)."""
        security = self.listeners.get(listener_name)
        return certificate_principal(peer_certificate, () if security is None else security.principal_rules)

    def _sasl_settings(self, listener: Listener) -> SaslSettings:
        config, name = self.config, listener.name
        mechanisms = config.for_listener(name, "sasl.enabled.mechanisms")
        offered = tuple(mechanisms) if isinstance(mechanisms, list) else ()
        if not offered:
            raise SecuritySetupError(f"listener {name}: sasl.enabled.mechanisms is empty")
        users: dict[str, str] = {}
        for mechanism in offered:
            # the broker-wide sasl.jaas.config holds PLAIN users; a SCRAM line is only ever mechanism-scoped
            scoped = f"listener.name.{name.lower()}.{mechanism.lower()}.sasl.jaas.config"
            jaas = config.for_listener(name, "sasl.jaas.config", mechanism) if mechanism == "PLAIN" else None
            jaas = jaas or config.values.get(scoped)
            if not jaas:
                continue
            modules = parse_jaas(str(jaas))
            if mechanism == "PLAIN":
                users = plain_users(modules)
            elif not any(module.class_name == SCRAM_LOGIN_MODULE for module in modules):
                log.warning("listener %s: the %s JAAS line has no ScramLoginModule; ignored", name, mechanism)
        if "PLAIN" in offered and not users:
            log.warning("listener %s offers PLAIN but no PLAIN user is configured (sasl.jaas.config)", name)
        reauth = {m: config.for_listener(name, "connections.max.reauth.ms", m) for m in offered}
        max_receive = config.for_listener(name, "sasl.server.max.receive.size")
        assert isinstance(max_receive, int)
        delay = config.int("connection.failed.authentication.delay.ms")
        reauth_by_mechanism = {m: int(v) for m, v in reauth.items() if isinstance(v, int)}
        return SaslSettings(offered, users, reauth_by_mechanism, max_receive, delay)

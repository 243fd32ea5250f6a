"""Security: TLS listeners, SASL (PLAIN, SCRAM-SHA-256/512), SCRAM credentials, Kafka's ACLs and authorizer.

See docs/security.md for the settings and behaviour as users see them.
"""

from .acl import (
    AclBinding,
    AclBindingFilter,
    AclEntry,
    AclOperation,
    AclPermission,
    PatternType,
    ResourcePattern,
    ResourceType,
    binding,
    binding_filter,
)
from .acl_store import AclStore
from .authorizer import Authorizer, parse_super_users
from .credentials import CredentialStore
from .errors import (
    IllegalSaslStateError,
    InvalidAclError,
    SaslAuthenticationError,
    SecurityError,
    SecuritySetupError,
    SecurityStoreError,
    UnsupportedSaslMechanismError,
)
from .principal import ANONYMOUS, KafkaPrincipal, certificate_principal, parse_principal
from .sasl import SaslSession, SaslSettings, SaslState
from .scram import ScramClient, ScramCredential, ScramMechanism, ScramServer
from .service import ListenerSecurity, SecurityService

__all__ = [
    "ANONYMOUS",
    "AclBinding",
    "AclBindingFilter",
    "AclEntry",
    "AclOperation",
    "AclPermission",
    "AclStore",
    "Authorizer",
    "CredentialStore",
    "IllegalSaslStateError",
    "InvalidAclError",
    "KafkaPrincipal",
    "ListenerSecurity",
    "PatternType",
    "ResourcePattern",
    "ResourceType",
    "SaslAuthenticationError",
    "SaslSession",
    "SaslSettings",
    "SaslState",
    "ScramClient",
    "ScramCredential",
    "ScramMechanism",
    "ScramServer",
    "SecurityError",
    "SecurityService",
    "SecuritySetupError",
    "SecurityStoreError",
    "UnsupportedSaslMechanismError",
    "binding",
    "binding_filter",
    "certificate_principal",
    "parse_principal",
    "parse_super_users",
]

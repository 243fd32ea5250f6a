"""The security layer's errors: one family, each with a message fit for a log line (never a secret)."""

from __future__ import annotations


class SecurityError(Exception):
    """Authentication, authorization or security-setup failure."""


class SecuritySetupError(SecurityError):
    """Security settings that cannot be used (a missing certificate, a bad JAAS line): the broker does not start."""


class SaslAuthenticationError(SecurityError):
    """Credentials refused; the message is what the client is told (SASL_AUTHENTICATION_FAILED)."""


class IllegalSaslStateError(SecurityError):
    """A request that does not fit the SASL exchange at this point (the connection is closed)."""


class UnsupportedSaslMechanismError(SecurityError):
    """The client asked for a mechanism this listener does not offer."""


class InvalidAclError(SecurityError):
    """An ACL binding or filter that Kafka would refuse (INVALID_REQUEST)."""


class SecurityStoreError(SecurityError):
    """A credential or ACL file that cannot be read or written."""

"""SaslHandshake v0-1: choose the SASL mechanism of a connection (see ``facade/security/sasl.py``).

Version notes: after v0 the client sends raw SASL tokens (no request header) and reads raw tokens back;
after v1 it wraps them in SaslAuthenticate requests. The answer lists the listener's mechanisms.
On a listener without SASL, and on an authenticated connection that cannot re-authenticate, the
answer is ILLEGAL_SASL_STATE (Kafka's answer from its request handler). An unsupported mechanism is
answered UNSUPPORTED_SASL_MECHANISM, then the connection closes.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.sasl_handshake import SaslHandshakeRequest, SaslHandshakeResponse

from .context import RequestContext
from .registry import register


def _error(request: SaslHandshakeRequest, code: ErrorCode) -> SaslHandshakeResponse:
    return SaslHandshakeResponse(error_code=code, mechanisms=[])


@register(17, 0, 1, _error)
def handle(ctx: RequestContext, request: SaslHandshakeRequest) -> SaslHandshakeResponse:
    session = ctx.connection.sasl
    if session is None:
        return SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])
    answer = session.handshake(request.mechanism, ctx.api_version)
    return SaslHandshakeResponse(error_code=answer.error_code, mechanisms=answer.mechanisms)

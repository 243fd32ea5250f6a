"""SaslAuthenticate v0-2: one SASL token each way, after SaslHandshake v1 (see ``facade/security/sasl.py``).

Version notes: v1+ answers carry ``session_lifetime_ms`` (``connections.max.reauth.ms``; 0: no limit) and a
client that speaks v1+ may re-authenticate; v2 is the first flexible version. Refused credentials are
answered SASL_AUTHENTICATION_FAILED with the reason, then the connection closes. On a listener without SASL,
or once authenticated, the answer is ILLEGAL_SASL_STATE.
"""

from __future__ import annotations

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.sasl_authenticate import SaslAuthenticateRequest, SaslAuthenticateResponse

from .context import RequestContext
from .registry import register


def _error(request: SaslAuthenticateRequest, code: ErrorCode) -> SaslAuthenticateResponse:
    return SaslAuthenticateResponse(error_code=code, error_message=code.name, auth_bytes=b"")


@register(36, 0, 2, _error)
def handle(ctx: RequestContext, request: SaslAuthenticateRequest) -> SaslAuthenticateResponse:
    session = ctx.connection.sasl
    if session is None:
        return SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE, error_message="This listener does not use SASL", auth_bytes=b""
        )
    answer = session.authenticate(request.auth_bytes, ctx.api_version)
    if session.authenticated and session.principal is not None:
        ctx.connection.principal = session.principal
    return SaslAuthenticateResponse(
        error_code=answer.error_code,
        error_message=answer.error_message,
        auth_bytes=answer.token,
        session_lifetime_ms=answer.session_lifetime_ms,
    )

"""DescribeUserScramCredentials v0: which SCRAM mechanisms (and iteration counts) each user has.

A null or empty user list describes every user with credentials. A named user without any is
RESOURCE_NOT_FOUND; a user named twice is DUPLICATE_RESOURCE (once). Needs DESCRIBE on the cluster
(CLUSTER_AUTHORIZATION_FAILED, checked by the dispatcher). Nothing secret is returned.
"""

from __future__ import annotations

from collections.abc import Iterable

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.describe_user_scram_credentials import (
    CredentialInfo,
    DescribeUserScramCredentialsRequest,
    DescribeUserScramCredentialsResponse,
    DescribeUserScramCredentialsResult,
)
from rockafka.facade.security.scram import ScramCredential

from .admin import repeated
from .context import RequestContext
from .registry import register


def _error(request: DescribeUserScramCredentialsRequest, code: ErrorCode) -> DescribeUserScramCredentialsResponse:
    return DescribeUserScramCredentialsResponse(error_code=code, error_message=code.name, results=[])


@register(50, 0, 0, _error)
def handle(ctx: RequestContext, request: DescribeUserScramCredentialsRequest) -> DescribeUserScramCredentialsResponse:
    assert ctx.security is not None
    users = ctx.security.credentials.users()
    wanted = [item.name for item in request.users or []]
    if not wanted:
        return DescribeUserScramCredentialsResponse(
            error_code=ErrorCode.NONE, error_message=None, results=[_found(u, users[u].values()) for u in sorted(users)]
        )
    results: list[DescribeUserScramCredentialsResult] = []
    duplicated, reported = repeated(wanted), set()
    for name in wanted:
        if name in duplicated:
            if name not in reported:
                reported.add(name)
                message = f"Cannot describe SCRAM credentials for the same user twice in a single request: {name}"
                results.append(_failed(name, ErrorCode.DUPLICATE_RESOURCE, message))
        elif name in users:
            results.append(_found(name, users[name].values()))
        else:
            message = f"Attempt to describe a user credential that does not exist: {name}"
            results.append(_failed(name, ErrorCode.RESOURCE_NOT_FOUND, message))
    return DescribeUserScramCredentialsResponse(error_code=ErrorCode.NONE, error_message=None, results=results)


def _found(user: str, credentials: Iterable[ScramCredential]) -> DescribeUserScramCredentialsResult:
    infos = [
        CredentialInfo(mechanism=c.mechanism.code, iterations=c.iterations)
        for c in sorted(credentials, key=lambda c: c.mechanism.code)
    ]
    return DescribeUserScramCredentialsResult(
        user=user, error_code=ErrorCode.NONE, error_message=None, credential_infos=infos
    )


def _failed(user: str, code: ErrorCode, message: str) -> DescribeUserScramCredentialsResult:
    return DescribeUserScramCredentialsResult(user=user, error_code=code, error_message=message, credential_infos=[])

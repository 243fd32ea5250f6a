"""AlterUserScramCredentials v0: add, replace or delete users' SCRAM credentials (KIP-554).

The client sends, per upsertion, the salt, the iteration count and the *salted* password
(``PBKDF2(password, salt, iterations)``); the broker keeps only ``StoredKey``/``ServerKey`` derived from it
(see ``facade/security/scram.py``), persisted before the answer. Per user, as Kafka answers: one result;
any failing alteration of a user applies none of that user's alterations. Failures: an empty name or too
few (<4096) or too many (>16384) iterations or an empty salt/salted password → UNACCEPTABLE_CREDENTIAL; an
unknown mechanism → UNSUPPORTED_SASL_MECHANISM; the same user and mechanism twice → DUPLICATE_RESOURCE;
deleting a credential that does not exist → RESOURCE_NOT_FOUND. Needs ALTER on the cluster
(CLUSTER_AUTHORIZATION_FAILED, checked by the dispatcher). In a cluster the users' credentials are written to
etcd in one transaction and the answer waits until this broker authenticates with them
(``facade/cluster_security.py``); a write etcd did not take fails each user (REQUEST_TIMED_OUT).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_user_scram_credentials import (
    AlterUserScramCredentialsRequest,
    AlterUserScramCredentialsResponse,
    AlterUserScramCredentialsResult,
    ScramCredentialUpsertion,
)
from rockafka.facade.security.scram import MAX_ITERATIONS, MIN_ITERATIONS, ScramCredential, ScramMechanism

from .context import ApiError, RequestContext
from .registry import register


@dataclass(frozen=True, slots=True)
class _Alteration:
    user: str
    mechanism_code: int
    upsertion: ScramCredentialUpsertion | None


def _error(request: AlterUserScramCredentialsRequest, code: ErrorCode) -> AlterUserScramCredentialsResponse:
    users = dict.fromkeys([*(d.name for d in request.deletions), *(u.name for u in request.upsertions)])
    return AlterUserScramCredentialsResponse(
        results=[AlterUserScramCredentialsResult(user=u, error_code=code, error_message=code.name) for u in users]
    )


@register(51, 0, 0, _error)
def handle(
    ctx: RequestContext, request: AlterUserScramCredentialsRequest
) -> AlterUserScramCredentialsResponse | Awaitable[AlterUserScramCredentialsResponse]:
    assert ctx.security is not None
    store = ctx.security.credentials
    existing = store.users()
    alterations = [_Alteration(d.name, d.mechanism, None) for d in request.deletions]
    alterations += [_Alteration(u.name, u.mechanism, u) for u in request.upsertions]
    twice = {key for key, count in Counter((a.user, a.mechanism_code) for a in alterations).items() if count > 1}
    failures: dict[str, ApiError] = {}
    upserts: list[tuple[str, ScramCredential]] = []
    deletions: list[tuple[str, ScramMechanism]] = []
    for item in alterations:
        if item.user in failures:
            continue
        try:
            mechanism = _check(item, twice, existing)
        except ApiError as exc:
            failures[item.user] = exc
            continue
        if item.upsertion is None:
            deletions.append((item.user, mechanism))
        else:
            up = item.upsertion
            upserts.append(
                (item.user, ScramCredential.from_salted_password(mechanism, up.salt, up.salted_password, up.iterations))
            )
    users = list(dict.fromkeys(a.user for a in alterations))
    outcome = store.apply([u for u in upserts if u[0] not in failures], [d for d in deletions if d[0] not in failures])
    if outcome is None:
        return _answer(users, failures)
    return _once_taken(outcome, users, failures)


async def _once_taken(
    outcome: Awaitable[None], users: list[str], failures: dict[str, ApiError]
) -> AlterUserScramCredentialsResponse:
    """The answer once the cluster took the changes; if it did not, every user not failed already fails with it."""
    try:
        await outcome
    except ApiError as exc:
        failures = {user: failures.get(user, exc) for user in users}
    return _answer(users, failures)


def _answer(users: list[str], failures: dict[str, ApiError]) -> AlterUserScramCredentialsResponse:
    results = []
    for user in users:
        failed = failures.get(user)
        code, message = (ErrorCode.NONE, None) if failed is None else (failed.error_code, failed.message)
        results.append(AlterUserScramCredentialsResult(user=user, error_code=code, error_message=message))
    return AlterUserScramCredentialsResponse(results=results)


def _check(
    item: _Alteration, twice: set[tuple[str, int]], existing: dict[str, dict[ScramMechanism, ScramCredential]]
) -> ScramMechanism:
    if not item.user:
        raise ApiError(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty")
    try:
        mechanism = ScramMechanism.of_code(item.mechanism_code)
    except ValueError:
        raise ApiError(ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism") from None
    if (item.user, item.mechanism_code) in twice:
        raise ApiError(ErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request")
    up = item.upsertion
    if up is None:
        if mechanism not in existing.get(item.user, {}):
            raise ApiError(ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")
        return mechanism
    if up.iterations < MIN_ITERATIONS:
        raise ApiError(ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too few iterations: at least {MIN_ITERATIONS}")
    if up.iterations > MAX_ITERATIONS:
        raise ApiError(ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too many iterations: at most {MAX_ITERATIONS}")
    if not up.salt or not up.salted_password:
        raise ApiError(ErrorCode.UNACCEPTABLE_CREDENTIAL, "Salt and salted password must not be empty")
    return mechanism

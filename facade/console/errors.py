"""The console's one error family: each error is an HTTP status and a message a person can act on."""

from __future__ import annotations


class ConsoleError(Exception):
    """A request the console refuses; answered as ``{"error": message}`` with ``status``."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status


class BadRequestError(ConsoleError):
    status = 400


class AuthenticationRequiredError(ConsoleError):
    status = 401


class ForbiddenError(ConsoleError):
    status = 403


class NotFoundError(ConsoleError):
    status = 404


class ConflictError(ConsoleError):
    status = 409

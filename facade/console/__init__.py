"""The web console, served by the broker at ``/`` of its HTTP listener (``rockafka.http.listener``); see
docs/console.md.

The pages are one static HTML page with its script and style (``static/``: no CDN, no build step), which read the
JSON API below; scripts can use the API directly. Every API answer is JSON; a request the console refuses is a
4xx with ``{"error": "..."}`` (``errors.py``), never a 500 for bad input.

==========================  ======  ==============================================================================
Path                        Method  What
==========================  ======  ==============================================================================
``/api/whoami``             GET     the viewer's principal, whether sign-in is required, whether changes are allowed
``/api/overview``           GET     brokers, listeners, counts, store size, traffic counters, total lag
``/api/topics``             GET     topics (``page``, ``size``, ``filter``)
``/api/topics``             POST    create a topic: ``{"name", "partitions", "configs"}``
``/api/topic``              GET     one topic (``name``): partitions (paginated) with offsets and sizes, configs
``/api/topic``              DELETE  delete the topic ``name``
``/api/topic/configs``      POST    change a topic's configs: ``{"name", "set": {...}, "delete": [...]}``
``/api/messages``           GET     ``topic``, ``partition``, ``offset`` or ``timestamp``, ``order`` (``oldest`` or
                                    ``newest``), ``limit``, ``format`` (``text``, ``json``, ``hex``)
``/api/find``               GET     records by key through the IndexFile: ``topic``, ``key``, ``key_format``
                                    (``text``/``hex``), ``from_ms``, ``to_ms``, ``limit``, ``format``
``/api/groups``             GET     consumer groups with state, members and lag (``page``, ``size``, ``filter``)
``/api/group``              GET     one group (``id``): members and assignments, committed offsets and lag
``/api/group/reset``        POST    reset an inactive group's offsets: ``{"group", "topic", "partitions"?, "to"}``
                                    with ``to`` ``earliest``, ``latest``, an offset, or ``{"timestamp": ms}``
``/api/store``              GET     CommitLog positions and the store's files (``kind``, ``page``, ``size``)
==========================  ======  ==============================================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from ..broker import Broker
from ..ops.http import HttpListener, HttpRequest, HttpResponse
from ..security.acl import AclOperation, ResourceType
from ..security.service import SecurityService
from .access import ConsoleAccess, Viewer
from .changes import ConsoleChanges
from .errors import AuthenticationRequiredError, BadRequestError, ConsoleError, ForbiddenError
from .messages import FORMATS, MessageReader, parse_key
from .params import Params
from .resets import reset_targets
from .views import ConsoleViews

log = logging.getLogger(__name__)

JSON = "application/json; charset=utf-8"
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/console.js": ("console.js", "text/javascript; charset=utf-8"),
    "/chart.js": ("chart.js", "text/javascript; charset=utf-8"),
    "/console.css": ("console.css", "text/css; charset=utf-8"),
}
Api = Callable[[Viewer, Params], Any]
GET = frozenset({"GET"})
WITH_DELETE = frozenset({"GET", "DELETE"})


class Console:
    """The console of one broker: its static files and JSON API, registered on the broker's HTTP listener."""

    def __init__(self, broker: Broker, security: SecurityService | None, *, allow_changes: bool) -> None:
        authorizer = None if security is None else security.authorizer
        plain = {} if security is None else _plain_users(security)
        lookup = (lambda _user, _mechanism: None) if security is None else security.credentials.lookup
        self.access = ConsoleAccess(authorizer, plain, lookup)
        self.views = ConsoleViews(broker, self.access)
        self.messages = MessageReader(broker)
        self.changes = ConsoleChanges(broker, security)
        self.allow_changes = allow_changes
        self._broker = broker
        self._failed_login_delay_s = broker.config.int("connection.failed.authentication.delay.ms") / 1000

    def register(self, listener: HttpListener) -> None:
        for path, (name, content_type) in STATIC.items():
            body = resources.files(__package__).joinpath("static", name).read_bytes()
            listener.route(path, _static(body, content_type))
        reads: dict[str, Api] = {
            "/api/whoami": self._whoami,
            "/api/overview": lambda v, p: self.views.overview(v),
            "/api/topic": self._topic,
            "/api/messages": self._messages,
            "/api/find": self._find,
            "/api/groups": lambda v, p: self.views.groups(v, p.page()),
            "/api/group": self._group,
            "/api/store": self._store,
        }
        for path, api in reads.items():
            listener.route(path, self._endpoint(api), WITH_DELETE if path == "/api/topic" else GET)
        listener.route("/api/topics", self._endpoint(self._topics), frozenset({"GET", "POST"}))
        listener.route("/api/group/reset", self._endpoint(self._reset), frozenset({"POST"}))
        listener.route("/api/topic/configs", self._endpoint(self._alter_configs), frozenset({"POST"}))

    def _endpoint(self, api: Api) -> Callable[[HttpRequest], Awaitable[HttpResponse]]:
        async def answer(request: HttpRequest) -> HttpResponse:
            try:
                viewer = self.access.viewer(request.headers.get("authorization"), request.peer)
                params = Params.of(request)
                if request.method not in ("GET", "HEAD") and not self.allow_changes:
                    raise ForbiddenError("this console is read-only: set rockafka.console.allow.changes=true")
                result = api(viewer, params)
                if asyncio.iscoroutine(result):
                    result = await result
                status = 201 if request.method == "POST" and request.path == "/api/topics" else 200
                return _json(status, result)
            except AuthenticationRequiredError as exc:
                if request.headers.get("authorization"):
                    await asyncio.sleep(self._failed_login_delay_s)
                return _json(exc.status, {"error": str(exc), "auth_required": True})
            except ConsoleError as exc:
                return _json(exc.status, {"error": str(exc)})

        return answer

    # --- reads ---

    def _whoami(self, viewer: Viewer, params: Params) -> dict[str, Any]:
        return {
            "principal": viewer.principal,
            "auth_required": self.access.required,
            "changes_allowed": self.allow_changes,
            "node_id": self._broker.node_id,
        }

    def _topics(self, viewer: Viewer, params: Params) -> Any:
        if params.method == "POST":
            body = params.body()
            name = body.text("name")
            partitions = body.integer("partitions", default=-1)
            return self.changes.create_topic(viewer, name, partitions, body.string_map("configs"))
        return self.views.topics(viewer, params.page())

    def _topic(self, viewer: Viewer, params: Params) -> Any:
        name = params.text("name")
        if params.method == "DELETE":
            return self.changes.delete_topic(viewer, name)
        return self.views.topic(viewer, name, params.page())

    def _messages(self, viewer: Viewer, params: Params) -> Any:
        topic = params.text("topic")
        self.views.topic_info(viewer, topic)
        self.access.check(viewer, AclOperation.READ, ResourceType.TOPIC, topic)
        partition = params.integer("partition", default=0)
        order = params.choice("order", ("oldest", "newest"), default="oldest")
        return self.messages.window(
            topic,
            partition,
            offset=params.optional_integer("offset"),
            timestamp=params.optional_integer("timestamp"),
            newest_first=order == "newest",
            limit=params.integer("limit", default=50),
            form=params.choice("format", FORMATS, default="text"),
        )

    def _find(self, viewer: Viewer, params: Params) -> Any:
        topic = params.text("topic")
        self.views.topic_info(viewer, topic)
        self.access.check(viewer, AclOperation.READ, ResourceType.TOPIC, topic)
        key = parse_key(params.text("key", allow_empty=True), params.choice("key_format", ("text", "hex"), "text"))
        found = self.messages.by_key(
            topic,
            key,
            params.integer("from_ms", default=0),
            params.optional_integer("to_ms"),
            params.integer("limit", default=50),
            params.choice("format", FORMATS, default="text"),
        )
        return {"topic": topic, "records": found}

    def _group(self, viewer: Viewer, params: Params) -> Any:
        return self.views.group(viewer, params.text("id"))

    def _store(self, viewer: Viewer, params: Params) -> Any:
        if self.access.required:
            self.access.check(viewer, AclOperation.DESCRIBE, ResourceType.CLUSTER, "kafka-cluster")
        kind = params.choice("kind", ("", "commitlog", "consumequeue", "compacted", "index"), default="")
        return self.views.store(kind, params.page())

    # --- changes ---

    def _alter_configs(self, viewer: Viewer, params: Params) -> Any:
        body = params.body()
        name = body.text("name")
        self.views.topic_info(viewer, name)
        return self.changes.alter_topic_configs(viewer, name, body.string_map("set"), body.string_list("delete"))

    async def _reset(self, viewer: Viewer, params: Params) -> Any:
        body = params.body()
        group_id, topic = body.text("group"), body.text("topic")
        info = self.views.topic_info(viewer, topic)
        numbers = body.integer_list("partitions") or list(range(info.partitions))
        bad = [n for n in numbers if not 0 <= n < info.partitions]
        if bad:
            raise BadRequestError(f"topic {topic!r} has no partition {bad[0]}")
        targets = reset_targets(self._broker.store, topic, numbers, body.target("to"))
        return await self.changes.commit(viewer, group_id, targets)


def _plain_users(security: SecurityService) -> dict[str, str]:
    users: dict[str, str] = {}
    for listener in security.listeners.values():
        if listener.sasl is not None:
            users.update(listener.sasl.plain_users)
    return users


def _static(body: bytes, content_type: str) -> Callable[[HttpRequest], HttpResponse]:
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    return lambda request: HttpResponse(200, body, content_type, headers)


def _json(status: int, document: Any) -> HttpResponse:
    body = json.dumps(document, separators=(",", ":"), default=str).encode()
    return HttpResponse(status, body, JSON, {"Cache-Control": "no-store"})

"""Base classes of the generated messages (``messages/``), and the helpers their code calls.

Every generated struct is a plain ``__slots__`` class with typed attributes, a keyword constructor
holding the spec's defaults, and two methods per direction:

- ``write(out, version)`` appends the struct to a ``bytearray``; ``encode(version)`` returns the bytes;
- ``read(reader, version)`` (a classmethod) reads it from a :class:`Reader` in place;
  ``decode(buf, version, pos=0)`` reads it from a buffer that must hold exactly the struct.

A top-level :class:`Message` also knows its valid versions and checks them; an :class:`ApiMessage` is
the request or response of one API key. Equality compares every attribute, including
``unknown_tagged_fields`` (tag -> raw bytes of tagged fields this codec does not know, kept on decode
and written back on encode).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from struct import error as StructError
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from .errors import EncodeError, UnsupportedVersionError
from .primitives import Reader

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Buffer


class _Default:
    """The marker of a constructor argument left out: the attribute gets a fresh spec default."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Final[Any] = _Default()


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """What the spec says of one field of a generated struct (its ``FIELDS``), for tests and tools.

    Version ranges are ``(first, last)``, inclusive; an open-ended range ends at 32767.
    """

    attr: str  # the Python attribute
    kafka_name: str  # the spec's name
    kafka_type: str  # the spec's type: "int32", "[]string", "[]TopicData", ...
    versions: tuple[int, int]
    nullable: tuple[int, int] | None
    tagged: tuple[int, int] | None
    tag: int | None
    ignorable: bool
    struct: type[Struct] | None  # the class of a struct or struct-array field


class Struct:
    """A generated struct: one level of a message's fields."""

    __slots__: ClassVar[tuple[str, ...]] = ()
    FIELDS: ClassVar[tuple[FieldInfo, ...]] = ()
    unknown_tagged_fields: dict[int, bytes]

    def write(self, out: bytearray, version: int) -> None:
        raise NotImplementedError

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        raise NotImplementedError

    def encode(self, version: int) -> bytes:
        """The struct's bytes at ``version``; :class:`EncodeError` if a value does not fit that version."""
        out = bytearray()
        try:
            self.write(out, version)
        except StructError as exc:
            raise EncodeError(f"{type(self).__name__} v{version}: {exc}") from None
        return bytes(out)

    @classmethod
    def decode(cls, buf: Buffer, version: int, pos: int = 0) -> Self:
        """Read the struct from ``buf[pos:]``, which it must fill exactly; :class:`DecodeError` otherwise."""
        r = Reader(buf, pos)
        value = cls.read(r, version)
        r.expect_end()
        return value

    # Every attribute of a struct, for equality: an ``attrgetter`` of the subclass's slots.
    _VALUES: ClassVar[Callable[[Any], Any]] = staticmethod(lambda struct: ())

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__slots__:
            cls._VALUES = staticmethod(attrgetter(*cls.__slots__))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        values = type(self)._VALUES
        return bool(values(self) == values(other))

    def __repr__(self) -> str:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({parts})"


class Message(Struct):
    """A top-level message (request, response, header or data record) with its valid versions."""

    __slots__ = ()
    MIN_VERSION: ClassVar[int]
    MAX_VERSION: ClassVar[int]
    FLEXIBLE_FROM: ClassVar[int | None]

    @classmethod
    def check_version(cls, version: int) -> None:
        """Raise :class:`UnsupportedVersionError` unless ``version`` is one of the message's valid versions."""
        if not cls.MIN_VERSION <= version <= cls.MAX_VERSION:
            raise UnsupportedVersionError(cls.__name__, version, cls.MIN_VERSION, cls.MAX_VERSION)

    @classmethod
    def is_flexible(cls, version: int) -> bool:
        """True when ``version`` uses compact strings, arrays and tagged fields."""
        return cls.FLEXIBLE_FROM is not None and version >= cls.FLEXIBLE_FROM

    def encode(self, version: int) -> bytes:
        self.check_version(version)
        return super().encode(version)

    @classmethod
    def decode(cls, buf: Buffer, version: int, pos: int = 0) -> Self:
        cls.check_version(version)
        return super().decode(buf, version, pos)


class ApiMessage(Message):
    """The request or response body of one API key."""

    __slots__ = ()
    API_KEY: ClassVar[int]
    IS_REQUEST: ClassVar[bool]


def absent_field(owner: Struct, name: str, version: int) -> EncodeError:
    """The error for a non-ignorable field holding a non-default value in a version that lacks it."""
    value = getattr(owner, name)
    return EncodeError(f"{type(owner).__name__}.{name} = {value!r} cannot be written at version {version}")


def tags_unsupported(owner: Struct, version: int) -> EncodeError:
    """The error for unknown tagged fields on a struct written at a version without tagged fields."""
    return EncodeError(f"{type(owner).__name__} has tagged fields, which version {version} cannot carry")


__all__ = ["DEFAULT", "ApiMessage", "FieldInfo", "Message", "Struct", "absent_field", "tags_unsupported"]

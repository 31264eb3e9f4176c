"""What a phone may send, checked before anything acts on it.

Every message is one JSON text frame of at most ``MAX_BYTES`` bytes, and one
of three shapes: ``hello`` (join a seat), ``act`` (answer a prompt) or
``ping``. Anything else (too big, not JSON, unknown fields, a ``player``
field, a number with thousands of digits) is refused with one sentence that
says what is wrong, and changes nothing. ``RateLimit`` caps how often a phone
may send.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError, field_validator

MAX_BYTES = 4096
"""The largest message a phone may send (the longest text a game asks for is 200 characters)."""
MAX_TEXT = 600
NAME = r"^[a-z_]{1,32}$"


class Refusal(Exception):
    """A message the server will not act on; the text goes back to that phone."""


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(Message):
    """Join (or rejoin) a seat by the link's token or the typed code; ``device`` proves a rejoin."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    code: str | None = Field(None, max_length=12, pattern=r"^[A-Za-z0-9 -]+$")
    device: str | None = Field(None, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


Value = Union[StrictInt, Annotated[str, Field(max_length=MAX_TEXT)],
              Annotated[list[Union[StrictInt, Annotated[str, Field(max_length=100)]]], Field(max_length=20)]]


class Act(Message):
    """Answer one of my prompts: the action's type and its fields, never who I am."""

    type: Literal["act"]
    id: int = Field(ge=0, le=2**31)
    action: str = Field(pattern=NAME)
    fields: dict[Annotated[str, Field(pattern=NAME)], Value] = Field(default_factory=dict, max_length=8)

    @field_validator("fields")
    @classmethod
    def _no_identity(cls, fields: dict) -> dict:
        for name in ("player", "type"):
            if name in fields:
                raise ValueError(f"'{name}' is not yours to send: the seat you joined decides who acts")
        return fields


class Ping(Message):
    type: Literal["ping"]


Incoming = TypeAdapter(Annotated[Union[Hello, Act, Ping], Field(discriminator="type")])


def parse(text: str | bytes) -> Hello | Act | Ping:
    """One phone message, checked; raises ``Refusal`` naming the problem."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_BYTES:
        raise Refusal(f"message too large ({size} bytes; at most {MAX_BYTES})")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal("message is not valid JSON") from None
    if not isinstance(data, dict):
        raise Refusal("message must be a JSON object with a 'type'")
    try:
        return Incoming.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise Refusal(f"{where}: {first['msg']}") from None


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float = 10.0, burst: int = 20, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = float(burst), clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

"""What a response file holds, as values: one JSON value, or the events of a stream.

Model APIs answer with one JSON object, or stream it as server-sent events (``event:`` and
``data:`` lines, a blank line between events: Anthropic, Gemini with ``alt=sse``, Cohere);
some clients save a stream as JSON Lines (one event a line) or, as Gemini's REST stream
without ``alt=sse`` does, a JSON array of chunks. :func:`parse` reads any of these from the
text and says which it was; a text that is none of them is refused with the line where it
stops making sense. Pure: text in, values out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class NotAResponse(ValueError):
    """A response that is not JSON, JSON Lines or server-sent events, said for a person."""


@dataclass(frozen=True, slots=True)
class Wire:
    """What a response file holds: one JSON ``value``, or a stream's ``events`` (each the JSON
    of one event's data, in order; ``names`` the ``event:`` name of each, "" when none)."""

    value: Any = None
    events: tuple[Any, ...] = ()
    names: tuple[str, ...] = ()

    @property
    def streamed(self) -> bool:
        return bool(self.events)


def parse(text: str) -> Wire:
    """The value or events ``text`` holds (see the module's docstring)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise NotAResponse("is empty; give the response the API returned (JSON, or its stream of events)")
    if stripped[0] in "{[":
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError:
            pass  # JSON Lines, most likely
        else:
            return Wire(value=value)
        return _json_lines(stripped)
    return _server_sent(stripped)


def _json_lines(text: str) -> Wire:
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise NotAResponse(
                f"line {number} is not JSON ({error.msg}, column {error.colno}); a response is one JSON value, "
                "JSON Lines or server-sent events"
            ) from None
    return Wire(events=tuple(events), names=("",) * len(events))


def _server_sent(text: str) -> Wire:
    """Events as the SSE standard reads them: ``data:`` lines joined by line breaks, an event
    ending at a blank line; comments (``:``) and other fields are skipped."""
    events: list[Any] = []
    names: list[str] = []
    name, started = "", 0
    data: list[str] = []
    lines = text.splitlines() + [""]
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if data:
                events.append(_event_json("\n".join(data), started))
                names.append(name)
            name, data = "", []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            started = started if data else number
            data.append(value)
        elif field == "event":
            name = value.strip()
        elif field not in ("", "id", "retry"):
            raise NotAResponse(
                f"line {number} is neither JSON nor a server-sent event field (`data:`, `event:`); give the "
                "response as the API returned it"
            )
    if not events:
        raise NotAResponse("holds no JSON and no `data:` events; give the response as the API returned it")
    return Wire(events=tuple(events), names=tuple(names))


def _event_json(data: str, line: int) -> Any:
    if data.strip() == "[DONE]":
        return None
    try:
        return json.loads(data)
    except json.JSONDecodeError as error:
        raise NotAResponse(f"the event data on line {line} is not JSON ({error.msg})") from None


def stream_events(wire: Wire) -> list[dict[str, Any]]:
    """The events of a stream that are JSON objects (``[DONE]`` and other values left out)."""
    return [event for event in wire.events if isinstance(event, dict)]


def string(value: Any, key: str) -> str | None:
    """``value[key]`` when ``value`` is an object and that is a string, else None."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def integer(value: Any, key: str) -> int | None:
    """``value[key]`` when ``value`` is an object and that is an integer (not a boolean)."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def obj(value: Any, key: str) -> dict[str, Any]:
    """``value[key]`` when ``value`` is an object and that is one, else an empty one."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


def items(value: Any, key: str) -> list[Any]:
    """``value[key]`` when ``value`` is an object and that is an array, else an empty one."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, list) else []


__all__ = ["NotAResponse", "Wire", "integer", "items", "obj", "parse", "stream_events", "string"]

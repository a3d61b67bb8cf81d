"""``mqtt://[user[:password]@]host[:port][/prefix]``: where telemetry goes, checked once.

Used by ``daide-mcts play --telemetry`` (the bots publish under the prefix)
and ``daide-mcts watch`` (which subscribes to everything under it).  The port
defaults to 1883 and the prefix to ``daide-mcts``.  Only plain MQTT over TCP
is supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DEFAULT_MQTT_PORT = 1883
DEFAULT_PREFIX = "daide-mcts"
FORBIDDEN_IN_TOPIC = frozenset("+#\x00")
"""Characters no topic we publish to may hold (MQTT wildcards and NUL)."""


class MqttUrlError(ValueError):
    """A telemetry URL that cannot be used; the message says what is wrong and what is expected."""


@dataclass(frozen=True)
class MqttTarget:
    """A broker and a topic prefix, parsed from a URL by :func:`parse_mqtt_url`."""

    host: str
    port: int = DEFAULT_MQTT_PORT
    prefix: str = DEFAULT_PREFIX
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        user = f"{self.username}@" if self.username else ""  # never show the password
        return f"mqtt://{user}{self.host}:{self.port}/{self.prefix}"


EXPECTED = "expected mqtt://host[:port][/prefix]"


def parse_mqtt_url(url: str) -> MqttTarget:
    """The :class:`MqttTarget` of ``url``; :class:`MqttUrlError` saying why if it is unusable."""
    text = url.strip()
    if not text:
        raise MqttUrlError(f"empty telemetry URL; {EXPECTED}")
    if "://" not in text:
        raise MqttUrlError(f"{url!r} has no scheme; {EXPECTED}")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise MqttUrlError(f"{url!r}: {exc}; {EXPECTED}") from None
    if parts.scheme.lower() != "mqtt":
        hint = " (TLS is not supported)" if parts.scheme.lower() in ("mqtts", "ssl", "tls") else ""
        raise MqttUrlError(f"{url!r}: the scheme must be mqtt{hint}; {EXPECTED}")
    if not parts.hostname:
        raise MqttUrlError(f"{url!r} names no broker host; {EXPECTED}")
    if port == 0:
        raise MqttUrlError(f"{url!r}: port 0 is not a broker's port; {EXPECTED}")
    if parts.query or parts.fragment:
        raise MqttUrlError(f"{url!r}: no query or fragment allowed; {EXPECTED}")
    prefix = unquote(parts.path).strip("/") or DEFAULT_PREFIX
    if any(c in FORBIDDEN_IN_TOPIC for c in prefix):
        raise MqttUrlError(f"{url!r}: the prefix may not hold '+', '#' or NUL")
    if any(level == "" for level in prefix.split("/")):
        raise MqttUrlError(f"{url!r}: the prefix has an empty level ('//')")
    return MqttTarget(
        host=parts.hostname,
        port=port or DEFAULT_MQTT_PORT,
        prefix=prefix,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def topic_level(text: str) -> str:
    """``text`` made safe as one topic level: ``/``, ``+``, ``#`` and NUL become ``_``."""
    cleaned = "".join("_" if c in FORBIDDEN_IN_TOPIC or c == "/" else c for c in text)
    return cleaned or "_"

"""A person's press: what may be sent for them, checked before anything reaches the server.

At a person's seat the negotiator does not speak: press from other powers
(``FRM``) is noted for the person (:class:`~bot.client.core.notes.PressIn` with
:data:`FOR_THE_PERSON`), who answers it, or writes their own, from a page; what
they send arrives as :class:`~bot.client.core.events.PersonPress` and leaves as
one ``SND`` (noted :class:`~bot.client.core.notes.PressOut`) only if
:func:`check_person_press` finds nothing wrong with it, else it is noted
:class:`~bot.client.core.notes.PersonPressRefused`.  Press the game cannot
understand is still answered ``HUH``/``TRY`` by the core, as the bot does.
The web app calls :func:`check_person_press` too, so a person learns at once
why their press cannot go.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from protocol.press import NO_PRESS, PEACE_LEVEL, Press, press_level

FOR_THE_PERSON = "for the person"
"""The reaction noted for press a person's seat heard (the person answers it, not the bot)."""

MAX_RECIPIENTS = 7
"""The most recipients a person's press may name (the standard map's other powers are six)."""


class PersonPressError(ValueError):
    """A person's press that must not be sent; the message says why, in one line."""


def check_person_press(
    recipients: Sequence[str],
    press: Press,
    level: int,
    powers: Collection[str],
    us: str | None,
) -> None:
    """Raise PersonPressError unless ``press`` may go to ``recipients`` at press ``level``.

    ``powers`` are the game's powers, ``us`` the person's.  The press must fit
    the level (its caps are checked where it is written); the recipients must
    be other powers of the game, named once each.
    """
    if level < PEACE_LEVEL:
        raise PersonPressError(f"this game has no press (level {level or NO_PRESS})")
    if not recipients:
        raise PersonPressError("press needs at least one recipient")
    if len(recipients) > MAX_RECIPIENTS:
        raise PersonPressError(f"press goes to at most {MAX_RECIPIENTS} powers")
    if len(set(recipients)) != len(recipients):
        raise PersonPressError("a power is named twice among the recipients")
    unknown = [p for p in recipients if p not in powers]
    if unknown:
        raise PersonPressError(f"not a power of this game: {' '.join(unknown)}")
    if us is not None and us in recipients:
        raise PersonPressError(f"press to yourself ({us})")
    needed = press_level(press)
    if needed > level:
        raise PersonPressError(f"this press needs level {needed}; the game is at level {level}")

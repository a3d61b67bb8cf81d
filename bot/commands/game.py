"""daide-mcts game: play one local seven-bot game and show it live.

With no arguments: starts a Parlance server on loopback (MILA's DAIDE server
if Parlance cannot run here), launches one MCTS bot and six DumbBots of ours,
each its own process, plays to the winter of 1905 and prints the result.
For example:

    daide-mcts game
    daide-mcts game --lineup mcts:v8,dumbbot,random --final-year 1903 --mtl 5
    daide-mcts game --lineup 'mcts,parang,parang,cmd:/opt/mybot -s {host}:{port} -n {name}'
    daide-mcts game --lineup mcts,bandana:dbrane,bandana:dumbbot --bandana-dir ~/bandana/agents
    daide-mcts game --lineup mcts,albert --mtl 5 --albert-dir ~/albert55
    daide-mcts game --human FRA         # play France yourself, in the browser, against six bots

Seats: a player of ours (dumbbot, random, mcts, mcts:VARIANT), human (a person
at a page in the browser; its address is printed), parang[:BOT]
(Parang's bots from the local Parlance install), bandana:dbrane or
bandana:dumbbot (BANDANA's D-Brane 1.1 and DumbBot 1.4, from the jars in
--bandana-dir), albert (Albert 5.5 under Wine, from Albert.exe and cspdll.dll
in --albert-dir; see docs/albert.md), or cmd:COMMAND with {host}, {port} and
{name} placeholders; a lineup shorter than seven is filled with --fill.  The run folder (--out)
receives every DAIDE message, the SCO of each year, a JSON summary, the result
table and a PNG chart.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.local.albert_seat import (
    ALBERT_DIR_ENV,
    ALBERT_FILES,
    AlbertInstall,
    AlbertUnavailableError,
    albert_dir_from,
)
from bot.local.bandana import (
    BANDANA_DIR_ENV,
    BandanaInstall,
    BandanaUnavailableError,
    bandana_dir_from,
)
from bot.local.launch import (
    DEFAULT_DEADLINES,
    DEFAULT_FINAL_YEAR,
    FIRST_YEAR,
    PERSON_BOT_TIME,
    PERSON_DEADLINES,
    PLAIN_STANDARD,
    PRESS_LEVELS,
    STANDARD_MAP,
    Deadlines,
)
from bot.local.lineup import (
    DEFAULT_LINEUP,
    HUMAN,
    LineupError,
    Seat,
    build_lineup,
    check_players,
)
from bot.local.runner import SERVER_CHOICES
from bot.servers.parlance_maps import ServedMap
from bot.toolkit.paths import dated_folder
from bot.toolkit.usererror import UserError, extra_missing
from protocol.messages import Message

if TYPE_CHECKING:
    from bot.local.outcome import GameConfig
    from bot.local.terminal_view import View

STAYS_UP = "the game is over; each person's page stays up with its review (Ctrl-C to end)"
"""Said once a game with people in it is over while their seats still serve their pages."""

ANY_POWER = "any"
"""``--human`` without a power: the server deals it."""

MAX_YEARS = 200
"""The longest local game, in years."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``game`` subcommand."""
    p = subparsers.add_parser(
        "game",
        help="play a local seven-bot game on a Parlance server, with a live view",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(p)
    p.add_argument(
        "--out", type=Path, help="run folder for the record (default runs/game-<date>-<time>)"
    )
    p.add_argument(
        "--view",
        action="store_true",
        help="also show the game live in the browser (prints the page's URL; needs [view])",
    )
    p.add_argument(
        "--human",
        nargs="?",
        const=ANY_POWER,
        metavar="POWER",
        help="sit a person in the first seat (a page in the browser), as POWER if given "
        "(AUS, ENG, FRA, GER, ITA, RUS, TUR); with a person the deadlines default to "
        f"{PERSON_DEADLINES} and our bots think at most --bot-time seconds a phase",
    )
    p.add_argument(
        "--bot-time",
        type=float,
        metavar="SECONDS",
        help=f"most seconds our bots think per phase, whatever the deadline (default "
        f"{PERSON_BOT_TIME:g} when a person plays, else the deadline's)",
    )
    p.set_defaults(handler=run)


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """The flags shared by ``game`` and ``tournament``."""
    _add_lineup_arguments(p)
    _add_rules_arguments(p)
    _add_deadline_arguments(p)
    _add_seat_arguments(p)


def _add_lineup_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lineup",
        help="comma-separated seat specs (default: mcts and six dumbbots)",
    )
    p.add_argument(
        "--fill", default="dumbbot", help="spec filling a lineup shorter than seven (dumbbot)"
    )


def _add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--map",
        metavar="NAME",
        help="the map Parlance serves: standard (the default) or one of Parterre's variants "
        "(world3, hundred3, sailho...; docs/variants.md); one seat per power",
    )
    p.add_argument(
        "--level",
        type=int,
        choices=PRESS_LEVELS,
        metavar="LEVEL",
        help="the press level the server allows: 0 no press (the default), 10 peace, "
        "alliances and draws, 20 orders and DMZs, 30 AND/OR ... (Parlance's LVL)",
    )
    p.add_argument(
        "--final-year",
        type=int,
        help=f"the game ends at this year's winter (default {DEFAULT_FINAL_YEAR}; on a "
        f"variant, its first year + {DEFAULT_FINAL_YEAR - FIRST_YEAR})",
    )


def _add_deadline_arguments(p: argparse.ArgumentParser) -> None:
    """``--mtl``, ``--rtl``, ``--btl``: the deadline of each kind of phase."""
    for flag, phase, usual, with_person in (
        ("--mtl", "movement", DEFAULT_DEADLINES.move, PERSON_DEADLINES.move),
        ("--rtl", "retreat", DEFAULT_DEADLINES.retreat, PERSON_DEADLINES.retreat),
        ("--btl", "build", DEFAULT_DEADLINES.build, PERSON_DEADLINES.build),
    ):
        p.add_argument(
            flag,
            type=int,
            help=f"{phase} deadline, seconds (default {usual}; {with_person} with a person)",
        )


def _add_seat_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, help="seed of our bots (seat i gets SEED+i)")
    p.add_argument(
        "--server",
        choices=SERVER_CHOICES,
        default="auto",
        help="auto: Parlance, or MILA's server if Parlance cannot run here (default auto)",
    )
    p.add_argument(
        "--telemetry", metavar="URL", help="passed to every bot of ours: mqtt://host:port/prefix"
    )
    p.add_argument(
        "--bandana-dir",
        type=Path,
        metavar="DIR",
        help=f"folder of BANDANA's D-Brane-1.1.jar and DumbBot-1.4.jar, for bandana: seats "
        f"(default: ${BANDANA_DIR_ENV})",
    )
    p.add_argument(
        "--albert-dir",
        type=Path,
        metavar="DIR",
        help=f"folder of Albert's {' and '.join(ALBERT_FILES)}, for albert seats "
        f"(default: ${ALBERT_DIR_ENV})",
    )


def map_from_args(args: argparse.Namespace) -> ServedMap:
    """The map ``--map`` names (standard by default); UserError if Parlance does not serve it.

    Also settles ``--final-year`` (its default is the map's fifth year).
    """
    name = args.map or STANDARD_MAP
    if name == STANDARD_MAP and args.server == "mila":
        served = PLAIN_STANDARD
    else:
        from bot.servers.parlance_install import ParlanceUnavailableError, install
        from bot.servers.parlance_maps import MapNotServedError, served_map

        try:
            served = served_map(install(), name)
        except ParlanceUnavailableError as exc:
            if name != STANDARD_MAP:
                raise UserError(f"--map {name} needs Parlance: {exc}") from exc
            served = PLAIN_STANDARD
        except MapNotServedError as exc:
            raise UserError(f"--map: {exc}") from exc
    if args.final_year is None:
        args.final_year = served.year_after(DEFAULT_FINAL_YEAR - FIRST_YEAR + 1)
    return served


def seats_from_args(args: argparse.Namespace, served: ServedMap) -> tuple[Seat, ...]:
    """The lineup the flags ask for (default: one MCTS bot, DumbBots in the other seats).

    One seat per power of ``served``; ``--human`` puts a person in the first
    seat, before the lineup's first seats.  UserError if unfit.
    """
    count = len(served.powers)
    try:
        specs = DEFAULT_LINEUP[:1] if args.lineup is None else tuple(args.lineup.split(","))
        if getattr(args, "human", None) is not None:
            specs = (HUMAN, *specs[: count - 1])
        seats = build_lineup(specs, args.fill, seats=count)
        check_players(seats)
        return seats
    except LineupError as exc:
        raise UserError(f"--lineup: {exc}") from exc


def power_slots_from_args(
    args: argparse.Namespace, seats: tuple[Seat, ...], served: ServedMap
) -> tuple[int, ...] | None:
    """Which power each seat plays when ``--human POWER`` names one (else the server deals).

    The person gets POWER; the other seats take the other powers in a shuffled
    order (seeded by ``--seed``).  UserError for an unknown power.
    """
    wanted = getattr(args, "human", None)
    if wanted is None or wanted == ANY_POWER:
        return None
    power = wanted.upper()
    powers = served.powers
    if power not in powers:
        raise UserError(f"--human: unknown power {wanted!r}; one of {', '.join(powers)}")
    person = next(i for i, s in enumerate(seats) if s.kind == "human")
    others = [i for i in range(len(powers)) if powers[i] != power]
    random.Random(args.seed).shuffle(others)
    slots = []
    for i in range(len(seats)):
        slots.append(powers.index(power) if i == person else others.pop())
    return tuple(slots)


def bandana_from_args(args: argparse.Namespace, seats: tuple[Seat, ...]) -> BandanaInstall | None:
    """The folder of BANDANA's jars when the lineup has BANDANA seats (else None); UserError."""
    bots = tuple(s.spec for s in seats if s.kind == "bandana")
    if not bots:
        return None
    try:
        return BandanaInstall.locate(bandana_dir_from(args.bandana_dir), bots)
    except BandanaUnavailableError as exc:
        raise UserError(f"--bandana-dir: {exc}") from exc


def albert_from_args(
    args: argparse.Namespace, seats: tuple[Seat, ...], out: TextIO
) -> AlbertInstall | None:
    """Albert's install, its Wine prefix ready, if the lineup has Albert (else None); UserError."""
    if not any(s.kind == "albert" for s in seats):
        return None
    try:
        albert = AlbertInstall.locate(albert_dir_from(args.albert_dir))
        albert.prepare(lambda note: print(note, file=out, flush=True))
    except AlbertUnavailableError as exc:
        raise UserError(f"--albert-dir: {exc}") from exc
    return albert


def deadlines_from_args(args: argparse.Namespace, person: bool = False) -> Deadlines:
    """The deadlines the flags ask for (a person's by default when one plays); UserError."""
    defaults = PERSON_DEADLINES if person else DEFAULT_DEADLINES
    values = {"mtl": defaults.move, "rtl": defaults.retreat, "btl": defaults.build}
    for flag in values:
        value = getattr(args, flag)
        if value is None:
            continue
        if not 1 <= value <= 3600:
            raise UserError(f"--{flag} must be between 1 and 3600 seconds (got {value})")
        values[flag] = value
    return Deadlines(values["mtl"], values["rtl"], values["btl"])


def bot_time_from_args(args: argparse.Namespace, person: bool) -> float | None:
    """Our bots' cap per phase: ``--bot-time``, or a person's default; UserError if unusable."""
    value = getattr(args, "bot_time", None)
    if value is None:
        return PERSON_BOT_TIME if person else None
    if not 0.5 <= value <= 3600:
        raise UserError(f"--bot-time must be between 0.5 and 3600 seconds (got {value:g})")
    return float(value)


def check_common(args: argparse.Namespace, served: ServedMap) -> None:
    """Flags every local game shares (on ``served``); UserError if unusable."""
    last = served.first_year + MAX_YEARS - 1
    if not served.first_year <= args.final_year <= last:
        raise UserError(
            f"--final-year must be between {served.first_year} and {last} on {served.name}"
        )
    if args.telemetry is not None and not args.telemetry.startswith(("mqtt://", "mqtts://")):
        raise UserError("--telemetry must be an mqtt://host:port/prefix URL")


def fresh_folder(path: Path | None, prefix: str) -> Path:
    """``path`` if it is new or empty, or a new dated folder under runs/; else UserError."""
    if path is None:
        path = dated_folder(Path("runs"), prefix)
    elif path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UserError(f"--out: {path} exists and is not an empty folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out: cannot create {path}: {exc}") from exc
    return path


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the game; exit 0 if it ended cleanly with a result, 1 otherwise."""
    out = out or sys.stdout  # looked up now: the default would pin the stream of import time
    from bot.local.runner import GameConfig, GameError, run_until_done
    from bot.local.terminal_view import make_view

    served = map_from_args(args)
    check_common(args, served)
    seats = seats_from_args(args, served)
    person = any(s.kind == "human" for s in seats)
    deadlines = deadlines_from_args(args, person)
    slots = power_slots_from_args(args, seats, served)
    bot_time = bot_time_from_args(args, person)
    bandana = bandana_from_args(args, seats)
    albert = albert_from_args(args, seats, out)
    folder = fresh_folder(args.out, "game")
    config = GameConfig(
        seats=seats,
        final_year=args.final_year,
        deadlines=deadlines,
        seed=args.seed,
        server=args.server,
        telemetry=args.telemetry,
        bandana=bandana,
        albert=albert,
        power_slots=slots,
        bot_time=bot_time,
        map=served.name,
        first_year=served.first_year,
        press_level=args.level or 0,
    )
    view = make_view(out)
    browser_view = _start_browser_view(folder, out) if args.view else None
    ended: list[bool] = []
    try:
        run_until_done(_play(config, folder, view, out, browser_view, ended))
    except GameError as exc:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only if nothing was written into it
        raise UserError(str(exc)) from exc
    except KeyboardInterrupt:
        if not ended:
            raise
        # Ctrl-C after the game ends the people's pages: the game itself went as reported.
    finally:
        if browser_view is not None:
            browser_view.server.stop()
    return 0 if ended[0] else 1


async def _play(
    config: GameConfig,
    folder: Path,
    view: View,
    out: TextIO,
    browser_view: _BrowserView | None,
    ended: list[bool],
) -> None:
    """Play the game and report it; then wait while a person's page is up (its review).

    ``ended`` hears whether the game ended cleanly.  The wait ends when every person's
    seat has left, or with Ctrl-C.
    """
    from bot.local.runner import PersonPages, play_game

    people = PersonPages()
    try:
        outcome = await play_game(
            config,
            folder,
            view,
            listener=None if browser_view is None else browser_view.hear,
            people=people,
        )
        ended.append(outcome.ended_cleanly)
        _report(folder, out, browser_view)
        if people.running():
            out.write(f"{STAYS_UP}\n")
            out.flush()
            await people.wait()
    finally:
        await people.stop()


def _report(folder: Path, out: TextIO, browser_view: _BrowserView | None) -> None:
    """The result table and where the record is."""
    out.write("\n" + (folder / "result.txt").read_text())
    files = [f.name for f in sorted(folder.iterdir()) if f.is_file()]
    out.write(f"\nrecord: {folder}/ ({', '.join(files)}, bots/)\n")
    if browser_view is not None:
        out.write(f"replay it in the browser: daide-mcts view {folder}\n")
    out.flush()


class _BrowserView:
    """The browser view of a local game: a timeline fed by the game's recorder, served."""

    def __init__(self, folder: Path) -> None:
        from bot.view.server import ViewServer
        from bot.view.timeline import Timeline

        self.timeline = Timeline(source=f"{folder} (local game)", live=True)
        self.server = ViewServer(self.timeline)

    def hear(self, source: str, direction: str, text: str, message: Message | None) -> None:
        """A message of the game, from the game's thread."""
        if direction != "in":
            return
        with self.server.lock:
            changed = self.timeline.feed(message, text)
        if changed:
            self.server.changed()


def _start_browser_view(folder: Path, out: TextIO) -> _BrowserView:
    """Serve the page from a background thread and print its URL; UserError without [view]."""
    try:
        view = _BrowserView(folder)
    except ImportError as exc:
        raise extra_missing("--view needs", exc) from exc
    url = view.server.start_in_thread()
    out.write(f"watch it in the browser: {url}\n")
    out.flush()
    return view

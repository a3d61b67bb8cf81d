"""daide-mcts train: learn an order policy from recorded games.

    daide-mcts train generate --games 40 --iterations 200 --seed 1 --out runs/data
    daide-mcts train import runs/dbrane-tournament --out runs/dbrane-data
    daide-mcts train fit runs/data --out search/models/policy.json
    daide-mcts train fit runs/dbrane-data --players bandana:dbrane --out runs/dbrane.json
    daide-mcts train evaluate runs/data --model policy

generate plays in-process games (by default seven mcts:dm) and records every
movement phase's position, each power's orders and the final centres; import
reads the same from games played on a DAIDE server (the run folders of
daide-mcts game, or tournaments: every unit's order as the server reported it,
and which player played each power); fit fits the per-unit order policy
(NumPy, reproducible) on the games but a held-out tail and prints its held-out
accuracy and log-loss beside DumbBot's; evaluate prints the same for a saved
model.  --players keeps the orders of the named players only.  The search
plays a model with mcts:dm/model=NAME (see docs/training.md).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.toolkit.usererror import UserError
from search.orderpolicy import ModelError, OrderModel, load_model
from search.registry import PolicySpecError, parse_spec

if TYPE_CHECKING:  # the training's code is imported by each step when it runs
    from bot.lab.training.samples import Samples

DEFAULT_BUDGET = 0.5
"""CPU seconds per move of the MCTS players of a self-play game, when no iteration cap is given."""

SEATS = 7


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``train`` subcommand and its ``generate``, ``fit`` and ``evaluate``."""
    p = subparsers.add_parser(
        "train",
        help="learn an order policy from recorded games (generate, import, fit, evaluate)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    steps = p.add_subparsers(dest="step", metavar="STEP")

    g = steps.add_parser("generate", help="play and record games for training")
    g.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    g.add_argument("--seed", type=int, default=0, help="seed of the seats and dice (default 0)")
    g.add_argument("--out", type=Path, required=True, help="a new folder for the games")
    g.add_argument(
        "--lineup",
        nargs="+",
        metavar="PLAYER",
        default=["mcts:dm"],
        help="one player spec, or seven (default: mcts:dm in every seat)",
    )
    clock = g.add_mutually_exclusive_group()
    clock.add_argument(
        "--budget",
        type=float,
        help=f"CPU seconds per move for MCTS players (default {DEFAULT_BUDGET:g})",
    )
    clock.add_argument(
        "--iterations",
        type=int,
        help="an iteration cap per move instead of a budget: the data repeat exactly",
    )
    g.add_argument("--final-year", type=int, default=1905, help="games end at its winter")
    g.set_defaults(handler=run_generate)

    i = steps.add_parser("import", help="record the games of a DAIDE server for training")
    i.add_argument(
        "games",
        type=Path,
        nargs="+",
        metavar="FOLDER",
        help="run folders of daide-mcts game, or tournament folders (their finished games)",
    )
    i.add_argument("--out", type=Path, required=True, help="a new folder for the games")
    i.set_defaults(handler=run_import)

    f = steps.add_parser("fit", help="fit the order policy on recorded games")
    f.add_argument("data", type=Path, nargs="+", help="folders made by generate or import")
    f.add_argument("--out", type=Path, required=True, help="the model file to write (.json)")
    f.add_argument("--name", default=None, help="the model's name (default: the file's stem)")
    f.add_argument("--held-out", type=float, default=0.2, help="share of games held out")
    f.add_argument("--steps", type=int, default=400, help="optimiser steps (default 400)")
    f.add_argument("--l2", type=float, default=1e-3, help="L2 penalty (default 0.001)")
    f.add_argument("--seed", type=int, default=0, help="seed of the features' DumbBot draws")
    _add_players_argument(f)
    f.set_defaults(handler=run_fit)

    e = steps.add_parser("evaluate", help="a model's accuracy and log-loss on recorded games")
    e.add_argument("data", type=Path, nargs="+", help="folders made by generate or import")
    e.add_argument("--model", required=True, help="a shipped model's name or a model file")
    e.add_argument("--seed", type=int, default=0, help="seed of the features' DumbBot draws")
    _add_players_argument(e)
    e.set_defaults(handler=run_evaluate)
    p.set_defaults(handler=lambda args: _no_step(p))


def _add_players_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        help="only the orders of these players (as the data name them: mcts:dm, dumbbot, "
        "bandana:dbrane, albert...; default every player)",
    )


def _no_step(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _lineup(specs: list[str]) -> tuple[str, ...]:
    if len(specs) == 1:
        specs = specs * SEATS
    if len(specs) != SEATS:
        raise UserError(f"--lineup: give one player spec or {SEATS} (got {len(specs)})")
    try:
        for spec in specs:
            parse_spec(spec)
    except PolicySpecError as exc:
        raise UserError(f"--lineup: {exc}") from exc
    return tuple(s.strip().lower() for s in specs)


def run_generate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play and record the games."""
    from bot.lab.training.selfplay import GenerateSettings, generate

    out = out or sys.stdout
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if args.final_year < 1901:
        raise UserError("--final-year must be 1901 or later")
    if args.budget is not None and not args.budget > 0:
        raise UserError("--budget must be a positive number of seconds")
    if args.iterations is not None and args.iterations < 1:
        raise UserError("--iterations must be at least 1")
    settings = GenerateSettings(
        games=args.games,
        seed=args.seed,
        lineup=_lineup(args.lineup),
        budget=None if args.iterations is not None else (args.budget or DEFAULT_BUDGET),
        iterations=args.iterations,
        final_year=args.final_year,
    )

    def on_game(done: int) -> None:
        print(f"{done}/{args.games} games", file=sys.stderr, flush=True)

    try:
        phases = generate(settings, args.out, on_game)
    except (FileExistsError, ValueError, PolicySpecError) as exc:
        raise UserError(str(exc)) from exc
    except OSError as exc:
        raise UserError(f"--out: {exc}") from exc
    out.write(f"{args.games} games, {phases} movement phases recorded in {args.out}\n")
    return 0


def run_import(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Read the games of a DAIDE server's run folders into a data folder."""
    from bot.lab.training.servergames import ServerGameError, import_games

    out = out or sys.stdout
    words = [*map(str, args.games), "--out", str(args.out)]
    command = "daide-mcts train import " + shlex.join(words)
    try:
        summary = import_games(args.games, args.out, command)
    except (ServerGameError, FileExistsError) as exc:
        raise UserError(str(exc)) from exc
    except OSError as exc:
        raise UserError(f"--out: {exc}") from exc
    out.write(
        f"{summary.games} games, {summary.phases} movement phases imported into {args.out} "
        f"(players: {', '.join(summary.players) or 'unknown'})\n"
    )
    if summary.left_out:
        out.write(
            f"note: {summary.left_out} power-phases left out "
            "(a unit without an ORD line, or an order our rules refuse)\n"
        )
    if summary.mismatches:
        out.write(
            f"note: our engine's adjudication differs from the server's in "
            f"{summary.mismatches} phases (the orders are kept as the server reported them)\n"
        )
    return 0


def _samples(
    folders: list[Path], seed: int, held_out: float = 0.2, players: list[str] | None = None
) -> tuple[Samples, Samples]:
    from bot.lab.training.samples import SampleError, load_samples

    try:
        return load_samples(folders, seed=seed, held_out=held_out, players=players)
    except SampleError as exc:
        raise UserError(str(exc)) from exc


def run_fit(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Fit, evaluate on the held-out games, write the model."""
    from bot.lab.training.fitting import FitSettings, evaluate, fit_policy

    out = out or sys.stdout
    if not 0 < args.held_out < 1:
        raise UserError("--held-out must be between 0 and 1")
    if args.steps < 1:
        raise UserError("--steps must be at least 1")
    if not args.l2 >= 0:
        raise UserError("--l2 must be >= 0")
    if args.out.suffix != ".json" or not args.out.parent.is_dir():
        raise UserError(f"--out: give a .json file in an existing folder (got {args.out})")
    train, test = _samples(args.data, args.seed, args.held_out, args.players)
    if not train.units or not test.units:
        raise UserError("too few games to hold some out: generate more games")
    settings = FitSettings(steps=args.steps, l2=args.l2)
    weights, loss = fit_policy(train, settings)
    report = evaluate(weights, test)
    name = args.name or args.out.stem
    provenance = {
        "command": "daide-mcts train fit " + shlex.join(_argv(args)),
        "data": [_manifest(d) for d in args.data],
        "seed": args.seed,
        "players": args.players,
        "train_units": train.units,
        "held_out_units": test.units,
        "train_loss": round(loss, 5),
        "held_out": report.to_dict(),
    }
    model = OrderModel(tuple(float(w) for w in weights), name=name, provenance=provenance)
    try:
        model.save(args.out)
    except OSError as exc:
        raise UserError(f"--out: cannot write {args.out}: {exc}") from exc
    out.write(f"trained on {train.units} unit choices, held out {test.units}\n")
    out.write(report.table() + "\n")
    out.write(f"model written to {args.out}\n")
    return 0


def _argv(args: argparse.Namespace) -> list[str]:
    words = [str(d) for d in args.data]
    words += ["--out", str(args.out), "--held-out", str(args.held_out)]
    words += ["--steps", str(args.steps), "--l2", str(args.l2), "--seed", str(args.seed)]
    if args.name:
        words += ["--name", args.name]
    if args.players:
        words += ["--players", *args.players]
    return words


def _manifest(folder: Path) -> object:
    """The folder's manifest with the command that made it, or just its name if unreadable."""
    from bot.lab.training.selfplay import MANIFEST_FILE, generate_command

    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text())
        if isinstance(manifest.get("command"), str):
            return manifest
        return {**manifest, "command": generate_command(manifest, str(folder))}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return str(folder)


def run_evaluate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """A saved model's accuracy and log-loss on every recorded choice of the folders."""
    from bot.lab.training.fitting import evaluate

    out = out or sys.stdout
    try:
        model = load_model(args.model)
    except ModelError as exc:
        raise UserError(str(exc)) from exc
    _, test = _samples(args.data, args.seed, held_out=1.0, players=args.players)
    if not test.units:
        raise UserError("no unit choices recorded in these folders")
    out.write(f"{model.name} on {test.units} unit choices\n")
    out.write(evaluate(model.vector, test).table() + "\n")
    return 0

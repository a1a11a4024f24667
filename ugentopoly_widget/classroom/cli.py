"""``python -m ugentopoly_widget classroom``: serve one game to every device in the room.

    python -m ugentopoly_widget classroom --profile classic --players 4 --port 8765

prints the address students open (and its QR code), the class code, the projector's address
and the teacher's (with the teacher's key), then serves until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..engine.errors import UgentopolyError
from ..engine.rules import PROFILES
from .checks import RoomError


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ugentopoly_widget classroom",
        description="Serve one game to every phone and laptop in the room (Solara).")
    p.add_argument("--profile", default="ugentopoly", choices=sorted(PROFILES),
                   help="the game (default: ugentopoly)")
    p.add_argument("--players", default="4",
                   help="number of seats (2-8) or their names, comma-separated (default: 4)")
    p.add_argument("--port", type=int, default=8765, help="port (default: 8765; 0: any)")
    p.add_argument("--host", default="0.0.0.0",
                   help="address to listen on (default: every interface, for the LAN; "
                        "127.0.0.1: this machine only)")
    p.add_argument("--admit", default="teacher", choices=["teacher", "code"],
                   help="who lets a student take a seat: the teacher approves (default) or the "
                        "class code admits")
    p.add_argument("--seed", type=int, default=None, help="the game's seed")
    p.add_argument("--code", default=None, help="the class code (default: a random one)")
    p.add_argument("--away", type=float, default=30.0,
                   help="seconds a seat's device may be gone before a bot stands in (30)")
    p.add_argument("--bot-delay", type=float, default=0.8, help="seconds per bot move (0.8)")
    p.add_argument("--no-qr", action="store_true", help="print no QR code")
    p.add_argument("--info-json", default=None,
                   help="'-': print the addresses as one JSON line (for start() in a notebook)")
    return p


def players_arg(text: str) -> int | list[str]:
    text = text.strip()
    if text.isdigit():
        return int(text)
    return [name.strip() for name in text.split(",") if name.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from .room import Room

    try:
        room = Room(args.profile, players=players_arg(args.players), seed=args.seed,
                    admit=args.admit, code=args.code, away_seconds=args.away,
                    bot_delay=args.bot_delay)
    except (ValueError, RoomError, UgentopolyError) as exc:
        print(f"classroom: {exc}", file=sys.stderr)
        return 2
    try:
        from .server import ClassroomServer, info_json

        server = ClassroomServer(room, host=args.host, port=args.port).start()
    except ImportError as exc:
        print(f"classroom: {exc}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError) as exc:
        print(f"classroom: could not start the server: {exc}", file=sys.stderr)
        return 1
    if args.info_json == "-":
        print(info_json(server), flush=True)
    else:
        print(server.addresses.banner(qr=not args.no_qr), flush=True)
        print("Ctrl-C stops the server.", flush=True)
    server.wait()
    return 0


__all__ = ["main", "parser"]

"""``python -m ugentopoly_widget COMMAND``: the package's command line.

    python -m ugentopoly_widget simulate --help
    python -m ugentopoly_widget classroom --help
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

COMMANDS = {
    "simulate": "batch simulation to Parquet / CSV (see docs/simulation.md)",
    "classroom": "serve one game to every device in the room (README: Play with the whole class)",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or args[0] not in COMMANDS:
        print("usage: python -m ugentopoly_widget COMMAND [options]\n\ncommands:")
        for name, what in COMMANDS.items():
            print(f"  {name:<10} {what}")
        known = not args or args[0] in ("-h", "--help")
        if not known:
            print(f"\nunknown command {args[0]!r}", file=sys.stderr)
        return 0 if known else 2
    if args[0] == "classroom":
        from .classroom.cli import main as classroom_main

        return classroom_main(args[1:])
    from .simulation.cli import main as simulate_main

    return simulate_main(args[1:])


if __name__ == "__main__":
    sys.exit(main())

"""Lets `python -m tongiaki_lan` behave exactly like the `tongiaki-lan` command.

Guarded, so that importing the module (a spawned worker's bootstrap, a tool that lists
modules) never starts a command; only running it does.
"""

from tongiaki_lan.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

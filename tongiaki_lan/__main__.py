"""Lets `python -m tongiaki_lan` behave exactly like the `tongiaki-lan` command."""

from tongiaki_lan.cli import main

raise SystemExit(main())

"""The network layer's reasons in the player's language (a REFUSE from the host, a failed
join): the one module of the words that reads the net layer, for the LAN feed and the
lobby; the story and the status line of a solo game never load it."""

from __future__ import annotations

from tongiaki_lan.i18n import N_


def net_reason(text: object) -> str:
    """A reason the network layer gave (a REFUSE from the host, a failed join) in the
    player's language where it is one of the lobby's known refusals; else as it came.

    The net layer keeps its reasons English (the wire and scripts read them); it marks
    the templates, and the console matches the text against them here."""
    from tongiaki_lan.i18n import translate_known

    try:
        from tongiaki_lan.net.protocol import handover, lobby, movesync
    except ImportError:  # the network extras are missing: nothing from the net to translate
        return str(text)
    return translate_known(str(text), (*lobby.REFUSALS, *handover.REFUSALS,
                                       *movesync.REFUSALS, *CONSOLE_KNOWN))


# Reasons the network layer words without marking them (yet): translated all the same.
CONSOLE_KNOWN = (
    N_("watchers do not chat at this table"),  # net/protocol/watching.py, a watcher's chat
)

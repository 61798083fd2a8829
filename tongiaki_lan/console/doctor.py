"""What `doctor` found, in the player's words (the lobby's `doctor` and `tongiaki-lan
doctor` show the same lines). The facts and the verdict come from net.aio.doctor."""

from __future__ import annotations

from tongiaki_lan.i18n import N_, _, decimal

WHY = {
    "chosen": N_("chosen with --interface"),
    "not-chosen": N_("not used: not chosen with --interface"),
    "loopback": N_("not used: this computer only"),
    "link-local": N_("used, but it has no address from a router (169.254…): probably not "
                     "connected"),
    "virtual": N_("used, but it looks like a VPN, container or virtual machine"),
    "lan": N_("used: a local network"),
}

SAYS = {
    "ok": N_("Everything works: every tongiaki-lan heard here answers."),
    "no-interface": N_("This computer has no network interface with the address {missing} "
                       "(chosen with --interface): mistyped, or that network is gone."),
    "no-network": N_("This computer is not connected to a network."),
    "firewall": N_("Nothing reaches tongiaki-lan on this computer, not even its own "
                   "announcement: a firewall blocks it."),
    "alone": N_("No other tongiaki-lan was heard on this network (a lobby at no table is "
                "not announced: friends who have not created a table yet are not heard)."),
    "isolated": N_("Games are announced, but no datagram gets through to the laptops that "
                   "announce them: this network keeps its clients apart (client isolation, "
                   "usual on guest Wi-Fi)."),
    "some-silent": N_("Some laptops do not answer: {who}."),
}

DO = {
    "ok": N_("Pick a game in the lobby (or create one)."),
    "no-interface": N_("Choose one of this computer's addresses with --interface "
                       "({addresses}), or leave --interface out to use them all; then try "
                       "again."),
    "no-network": N_("Join the party's Wi-Fi (or a phone hotspot), then try again."),
    "firewall": N_("Allow tongiaki-lan (or Python) in this computer's firewall for private "
                   "networks, then try again. On Windows: Windows Security › Firewall › Allow "
                   "an app; on macOS: System Settings › Network › Firewall › Options."),
    "alone": N_("Check that the others run tongiaki-lan on the same Wi-Fi (not a guest one), "
                "and that the firewalls (theirs and this computer's) allow it. Where only "
                "announcements are blocked, play by "
                "invite: the others start 'tongiaki-lan play --join' with the tongiaki:// "
                "line that the table's creator's 'play' prints."),
    "isolated": N_("Leave this Wi-Fi for one without isolation: a phone hotspot everyone "
                   "joins, or the host's own (not guest) Wi-Fi. A firewall on the other "
                   "laptops can look the same: there, allow tongiaki-lan."),
    "some-silent": N_("On those laptops, allow tongiaki-lan in the firewall, or check that "
                      "they are on this Wi-Fi."),
}

# a game's phase as the lobby shows it (the same texts, so the same translations)
PHASES = {"lobby": N_("lobby"), "starting": N_("starting"), "playing": N_("playing"),
          "over": N_("over")}


def _phase(phase: str) -> str:
    return _(PHASES[phase]) if phase in PHASES else phase


KINDS = {"game": N_("in game {game} ({phase})"), "doctor": N_("running doctor"),
         "other-version": N_("another version of tongiaki-lan ({version}): update both")}


# a clock this far from ours is worth a word in the report (that it does not matter)
CLOCK_NOTED_S = 60.0


def report_lines(facts: dict, v: dict) -> list[tuple[str, str]]:
    """(style, text) lines: style is 'head', 'good', 'bad' or 'info'."""
    out: list[tuple[str, str]] = [("head", _("Network interfaces:"))]
    for i in facts["interfaces"]:
        out.append(("info" if i["used"] else "", "  {name} {address}: {why}".format(
            name=i["name"], address=i["address"], why=_(WHY[i["why"]]))))
    if "mdns_error" in facts:
        out.append(("bad", _("Multicast DNS cannot start here: {error}").format(
            error=facts["mdns_error"])))
    heard = facts.get("own_advert_heard")
    out.append(("good" if heard else "bad",
                _("Own announcement heard back: yes") if heard else
                _("Own announcement heard back: no")))
    nodes = facts.get("nodes", [])
    out.append(("head", _("tongiaki-lan heard on the network: {n}").format(n=len(nodes))))
    for n in nodes:
        what = _(KINDS[n["kind"]]).format(game=n.get("game", ""),
                                          phase=_phase(n.get("phase", "")),
                                          version=n.get("version", ""))
        where = ", ".join(f"{h}:{n['port']}" for h in n["hosts"]) or "?"
        if n["answers"]:
            ms = n["rtt_ms"]
            exchange = _("answers in {ms} ms; clock {offset} s from ours").format(
                ms=decimal(ms) if isinstance(ms, float) else ms,
                offset=decimal(n["clock_offset_s"], sign=True))
        else:
            exchange = _("no answer to {n} probes").format(
                n=sum(p["sent"] for p in n["probes"]))
        out.append(("good" if n["answers"] else "bad", "  {who} ({where}) {what}: {x}".format(
            who=n["name"] or "?", where=where, what=what, x=exchange)))
    for n in nodes:  # (a clock hours off was shown as "-18000.0 s", then "Everything works")
        offset = n.get("clock_offset_s") if n["answers"] else None
        if offset is None or abs(offset) < CLOCK_NOTED_S:
            continue
        amount = (_("{h} h").format(h=decimal(abs(offset) / 3600)) if abs(offset) >= 3600
                  else _("{m} min").format(m=round(abs(offset) / 60)))
        text = (_("{who}'s clock is {amount} ahead of ours") if offset > 0
                else _("{who}'s clock is {amount} behind ours"))
        out.append(("info", "  " + text.format(who=n["name"] or "?", amount=amount) + _(
            ": harmless, the game keeps time by each laptop's own running clock; only the "
            "times written in records differ.")))
    games = facts.get("games", [])
    out.append(("head", _("Games seen: {n}").format(n=len(games))))
    for g in games:
        out.append(("info", "  {game} ({phase}, {taken}/{total})".format(
            game=g["game"], phase=_phase(g["phase"]), taken=g["seats_taken"],
            total=g["seats_total"])))
    code = v["code"]
    said = {"who": ", ".join(v.get("silent", [])), "missing": ", ".join(v.get("missing", [])),
            "addresses": ", ".join(v.get("addresses", []))}
    out.append(("good" if code == "ok" else "bad", _(SAYS[code]).format(**said)))
    out.append(("info", _(DO[code]).format(**said)))
    if code != "ok" and (v["virtual_in_use"] or v["several_interfaces"]):
        out.append(("info", _("Several interfaces are in use ({which}): if the others are on "
                              "your Wi-Fi, choose it with --interface {address}.").format(
            which=", ".join(v["interfaces_in_use"]),
            address=(v["suggest_interface"] or ["ADDRESS"])[0])))
    return out

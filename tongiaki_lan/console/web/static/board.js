// The board page: draws each table state the game pushes, and sends back what the player
// clicks as the text a player would type. It holds no rules: a click is looked up among
// the legal moves the state lists with the board elements that stand for them
// (`targets`), never worked out here. tongiaki_lan/console/web/server.py serves it;
// docs/board.md tells what it shows.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const root = document.documentElement;
  const token = decodeURIComponent(location.hash.slice(1));
  // Until the first state brings the words in the game's language (the page cannot know
  // it before): English.
  let words = {
    connecting: "Connecting to the game…",
    reconnecting: "Connection lost: reconnecting…",
    no_key: "This link has no key: open the board with the whole link the game printed " +
      "(it ends with #…).",
    refused: "The game does not answer this link: it may have ended, or the link's key is " +
      "not this game's. Open the link the game printed.",
    waiting: "Waiting for the game to start…",
  };
  let ws = null;
  let state = null;
  let everOpened = false;
  let tries = 0;
  let seq = 0;
  let lastSvg = null;
  // {text, style, index}: a command's answer, shown until the table moves on. An answer
  // takes the move index of the first state after it (`index: null` until then): the
  // state its command brought about may arrive after it.
  let reply = null;
  let local = null; // {text, index}: the page's own note (a click on nothing to play)
  let ticking = null;
  // The player's zoom and pan, in board units ({x, y, w, h}, an SVG viewBox), kept from
  // one state to the next; null: the whole board fits its box.
  let view = null;
  let drag = null; // {x, y, view, moved}: a pan under way
  // How much larger than drawn a small board may be shown: at 1.5 the first turns' Tonga
  // was a hand's width in a box four times as wide, its piers hard to hit with a click.
  const FIT_MAX = 2.5;
  const GONE_AFTER = 6; // tries that fail after a lost connection: 6 s or so

  // ------------------------------------------------------------------ connection

  function connect() {
    if (!token) {
      setStatus(words.no_key, "bad");
      return;
    }
    if (!closedByGame) {
      setStatus(everOpened ? words.reconnecting : words.connecting, everOpened ? "bad" : "");
    }
    let sock;
    try {
      sock = new WebSocket(`ws://${location.host}/ws`, ["tongiaki", "token." + token]);
    } catch (e) {
      retry();
      return;
    }
    ws = sock;
    sock.onopen = () => {
      tries = 0;
      everOpened = true;
      closedByGame = false;
      // (a node whose game has not begun has no table to show yet)
      setStatus(state ? "" : words.waiting, "");
    };
    sock.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === "state") render(m);
      else if (m.type === "forming") renderForming(m);
      else if (m.type === "reply") onReply(m);
      else if (m.type === "closed") {
        // the game closes this page (its end, its console quit): the page ends the
        // connection itself, once it has read all that was sent before
        closedByGame = state !== null;
        sock.close(1000);
      }
    };
    sock.onclose = (ev) => {
      if (ws !== sock) return;
      ws = null;
      // 1001 (going away): the game closed its page itself, at its end or when its
      // console quit; the board stays as it last was (and comes back if the game does)
      // (kept until the page is let in again: the tries after it fail otherwise)
      if (ev.code === 1001 && state !== null) closedByGame = true;
      retry();
    };
  }

  let closedByGame = false;

  function retry() {
    tries += 1;
    // back off: 0.2 s, 0.4 s … up to 5 s between tries, for as long as the page is open
    const delay = Math.min(5000, 200 * 2 ** Math.min(tries - 1, 5));
    if (closedByGame) setStatus(words.closed, "");
    else if (!everOpened && tries >= 2) setStatus(words.refused, "bad");
    // (the game's own program serves this page on this laptop: when it has not answered
    // for some 6 s it has ended or stopped, and "reconnecting…" went on for ever)
    else if (everOpened && tries >= GONE_AFTER) setStatus(words.gone, "bad");
    else setStatus(everOpened ? words.reconnecting : words.connecting, everOpened ? "bad" : "");
    setTimeout(connect, delay);
  }

  function send(message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  function command(text) {
    closeChooser();
    if (send({ type: "command", id: ++seq, text })) {
      local = null;
      reply = { text: words.sending, style: "quiet", index: state ? state.move_index : -1,
                pending: seq };
      renderNotice();
    }
  }

  function onReply(m) {
    if (reply && reply.pending && reply.pending !== m.id) return; // an older command's
    // nothing to say (a step of a replay, a move taken): "Sending…" goes, the state says
    reply = m.text ? { text: m.text, style: m.style || "", index: null } : null;
    renderNotice();
  }

  function setStatus(text, style) {
    const el = $("status");
    el.textContent = text;
    el.className = style || "";
    el.hidden = !text;
  }

  // ------------------------------------------------------------------ drawing

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("data-") || k === "title" || k === "aria-label") {
        node.setAttribute(k, v);
      } else node[k] = v;
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  }

  function chip(seat) {
    const c = el("span", { class: "chip", text: seat.letter, title: seat.colour_name });
    c.style.background = seat.fill;
    c.style.color = seat.ink;
    return c;
  }

  function fmt(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  }

  function applyWords() {
    $("h-decision").textContent = state.over ? words.over
      : state.decision.mine ? words.your_move : words.decision;
    $("h-players").textContent = words.players;
    $("h-story").textContent = words.story;
    $("h-final").textContent = words.final;
    $("chooser-title").textContent = words.choose;
    $("chooser-cancel").textContent = words.cancel;
    for (const [id, key] of [["r-first", "first"], ["r-back", "back"],
                             ["r-forward", "forward"], ["r-last", "last"]]) {
      const b = $(id);
      b.textContent = { first: "|◀ ", back: "◀ ", forward: "", last: "" }[key] + words[key] +
        { first: "", back: "", forward: " ▶", last: " ▶|" }[key];
    }
    $("r-slider").setAttribute("aria-label", words.replay);
    for (const [id, key] of [["zoom-in", "zoom_in"], ["zoom-out", "zoom_out"],
                             ["zoom-fit", "zoom_fit"]]) {
      $(id).setAttribute("aria-label", words[key]);
      $(id).title = words[key];
    }
  }

  // A LAN table still forming, before its game: its seats as the console's lobby lists
  // them (who sat down in which colour, a person or a bot, ready or not), how many are
  // open and who watches; the game's parts of the page are put away until it starts.
  function renderForming(m) {
    words = Object.assign(words, m.words || {});
    root.lang = m.lang || "en";
    root.classList.add("forming");
    closeChooser();
    const title = m.title || "Tongiaki";
    $("title").textContent = title;
    document.title = title;
    if (!closedByGame) setStatus(words.waiting, "");
    $("h-players").textContent = m.heading;
    const list = $("seats");
    list.replaceChildren();
    for (const s of m.seats) {
      const li = el("li", { class: "seat", "data-seat": String(s.number - 1) },
        chip(s),
        el("span", { class: "who" },
          el("span", { class: "name", text: s.name }),
          el("span", { class: "flags" },
            el("span", { class: "readiness", text: s.ready_text }),
            s.flags.length ? " · " + s.flags.join(" · ") : null)),
        el("span", { class: "nums" }, el("span", { class: "kind", text: s.kind })));
      li.classList.toggle("me", !!s.this_laptop);
      li.classList.toggle("ready", !!s.ready);
      list.append(li);
    }
    const bits = [];
    if (m.open_text) bits.push(m.open_text);
    if (m.watchers.length) bits.push(`${words.watching}: ${m.watchers.join(", ")}`);
    $("presence").textContent = bits.join(" · ");
    $("presence").hidden = !bits.length;
    // no board yet (a lobby's page between games: not the last game's board either)
    const board = $("board");
    board.replaceChildren();
    lastSvg = null;
    view = null;
    root.dataset.moveIndex = "";
    board.dataset.moveIndex = "";
  }

  function render(m) {
    state = m;
    root.classList.remove("forming");
    if ($("status").textContent === words.waiting) setStatus("", "");
    words = Object.assign(words, m.words || {});
    root.lang = m.lang || "en";
    applyWords();
    const title = m.title || "Tongiaki";
    $("title").textContent = title;
    document.title = title;
    const board = $("board");
    if (m.svg !== lastSvg) {
      board.innerHTML = m.svg;
      lastSvg = m.svg;
      const svg = board.querySelector("svg");
      if (svg) { // fill the box, but a small board no more than FIT_MAX times as large
        svg.style.maxWidth = `${FIT_MAX * parseFloat(svg.getAttribute("width"))}px`;
        svg.style.maxHeight = `${FIT_MAX * parseFloat(svg.getAttribute("height"))}px`;
        svg.dataset.fit = svg.getAttribute("viewBox");
        if (view) showView();
      }
    }
    markLegal();
    renderDecision();
    renderSeats();
    renderFinal();
    renderStory();
    renderReplay();
    renderNotice();
    renderCountdowns();
    if (!$("chooser").hidden && !m.decision.mine) closeChooser();
    root.dataset.moveIndex = String(m.move_index);
    board.dataset.moveIndex = String(m.move_index);
    root.dataset.version = String(m.version);
    send({ type: "shown", version: m.version });
  }

  function legalMoves() {
    return state && state.decision.mine ? state.decision.moves : [];
  }

  function markLegal() {
    const board = $("board");
    for (const node of board.querySelectorAll(".legal")) node.classList.remove("legal");
    const targets = new Set();
    for (const move of legalMoves()) for (const t of move.targets) targets.add(t);
    board.classList.toggle("mine", targets.size > 0);
    if (!targets.size) return;
    for (const node of board.querySelectorAll("[data-target]")) {
      if (targets.has(node.getAttribute("data-target"))) node.classList.add("legal");
    }
  }

  // The picture of the tile in hand turned as `move` (`tile Q,R DIR`) would lay it, or
  // null (the state's `tile`: the six ways, drawn by the game).
  function tilePicture(move) {
    const t = state && state.tile;
    const words = move.text.split(" ");
    if (!t || words[0] !== "tile" || words.length < 3) return null;
    const at = t.directions.indexOf(words[2]);
    if (at < 0) return null;
    const pic = el("span", { class: "pic" });
    pic.innerHTML = t.pictures[at];
    return pic;
  }

  function moveButton(move, cls) {
    const b = el("button", { type: "button", class: cls || "move", "data-move": move.text },
      el("span", { class: "shown", text: move.shown || move.text }));
    const pic = tilePicture(move);
    if (pic) b.prepend(pic);
    if (move.preview) b.append(el("span", { class: "preview", text: move.preview }));
    b.addEventListener("click", () => command(move.text));
    return b;
  }

  function renderDecision() {
    const d = state.decision;
    const box = $("decisionbox");
    box.classList.toggle("mine", d.mine);
    box.classList.toggle("over", !!state.over);
    // the status line in words for every view: the decision, or what the table waits
    // for instead (a draw, an away player), where a replay or a look back stands
    let text = state.status || d.text || "";
    if (!d.mine && d.waiting_for && !text.includes(d.waiting_for)) {
      text = text ? `${text} — ${d.waiting_for}` : d.waiting_for;
    }
    $("decision").textContent = state.over && !d.text ? words.over : text;
    const buttons = $("buttons");
    buttons.replaceChildren();
    const targeted = $("board").querySelector(".legal") !== null;
    let listed = false; // a move below to choose, beside the board's marked places
    if (d.mine && state.offer) {
      const offered = d.moves.find((m) => m.text === state.offer) ||
        { text: state.offer, shown: state.offer, preview: "", targets: [] };
      const b = moveButton(offered, "move primary");
      b.prepend(el("span", { class: "label", text: words.offer + ": " }));
      buttons.append(b);
      listed = true;
    }
    if (d.mine) {
      // a move with no element on the board is a button (one whose elements are not
      // drawn, too: a move must never be out of reach)
      const board = $("board");
      const drawn = (t) => board.querySelector(`[data-target="${CSS.escape(t)}"]`) !== null;
      for (const move of d.moves) {
        if (move.text !== state.offer && !move.targets.some(drawn)) {
          buttons.append(moveButton(move));
          listed = true;
        }
      }
      if (state.commands.includes("hint")) {
        const h = el("button", { type: "button", class: "tool", "data-command": "hint",
                                 text: words.hint });
        h.addEventListener("click", () => command("hint"));
        buttons.append(h);
      }
    }
    // "or choose below" only when a move is there to choose (with Hint alone below, it
    // sent the player looking for a list that was not there)
    $("clickhint").hidden = !(d.mine && targeted);
    $("clickhint").textContent = listed ? words.click_hint : words.click_only;
    if (state.can_undo) {
      const u = el("button", { type: "button", class: "tool", "data-command": "undo",
                               text: "↶ " + words.undo, title: words.undo_title });
      u.addEventListener("click", () => command("undo"));
      buttons.append(u);
    }
    const tile = $("tilebox");
    tile.hidden = !(d.mine && state.tile);
    if (!tile.hidden) tile.innerHTML = state.tile.pictures[0]; // (its red mark at S)
    else tile.replaceChildren();
    $("hinttext").hidden = !(d.mine && state.hint);
    $("hinttext").textContent = state.hint || "";
  }

  function renderSeats() {
    const list = $("seats");
    list.replaceChildren();
    for (const s of state.seats) {
      const flags = [];
      if (s.local && s.driver === "you") flags.push(words.you);
      else if (s.this_laptop) flags.push(words.this_laptop); // (its bot plays it: the label says)
      if (s.expelled) flags.push(words.expelled);
      else if (s.left) flags.push(words.left);
      else if (s.away) flags.push(words.away);
      const li = el("li", { class: "seat", "data-seat": String(s.index) },
        chip(s),
        el("span", { class: "who" },
          el("span", { class: "name", text: s.label || s.name }),
          flags.length ? el("span", { class: "flags", text: flags.join(" · ") }) : null),
        el("span", { class: "nums" },
          el("span", { class: "score", text: `${s.score} ${words.points}` }),
          el("span", { class: "reserve", text: `${s.reserve} ${words.reserve}` })));
      li.classList.toggle("turn", state.decision.seat === s.index && !state.over);
      li.classList.toggle("me", !!(s.viewer || s.this_laptop));
      li.classList.toggle("away", !!(s.away || s.left || s.expelled));
      list.append(li);
    }
    const bits = [];
    if (state.watchers.length) bits.push(`${words.watching}: ${state.watchers.join(", ")}`);
    if (state.open_seats.length) bits.push(`${words.open_seats}: ${state.open_seats.join(", ")}`);
    $("presence").textContent = bits.join(" · ");
    $("presence").hidden = !bits.length;
  }

  function line(item, tag) {
    const [style, text] = item;
    return el(tag || "li", { class: style ? `l-${style.replace(/[^\w-]/g, "-")}` : "", text });
  }

  function renderFinal() {
    const box = $("finalbox");
    box.hidden = !state.final.length;
    const grid = state.final_grid;
    if (!grid) { // (the text table: a page of an older table model)
      $("final").replaceChildren(...state.final.map((x) => line(x)));
      $("finaltables").replaceChildren();
      return;
    }
    $("final").replaceChildren();
    const seat = (i) => state.seats[i] || { letter: "?", fill: "#888", ink: "#fff" };
    const cell = (tag, text, cls) => el(tag, cls ? { class: cls, text } : { text });
    const table = (heads, rows, cls) => el("table", { class: `final ${cls}` },
      el("thead", {}, el("tr", {}, ...heads)), el("tbody", {}, ...rows));
    const who = (name, chipOf, winner) => el("th", { scope: "row", class: "fname" },
      chipOf ? chip(chipOf) : null, el("span", { text: name }),
      winner ? el("span", { class: "crown", text: "★", title: words.winner }) : null);
    // points, islands, ships and kings: what E4 compares, in that order (the ships on
    // beaches and the kings apart are in the last one's title)
    const shown = [0, 1, 4];
    const heads = [cell("th", words.player), ...shown.map((k) => cell("th", grid.columns[k], "num"))];
    const parts = [el("p", { class: "decided", text: grid.decided })];
    parts.push(table(heads,
      grid.players.map((r) => el("tr", { class: r.winner ? "winner" : "" },
        who(r.name, seat(r.seat), r.winner),
        ...shown.map((k) => {
          const td = cell("td", String(r.values[k]), "num");
          if (k === 4) td.title = `${grid.columns[2]}: ${r.values[2]} · ${grid.columns[3]}: ${r.values[3]}`;
          return td;
        }))),
      "players"));
    if (grid.pairs.length) {
      parts.push(table(heads,
        grid.pairs.map((r) => el("tr", { class: r.winner ? "winner" : "" },
          who(`${r.name} (${r.letters})`, null, r.winner),
          ...r.values.map((v) => cell("td", String(v), "num")))), "pairs"));
    }
    parts.push(table([cell("th", words.island), ...grid.players.map((r) => el("th", { class: "num" }, chip(seat(r.seat))))],
      grid.islands.map((i) => el("tr", {}, cell("th", i.name),
        ...i.present.map((p) => cell("td", p ? String(i.value) : "·", p ? "num" : "num none")))),
      "islands"));
    $("finaltables").replaceChildren(...parts);
  }

  let storyShown = "";
  // The story keeps its end in sight unless the player scrolled back to read; set by
  // the player's scrolling (a layout read then costs nothing: the page is laid out).
  let followStory = true;
  let storyTop = 0; // the story's scrollTop at its last scroll event

  function storyToEnd() {
    const list = $("story");
    list.scrollTop = list.scrollHeight;
  }

  function renderStory() {
    const list = $("story");
    const key = JSON.stringify(state.story);
    if (key === storyShown) return;
    storyShown = key;
    list.replaceChildren(...state.story.map((x) => line(x)));
    // (scrolled in the next frame: asking for the list's height now would lay the
    // whole page out once more, before the new board is even drawn)
    if (followStory) requestAnimationFrame(storyToEnd);
  }

  function renderReplay() {
    const nav = $("replay");
    const r = state.replay;
    nav.hidden = !r;
    if (!r) return;
    const slider = $("r-slider");
    slider.max = String(r.total);
    if (document.activeElement !== slider) slider.value = String(r.index);
    for (const b of nav.querySelectorAll("button")) b.disabled = !r.can_step;
    slider.disabled = !r.can_step;
    $("r-first").disabled = $("r-back").disabled = !r.can_step || r.index <= 0;
    $("r-last").disabled = $("r-forward").disabled = !r.can_step || r.index >= r.total;
    // a live game looked back at: its end is the game as it goes on
    const now = r.live && r.index >= r.total;
    nav.classList.toggle("live", !!r.live);
    nav.classList.toggle("now", now);
    $("r-last").textContent = r.live ? `${words.live} ▶|` : `${words.last} ▶|`;
    $("r-where").textContent = now ? words.live_now
      : fmt(words.move_of, { index: r.index, total: r.total });
  }

  function renderNotice() {
    const box = $("notice");
    let shown = null;
    if (reply && reply.index === null && state) {
      if (reply.seen === undefined) reply.seen = state.version;
      else if (reply.seen !== state.version) reply.index = state.move_index;
    }
    if (local && state && local.index === state.move_index) shown = local;
    else if (reply && reply.index === null) shown = reply;
    else if (reply && state && reply.index === state.move_index) shown = reply;
    else {
      reply = null;
      local = null;
      if (state && state.notice) {
        shown = { style: state.notice[0] || "info", text: state.notice[1] };
      }
    }
    box.textContent = shown ? shown.text : "";
    box.className = shown ? `n-${(shown.style || "").replace(/[^\w-]/g, "-")}` : "";
    box.hidden = !shown;
  }

  function renderCountdowns() {
    const list = $("countdowns");
    if (ticking) clearInterval(ticking);
    ticking = null;
    const started = performance.now();
    const items = state.countdowns.map((c) => ({ c, node: el("li", { class: "countdown" }) }));
    list.replaceChildren(...items.map((x) => x.node));
    const tick = () => {
      const gone = (performance.now() - started) / 1000;
      for (const { c, node } of items) {
        const left = Math.max(0, Math.ceil(c.seconds - gone));
        // (the words with the seconds in them, when it has them: "in 42 s" as of the
        // state it came with, then "(29 s)" counted here, read as two waits)
        node.textContent = c.template ? fmt(c.template, { s: left })
          : `${c.text} (${fmt(words.seconds, { n: left })})`;
      }
    };
    tick();
    if (items.length) ticking = setInterval(tick, 1000);
  }

  // ------------------------------------------------------------------ zoom and pan

  function boardSvg() {
    return $("board").querySelector("svg");
  }

  function fitBox(svg) {
    const [x, y, w, h] = svg.dataset.fit.split(" ").map(Number);
    return { x, y, w, h };
  }

  function showView() {
    const svg = boardSvg();
    if (!svg) return;
    const box = view || fitBox(svg);
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
    svg.style.maxWidth = view ? "none" : `${FIT_MAX * parseFloat(svg.getAttribute("width"))}px`;
    svg.style.maxHeight = view ? "none" : `${FIT_MAX * parseFloat(svg.getAttribute("height"))}px`;
    $("zoom-fit").disabled = !view;
  }

  function pointAt(svg, clientX, clientY) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  function zoom(factor, clientX, clientY) {
    // factor > 1 brings the board closer, around the pointer (the box's centre if none)
    const svg = boardSvg();
    if (!svg) return;
    const fit = fitBox(svg);
    const now = view || fit;
    const r = svg.getBoundingClientRect();
    const at = pointAt(svg, clientX ?? r.left + r.width / 2, clientY ?? r.top + r.height / 2);
    if (!at) return;
    const w = Math.min(fit.w * 1.2, Math.max(fit.w / 12, 160, now.w / factor));
    const h = now.h * (w / now.w);
    if (w >= fit.w && h >= fit.h && factor < 1) {
      view = null;
    } else {
      view = { x: at.x - (at.x - now.x) * (w / now.w), y: at.y - (at.y - now.y) * (h / now.h),
               w, h };
    }
    showView();
  }

  function startPan(ev) {
    if (ev.button !== 0 || !view) return;
    drag = { x: ev.clientX, y: ev.clientY, view: Object.assign({}, view), moved: false };
  }

  function pan(ev) {
    if (!drag) return;
    const svg = boardSvg();
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    drag.moved = true;
    $("board").classList.add("panning");
    const r = svg.getBoundingClientRect();
    const scale = Math.max(drag.view.w / r.width, drag.view.h / r.height);
    view = Object.assign({}, drag.view, { x: drag.view.x - dx * scale,
                                          y: drag.view.y - dy * scale });
    showView();
  }

  function endPan() {
    $("board").classList.remove("panning");
    setTimeout(() => { drag = null; }, 0); // (the click that ends a pan plays nothing)
  }

  // ------------------------------------------------------------------ clicks

  function optionsAt(node) {
    // the clicked element, then the ones it lies in (a berth in a beach in an island):
    // the first that stands for some legal move decides
    const moves = legalMoves();
    const board = $("board");
    for (let n = node; n && n !== board; n = n.parentNode) {
      const target = n.getAttribute && n.getAttribute("data-target");
      if (!target) continue;
      const found = moves.filter((m) => m.targets.includes(target));
      if (found.length) return found;
    }
    return [];
  }

  function onBoardClick(ev) {
    if (drag && drag.moved) return;
    if (!state || !state.decision.mine) return;
    const found = optionsAt(ev.target);
    if (found.length === 1) command(found[0].text);
    else if (found.length > 1) openChooser(found, ev.clientX, ev.clientY);
    else if (legalMoves().some((m) => m.targets.length)) {
      local = { text: words.nothing_there, index: state.move_index };
      renderNotice();
    }
  }

  function openChooser(moves, x, y) {
    const box = $("chooser");
    const list = $("chooser-list");
    list.replaceChildren(...moves.map((m) => el("li", {}, moveButton(m))));
    box.hidden = false;
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    box.style.left = `${Math.max(8, Math.min(x + 12, window.innerWidth - w - 8))}px`;
    box.style.top = `${Math.max(8, Math.min(y - 20, window.innerHeight - h - 8))}px`;
    const first = list.querySelector("button");
    if (first) first.focus();
  }

  function closeChooser() {
    $("chooser").hidden = true;
  }

  function init() {
    const story = $("story");
    // Only a scroll back stops the following: a scroll event read after the list had
    // grown again (the next move came before it was dispatched, as a LAN game's moves
    // do) found the end out of sight and stopped it for good: the page's story stood
    // at turn 2 while the game was at turn 7.
    story.addEventListener("scroll", () => {
      const top = story.scrollTop;
      if (story.scrollHeight - top - story.clientHeight < 40) followStory = true;
      else if (top < storyTop) followStory = false;
      storyTop = top;
    });
    // A story box made smaller (a hint or a button more above it, a smaller window)
    // keeps its end in sight: its last lines, the move just told, went out of view.
    if (window.ResizeObserver) {
      new ResizeObserver(() => { if (followStory) storyToEnd(); }).observe(story);
    }
    const board = $("board");
    board.addEventListener("click", onBoardClick);
    board.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX, ev.clientY);
    }, { passive: false });
    board.addEventListener("pointerdown", startPan);
    window.addEventListener("pointermove", pan);
    window.addEventListener("pointerup", endPan);
    board.addEventListener("dblclick", (ev) => {
      if (!state || !state.decision.mine || !optionsAt(ev.target).length) {
        view = null;
        showView();
      }
    });
    $("zoom-in").addEventListener("click", () => zoom(1.4));
    $("zoom-out").addEventListener("click", () => zoom(1 / 1.4));
    $("zoom-fit").addEventListener("click", () => { view = null; showView(); });
    $("chooser-cancel").addEventListener("click", closeChooser);
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") closeChooser();
      if (ev.target instanceof HTMLInputElement) return;
      if (ev.key === "+" || ev.key === "=") zoom(1.4);
      else if (ev.key === "-") zoom(1 / 1.4);
      else if (ev.key === "0") { view = null; showView(); }
      // (a focused slider or field takes the arrows itself)
      const typing = ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement;
      if (!state || !state.replay || !state.replay.can_step || typing || !$("chooser").hidden) {
        return;
      }
      if (ev.key === "ArrowLeft") command("back");
      else if (ev.key === "ArrowRight") command("forward");
      else if (ev.key === "Home") command("first");
      else if (ev.key === "End") command("last");
      else return;
      ev.preventDefault();
    });
    document.addEventListener("mousedown", (ev) => {
      const box = $("chooser");
      if (!box.hidden && !box.contains(ev.target)) closeChooser();
    });
    for (const b of $("replay").querySelectorAll("button[data-command]")) {
      b.addEventListener("click", () => command(b.dataset.command));
    }
    const slider = $("r-slider");
    slider.addEventListener("input", () => {
      if (state && state.replay) {
        $("r-where").textContent = fmt(words.move_of,
          { index: slider.value, total: state.replay.total });
      }
    });
    slider.addEventListener("change", () => command(`goto ${slider.value}`));
    connect();
  }

  init();
})();

// Shared by the opponent's board, the arbiter's panel and the spectators' view: the message
// catalogue, the connection (with reconnection), the board, the clocks and the move list.
// No chess rules here: the server sends the position, the legal moves and the clock readings.
"use strict";

const VC = (() => {
  const catalogue = JSON.parse(document.getElementById("i18n").textContent);

  // On a right-to-left page every filled-in value is a bidi isolate (FSI … PDI): a square
  // ("e4"), a move ("O-O+") or Appendix D words keep their own left-to-right order inside an
  // Arabic, Persian or Hebrew sentence, and a translated side name stays right-to-left.
  const RTL = document.documentElement.dir === "rtl";
  const isolate = (text) => (RTL ? `\u2068${text}\u2069` : text);

  /** The sentence for `key` with its {placeholders} filled in (never glued from pieces). */
  function t(key, params = {}) {
    const template = catalogue[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name) =>
      name in params ? isolate(String(params[name])) : whole);
  }

  // -- connection --------------------------------------------------------------------------

  /**
   * One WebSocket to /ws/<page>, reopened after a drop with a growing pause (back-off); the
   * server answers every new connection with the whole state. While it is down the page says
   * so over everything, its clocks stand still (they only show what the program last sent) and
   * it takes no input; back, it says so. Close codes: 1008 refused (a wrong link: no retry),
   * 4001 another window took this board over (no retry: the other window has it), 4002 no
   * spectator place free (retry later).
   */
  function connect(page, handlers) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/${page}${location.search}`;
    const status = document.getElementById("connection");
    const overlay = offlineOverlay();
    let socket = null;
    let delay = 250;
    let wasUp = false;
    let lastError = "";
    let stopped = false;

    function show(up) {
      VC.online = up;
      document.body.dataset.connected = up ? "yes" : "no";
      document.dispatchEvent(new CustomEvent("vc-connection", { detail: { up } }));
      for (const part of document.querySelectorAll(".layout, .setup")) part.inert = !up;
      status.classList.toggle("down", !up);
      if (up) {
        status.textContent = t(wasUp ? "web.connection.back" : "web.connection.up");
        overlay.hidden = true;
        wasUp = true;
        return;
      }
      status.textContent = t("web.connection.down");
      overlay.querySelector(".offline-title").textContent = t("web.connection.down");
      overlay.querySelector(".offline-note").textContent = t("web.connection.frozen");
      overlay.hidden = false;
    }

    function finalWord(text) {
      stopped = true;
      status.textContent = text;
      overlay.querySelector(".offline-title").textContent = text;
      overlay.querySelector(".offline-note").textContent = "";
    }

    function open() {
      socket = new WebSocket(url);
      socket.addEventListener("open", () => { delay = 250; show(true); });
      socket.addEventListener("message", (event) => {
        let message;
        try { message = JSON.parse(event.data); } catch { return; }
        if (message.type === "error") lastError = message.message;
        const handler = handlers[message.type];
        if (handler) handler(message);
      });
      socket.addEventListener("close", (event) => {
        if (stopped) return;
        show(false);
        if (event.code === 1008) { finalWord(t("web.connection.refused")); return; }
        if (event.code === 4001) { finalWord(lastError); return; }
        if (event.code === 4002) {  // no spectator place: say so, try again later
          overlay.querySelector(".offline-title").textContent = lastError;
          overlay.querySelector(".offline-note").textContent = "";
        }
        const wait = event.code === 4002 ? Math.max(delay, 15000) : delay;
        setTimeout(open, wait + Math.random() * 250);
        delay = Math.min(delay * 2, 8000);
      });
    }

    status.textContent = t("web.connection.down");
    document.body.dataset.connected = "no";
    open();
    return {
      send(message) {
        if (socket && socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify(message));
          return true;
        }
        return false;
      },
    };
  }

  /** The notice over the whole page while the connection is lost (hidden while it is up). */
  function offlineOverlay() {
    const overlay = document.createElement("div");
    overlay.id = "offline";
    overlay.className = "offline";
    overlay.hidden = true;
    overlay.setAttribute("role", "alert");
    const box = document.createElement("div");
    const title = document.createElement("p");
    title.className = "offline-title";
    const note = document.createElement("p");
    note.className = "offline-note";
    box.append(title, note);
    overlay.append(box);
    document.body.append(overlay);
    return overlay;
  }

  /** The language chooser: the page reloads in the chosen language (kept in its address). */
  function languageChooser() {
    const select = document.getElementById("language");
    if (!select) return;
    select.addEventListener("change", () => {
      const query = new URLSearchParams(location.search);
      query.set("lang", select.value);
      location.search = query.toString();
    });
  }
  languageChooser();

  // -- board -------------------------------------------------------------------------------

  const FILES = "abcdefgh";
  const other = (side) => (side === "white" ? "black" : "white");
  // Text presentation selector: keeps phones from drawing the pawn as an emoji.
  const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

  /** FEN placement → {"e4": "P", ...}: reading the picture, not judging the moves. */
  function placement(fen) {
    const pieces = {};
    const rows = fen.split(" ")[0].split("/");
    rows.forEach((row, index) => {
      const rank = 8 - index;
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) { file += Number(ch); continue; }
        pieces[FILES[file] + rank] = ch;
        file += 1;
      }
    });
    return pieces;
  }

  function pieceName(letter) {
    const colour = letter === letter.toUpperCase() ? "white" : "black";
    return t(`web.piece.${colour}.${letter.toLowerCase()}`);
  }

  /** 64 buttons in a grid, seen from `bottom`'s side; arrow keys move between them. */
  function createBoard(container, bottom) {
    container.replaceChildren();
    const squares = {};
    const ranks = bottom === "white" ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
    const files = bottom === "white" ? [...FILES] : [...FILES].reverse();
    for (const rank of ranks) {
      for (const file of files) {
        const name = file + rank;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "square " + ((FILES.indexOf(file) + rank) % 2 ? "dark" : "light");
        button.dataset.square = name;
        button.tabIndex = -1;
        const piece = document.createElement("span");
        piece.className = "piece";
        piece.setAttribute("aria-hidden", "true");
        button.append(piece);
        if (file === files[0] || rank === ranks[7]) {
          const coord = document.createElement("span");
          coord.className = "coord";
          coord.setAttribute("aria-hidden", "true");
          coord.textContent = (rank === ranks[7] ? file : "") + (file === files[0] ? rank : "");
          button.append(coord);
        }
        squares[name] = button;
        container.append(button);
      }
    }
    squares[bottom === "white" ? "e2" : "e7"].tabIndex = 0;
    container.addEventListener("keydown", (event) => {
      const square = event.target.closest(".square");
      if (!square) return;
      const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      const step = steps[event.key];
      if (!step) return;
      event.preventDefault();
      const order = [...container.children];
      const index = order.indexOf(square);
      const rtl = getComputedStyle(container).direction === "rtl";
      const column = (index % 8) + step[0] * (rtl ? -1 : 1);
      const row = Math.floor(index / 8) + step[1];
      if (column < 0 || column > 7 || row < 0 || row > 7) return;
      focusSquare(squares, order[row * 8 + column].dataset.square);
    });
    return squares;
  }

  function focusSquare(squares, name) {
    for (const button of Object.values(squares)) button.tabIndex = -1;
    squares[name].tabIndex = 0;
    squares[name].focus();
  }

  /** Draw the position; `marks` maps a CSS class to the squares that carry it. */
  function renderBoard(squares, fen, marks = {}) {
    const pieces = placement(fen);
    for (const [name, button] of Object.entries(squares)) {
      const letter = pieces[name];
      const glyph = button.querySelector(".piece");
      glyph.textContent = letter ? GLYPH[letter.toLowerCase()] + "\uFE0E" : "";
      glyph.className = "piece" + (letter ? (letter === letter.toUpperCase() ? " w" : " b") : "");
      const classes = [];
      for (const [cls, names] of Object.entries(marks)) {
        button.classList.toggle(cls, names.includes(name));
        if (names.includes(name)) classes.push(cls);
      }
      const what = letter ? pieceName(letter) : t("web.square.empty");
      const notes = classes.map((cls) => t(`web.square.${cls}`)).join(", ");
      button.setAttribute("aria-label", t("web.square.label", { square: name, piece: what })
        + (notes ? `, ${notes}` : ""));
    }
    return pieces;
  }

  // -- clocks ------------------------------------------------------------------------------

  function formatClock(ms) {
    const negative = ms < 0;
    const total = Math.max(0, ms);
    const tenths = Math.floor(total / 100) % 10;
    const seconds = Math.floor(total / 1000);
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    const two = (n) => String(n).padStart(2, "0");
    let text = h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
    if (seconds < 10) text += `.${tenths}`;
    return negative ? `-${text}` : text;
  }

  /** Game time for the log: whole seconds, hours only when needed. */
  function formatElapsed(ms) {
    const seconds = Math.floor(Math.max(0, ms) / 1000);
    const two = (n) => String(n).padStart(2, "0");
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    return h > 0 ? `${h}:${two(m)}:${two(seconds % 60)}` : `${m}:${two(seconds % 60)}`;
  }

  /**
   * The two clocks, ticking on the page between server snapshots. Each snapshot carries the
   * readings at the moment it was sent; the running side is counted down from the moment it
   * arrived, and the next snapshot corrects any drift.
   */
  function createClocks(elements) {
    let reading = null;
    let received = 0;
    let frozenAt = null;  // while the connection is lost: the moment it was lost
    document.addEventListener("vc-connection", (event) => {
      frozenAt = event.detail.up ? null : performance.now();
      draw();
    });

    function draw() {
      if (!reading) return;
      const now = frozenAt ?? performance.now();
      for (const side of ["white", "black"]) {
        let ms = reading[`${side}_ms`];
        const running = reading.running === side && !reading.paused && frozenAt === null;
        if (running) ms -= Math.max(0, now - received - (reading.delay_ms || 0));
        const box = elements[side];
        box.querySelector(".clock-time").textContent = formatClock(Math.max(0, ms));
        box.dataset.ms = String(Math.max(0, Math.round(ms)));
        box.classList.toggle("running", running);
        box.classList.toggle("paused", Boolean(reading.paused) || frozenAt !== null);
        box.classList.toggle("low", ms < 60000);
      }
    }

    setInterval(draw, 100);
    return {
      update(clock) { reading = clock; received = performance.now(); draw(); },
    };
  }

  function clockLabel(element, side, view) {
    let who = t("web.player.blind");
    if (side !== view.blind) {
      who = view.role === "opponent" ? t("web.player.you") : t("web.player.sighted");
    }
    element.querySelector(".clock-name").textContent =
      t("web.clock.label", { side: t(`web.side.${side}`), who });
    element.setAttribute("aria-label", t("web.clock.label", { side: t(`web.side.${side}`), who }));
  }

  // -- move list and banners -----------------------------------------------------------------

  function renderMoves(list, view) {
    list.replaceChildren();
    let item = null;
    for (const move of view.moves) {
      if (move.by === "white" || item === null) {
        item = document.createElement("li");
        item.value = Math.floor((move.ply - 1) / 2) + 1;
        list.append(item);
        if (move.by === "black") {
          const gap = document.createElement("span");
          gap.className = "half";
          gap.textContent = "\u2026";
          item.append(gap);
        }
      }
      const half = document.createElement("span");
      half.dir = "ltr";  // SAN reads left to right on every page ("O-O+", not "+O-O")
      half.className = "half" + (move.by === view.blind ? " blind" : "");
      half.textContent = move.san;
      if (move.spoken) half.title = move.spoken;
      item.append(half, " ");
    }
    list.scrollTop = list.scrollHeight;
  }

  /** A tournament board whose set-up the arbiter has not approved: nothing can happen yet. */
  function awaitingApproval(view) {
    return Boolean(view.approval && !view.approval.approved);
  }

  /** Game over, not started, paused, draw offer: one line above the board, read out when it
   * changes. */
  function renderBanner(element, view) {
    let text = "";
    let cls = "";
    if (view.result) {
      text = t("web.banner.result", { result: view.result.result, reason: view.result.text });
      cls = "result";
    } else if (awaitingApproval(view)) {
      text = t("web.banner.awaiting_approval");
      cls = "paused";
    } else if (view.clock.paused) {
      text = t("web.banner.paused");
      cls = "paused";
    } else if (view.draw_offer) {
      text = t("web.banner.offer", { side: t(`web.side.${view.draw_offer}`) });
      cls = "offer";
    }
    element.textContent = text;
    element.className = "banner " + cls;
    element.hidden = !text;
  }

  /** The blind player's last move stays marked until they move again; the other one too;
   * the king in check and the squares of the blind player's said, not yet made move. */
  function lastMoveMarks(view) {
    const marks = { "last": [], "last-blind": [] };
    const squares = (move) => [move.uci.slice(0, 2), move.uci.slice(2, 4)];
    const blind = view.moves.filter((move) => move.by === view.blind).pop();
    const last = view.moves[view.moves.length - 1];
    if (blind) marks["last-blind"] = squares(blind);
    if (last && last.by !== view.blind) marks.last = squares(last);
    marks.check = view.check ? [view.check] : [];
    marks.pending = view.pending ? view.pending.squares : [];
    return marks;
  }

  /** The blind player's move that is said but not made yet, in the page's language. */
  function renderPending(element, view) {
    if (!element) return;
    element.textContent = view.pending ? view.pending.text : "";
    element.hidden = !view.pending;
  }

  /** Board (White at the bottom), clocks, moves and banner of a page that only looks on. */
  function createOnlookerView() {
    const boardElement = document.getElementById("board");
    boardElement.classList.add("readonly");
    const squares = createBoard(boardElement, "white");
    const top = document.getElementById("clock-top");
    const bottom = document.getElementById("clock-bottom");
    const clocks = createClocks({ white: bottom, black: top });
    return (view) => {
      renderBoard(squares, view.fen, lastMoveMarks(view));
      clockLabel(bottom, "white", view);
      clockLabel(top, "black", view);
      clocks.update(view.clock);
      renderMoves(document.getElementById("moves"), view);
      renderBanner(document.getElementById("banner"), view);
      renderPending(document.getElementById("pending"), view);
      document.body.dataset.ply = String(view.ply);
    };
  }

  return {
    t, connect, createOnlookerView, other, placement, pieceName, createBoard, renderBoard,
    focusSquare, formatClock, formatElapsed, createClocks, clockLabel, renderMoves, renderBanner,
    lastMoveMarks, renderPending, awaitingApproval, online: false,
  };
})();

// The sighted player's board: click a piece then its square (or drag it), and the move goes to
// the game. The page refuses at once what the server's list of legal moves does not contain,
// saying why; the server, which asks the session, stays the authority.
"use strict";

(() => {
  const { t } = VC;
  const status = document.getElementById("status");
  const notice = document.getElementById("notice");
  const largeText = document.getElementById("large-text");
  const largeToggle = document.getElementById("large-text-toggle");
  const promotion = document.getElementById("promotion");
  const confirmResign = document.getElementById("confirm-resign");
  const buttons = {
    offer: document.getElementById("offer-draw"),
    accept: document.getElementById("accept-draw"),
    decline: document.getElementById("decline-draw"),
    resign: document.getElementById("resign"),
    arbiter: document.getElementById("call-arbiter"),
    flag: document.getElementById("claim-flag"),
    claim: document.getElementById("claim-with-move"),
  };
  const clockTop = document.getElementById("clock-top");
  const clockBottom = document.getElementById("clock-bottom");

  let view = null;
  let squares = null;
  let pieces = {};
  let selected = null;
  let pendingPromotion = null;
  let largeTextChosen = null;  // the player's own choice overrides the setting
  let clocks = null;
  let claiming = false;  // the next move goes as a draw claim with that move (9.2.1.1, 9.3.1.1)

  function say(text, isError = false) {
    status.textContent = text;
    status.classList.toggle("error", isError);
  }

  function mine(letter) {
    if (!letter || !view) return false;
    return (letter === letter.toUpperCase()) === (view.me === "white");
  }

  function legalFrom(square) {
    return view.legal.filter((uci) => uci.startsWith(square));
  }

  /** Castling is also made by moving the king onto its own rook (as on Lichess): the rook's
   * square stands for the king's castling move towards it. */
  function castlingOnto(from, to) {
    const king = pieces[from];
    const rook = pieces[to];
    if (!king || !rook || king.toLowerCase() !== "k" || rook.toLowerCase() !== "r") return null;
    if (!mine(king) || !mine(rook) || from[1] !== to[1]) return null;
    const towards = Math.sign(to.charCodeAt(0) - from.charCodeAt(0));
    return legalFrom(from).find((uci) => uci[3] === from[1]
      && uci.charCodeAt(2) - from.charCodeAt(0) === 2 * towards) || null;
  }

  function targets(from) {
    const squaresTo = legalFrom(from).map((uci) => uci.slice(2, 4));
    for (const [name, letter] of Object.entries(pieces)) {
      if (letter.toLowerCase() === "r" && castlingOnto(from, name)) squaresTo.push(name);
    }
    return squaresTo;
  }

  function redraw() {
    const marks = VC.lastMoveMarks(view);
    marks.selected = selected ? [selected] : [];
    marks.target = selected ? targets(selected) : [];
    pieces = VC.renderBoard(squares, view.fen, marks);
  }

  /** Why the page will not send a move: the first reason that applies. */
  function blocked() {
    if (!VC.online) return t("web.connection.down");
    if (view.result) return t("web.refuse.game_over");
    if (VC.awaitingApproval(view)) return t("web.banner.awaiting_approval");
    if (view.clock.paused) return t("web.refuse.paused");
    if (view.turn !== view.me) return t("web.refuse.not_your_turn");
    return null;
  }

  function select(square) {
    selected = square;
    redraw();
  }

  function tap(square) {
    if (!view) return;
    const reason = blocked();
    if (reason) { say(reason, true); select(null); return; }
    if (selected === square) { select(null); return; }
    if (selected && castlingOnto(selected, square)) { attempt(selected, square); return; }
    if (mine(pieces[square])) {
      say("");
      select(square);
      return;
    }
    if (selected) { attempt(selected, square); return; }
    say(t("web.refuse.not_your_piece", { square }), true);
  }

  function attempt(from, to) {
    const reason = blocked();
    if (reason) { say(reason, true); select(null); return; }
    const castling = castlingOnto(from, to);
    const matches = castling ? [castling]
      : view.legal.filter((uci) => uci.slice(0, 4) === from + to);
    const piece = VC.pieceName(pieces[from] || "P");
    if (matches.length === 0) {
      // In check the check is the reason, even for a piece that could move otherwise.
      const exposing = (view.self_check || []).some((uci) => uci.slice(0, 4) === from + to);
      let key = "web.refuse.illegal";
      if (view.in_check) key = "web.refuse.in_check";
      else if (exposing) key = "web.refuse.into_check";
      else if (legalFrom(from).length === 0) key = "web.refuse.no_moves";
      say(t(key, { piece, from, to }), true);
      select(null);
      return;
    }
    if (matches.length > 1) {
      openPromotion(from + to);
      return;
    }
    send(matches[0]);
  }

  function send(uci) {
    select(null);
    const move = (view.legal_san || {})[uci] || uci;
    if (claiming && !(view.claim_moves || []).includes(uci)) {
      // A wrong claim makes the move and costs time (9.5.3): a slip of the hand must not.
      say(t("web.claim.not_this_move"), true);
      return;
    }
    if (claiming) {  // the intended move is declared with the claim, not made (9.2.1.1)
      claiming = false;
      renderButtons();
      if (act({ type: "draw", action: "claim", uci, ply: view.ply })) {
        say(t("web.claim.sent", { move }));
      }
      return;
    }
    if (act({ type: "move", uci, ply: view.ply })) {
      say(t("web.move.sent", { move }));
    }
  }

  /** Send an action; an error still showing belongs to an earlier one and goes. */
  function act(message) {
    if (!connection.send(message)) {
      say(t("web.connection.down"), true);
      return false;
    }
    if (status.classList.contains("error")) say("");
    return true;
  }

  // -- promotion ----------------------------------------------------------------------------

  function openPromotion(fromTo) {
    pendingPromotion = fromTo;
    const white = view.me === "white";
    for (const choice of promotion.querySelectorAll("[data-piece]")) {
      const letter = white ? choice.dataset.piece.toUpperCase() : choice.dataset.piece;
      choice.textContent = { q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E" }[
        choice.dataset.piece] + "\uFE0E";
      choice.classList.toggle("w", white);
      choice.classList.toggle("b", !white);
      choice.setAttribute("aria-label", VC.pieceName(letter));
    }
    promotion.showModal();
  }

  promotion.addEventListener("click", (event) => {
    const choice = event.target.closest("[data-piece]");
    if (!choice || !pendingPromotion) return;
    promotion.close();
    send(pendingPromotion + choice.dataset.piece);
    pendingPromotion = null;
  });
  document.getElementById("promotion-cancel").addEventListener("click", () => {
    promotion.close();
    pendingPromotion = null;
    select(null);
  });

  // -- pointer: click-click and drag --------------------------------------------------------

  let dragFrom = null;
  let ghost = null;  // the dragged piece, under the pointer

  function moveGhost(event) {
    if (!ghost) return;
    ghost.style.left = `${event.clientX}px`;
    ghost.style.top = `${event.clientY}px`;
  }

  function dropGhost() {
    if (ghost) ghost.remove();
    ghost = null;
    for (const button of boardElement.querySelectorAll(".dragging")) {
      button.classList.remove("dragging");
    }
  }

  function squareAt(event) {
    const element = document.elementFromPoint(event.clientX, event.clientY);
    return element ? element.closest(".square[data-square]") : null;
  }

  const boardElement = document.getElementById("board");
  boardElement.addEventListener("pointerdown", (event) => {
    const square = event.target.closest(".square");
    if (!square || event.button !== 0) return;
    dragFrom = square.dataset.square;
    if (mine(pieces[dragFrom]) && !blocked()) {
      square.classList.add("dragging");
      const piece = square.querySelector(".piece");
      ghost = document.createElement("span");
      ghost.className = `drag-ghost ${piece.className}`;
      ghost.textContent = piece.textContent;
      ghost.style.fontSize = getComputedStyle(square).fontSize;
      ghost.setAttribute("aria-hidden", "true");
      document.body.append(ghost);
      moveGhost(event);
    }
  });
  document.addEventListener("pointermove", moveGhost);
  boardElement.addEventListener("pointerup", (event) => {
    if (dragFrom === null) return;
    const from = dragFrom;
    dragFrom = null;
    dropGhost();
    const target = squareAt(event);
    if (!target) return;
    const to = target.dataset.square;
    VC.focusSquare(squares, to);
    if (to === from) { tap(to); return; }
    if (mine(pieces[from])) { selected = from; attempt(from, to); return; }
    tap(to);
  });
  boardElement.addEventListener("pointercancel", () => { dragFrom = null; dropGhost(); });
  document.addEventListener("pointerup", () => { if (dragFrom === null) dropGhost(); });
  // Keyboard (Enter or Space on a focused square) arrives as a click without a pointer.
  boardElement.addEventListener("click", (event) => {
    const square = event.target.closest(".square");
    if (square && event.detail === 0) tap(square.dataset.square);
  });

  // -- buttons ------------------------------------------------------------------------------

  buttons.offer.addEventListener("click", () => act({ type: "draw", action: "offer" }));
  buttons.accept.addEventListener("click", () => act({ type: "draw", action: "accept" }));
  buttons.decline.addEventListener("click", () => act({ type: "draw", action: "decline" }));
  buttons.arbiter.addEventListener("click", () => act({ type: "call_arbiter" }));
  buttons.flag.addEventListener("click", () => act({ type: "flag_claim" }));
  buttons.claim.addEventListener("click", () => {
    claiming = !claiming;
    say(claiming ? t("web.claim.armed") : "");
    renderButtons();
  });
  buttons.resign.addEventListener("click", () => confirmResign.showModal());
  document.getElementById("resign-no").addEventListener("click", () => confirmResign.close());
  document.getElementById("resign-yes").addEventListener("click", () => {
    confirmResign.close();
    act({ type: "resign", confirmed: true });
  });
  largeToggle.addEventListener("change", () => {
    largeTextChosen = largeToggle.checked;
    renderLargeText();
  });

  function renderButtons() {
    const over = Boolean(view.result) || VC.awaitingApproval(view);  // nothing to do yet
    const offerFromBlind = view.draw_offer === view.blind;
    buttons.offer.hidden = offerFromBlind;
    buttons.offer.disabled = over || Boolean(view.draw_offer);
    buttons.accept.hidden = !offerFromBlind || over;
    buttons.decline.hidden = !offerFromBlind || over;
    buttons.resign.disabled = over;
    buttons.arbiter.disabled = over;
    buttons.flag.hidden = !view.flag_claim;  // 2001 B.6: the blind player's flag, unclaimed
    // Only where a move would make the claim right: the threefold repetition or the fiftieth
    // move it would complete (a claim without a move is the draw button's).
    const claimable = (view.claim_moves || []).length > 0 && blocked() === null;
    if (!claimable) claiming = false;
    buttons.claim.hidden = !claimable;
    buttons.claim.setAttribute("aria-pressed", String(claiming));
  }

  function renderLastBlind() {
    const move = view.last_blind;
    const box = document.getElementById("last-blind");
    box.querySelector(".san").textContent = move ? move.san : t("web.last_blind.none");
    box.querySelector(".spoken").textContent =
      move && move.spoken ? t("web.last_blind.spoken", { words: move.spoken }) : "";
  }

  function renderLargeText() {
    const on = largeTextChosen ?? Boolean(view && view.large_text);
    largeToggle.checked = on;
    largeText.hidden = !on;
    const move = view && view.last_blind;
    largeText.textContent = move
      ? t("web.large_text.move", { words: move.spoken || move.san, san: move.san }) : "";
  }

  // -- state from the server ----------------------------------------------------------------

  function onState(message) {
    const previous = view;
    view = message.view;
    if (!squares || !previous || previous.me !== view.me) {
      squares = VC.createBoard(boardElement, view.me);
      clocks = VC.createClocks({ [VC.other(view.me)]: clockTop, [view.me]: clockBottom });
      VC.clockLabel(clockTop, VC.other(view.me), view);
      VC.clockLabel(clockBottom, view.me, view);
    }
    if (previous && previous.ply !== view.ply) {
      selected = null;
      if (status.classList.contains("error")) say("");  // a move was made: the error is old
    }
    if (selected && !mine(VC.placement(view.fen)[selected])) selected = null;
    redraw();
    clocks.update(view.clock);
    VC.renderMoves(document.getElementById("moves"), view);
    VC.renderBanner(document.getElementById("banner"), view);
    renderButtons();
    renderLastBlind();
    VC.renderPending(document.getElementById("pending"), view);
    renderLargeText();
    document.body.dataset.ply = String(view.ply);
  }

  const connection = VC.connect("play", {
    state: onState,
    notice(message) {
      notice.textContent = message.text;
      if (message.kind === "refused") say(message.text, true);
    },
    error(message) { say(message.message, true); },
  });
})();

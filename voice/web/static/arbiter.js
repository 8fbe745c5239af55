// The arbiter's panel: every form becomes one arbiter message; the session applies it and logs
// it with its reason, and the new state comes back to every page. On a tournament board the
// panel first shows the set-up in words with a button that approves it (the terminal can too);
// until then the clocks stand still and the other controls are disabled.
"use strict";

(() => {
  const { t } = VC;
  const status = document.getElementById("status");
  const render = VC.createOnlookerView();
  const confirmDialog = document.getElementById("confirm");
  const undoButton = document.getElementById("undo");
  let view = null;
  let confirmed = null;
  let awaited = null;  // the log's length when an action was sent: its entry is the next one
  let undo = null;  // the message that takes the last clock change back, once it is done
  let offered = null;  // the undo waiting for its action's entry in the log

  document.getElementById("download-pgn").href = `/download/pgn${location.search}`;
  document.getElementById("download-journal").href = `/download/journal${location.search}`;

  function say(text, isError = false) {
    status.textContent = text;
    status.classList.toggle("error", isError);
  }

  function send(message, inverse = null) {
    if (!connection.send(message)) { say(t("web.connection.down"), true); return; }
    say(t("web.arbiter.sent"));
    awaited = view ? view.log.length : null;
    offered = inverse;
    undo = null;
    undoButton.hidden = true;
  }

  undoButton.addEventListener("click", () => {
    if (undo) send({ ...undo, reason: t("web.arbiter.undo") });
  });

  const sideName = (side) => (side ? t(`web.side.${side}`) : t("web.arbiter.both_sides"));

  /** A clock's reading on this panel now, in milliseconds. */
  function reading(side) {
    const clock = document.getElementById(side === "white" ? "clock-bottom" : "clock-top");
    return Number(clock.dataset.ms || 0);
  }

  function clockText(ms) {
    const sign = ms < 0 ? "\u2212" : "+";
    return sign + VC.formatElapsed(Math.abs(ms));
  }

  function ask(question, then) {
    document.getElementById("confirm-text").textContent = question;
    confirmed = then;
    confirmDialog.showModal();
  }
  document.getElementById("confirm-yes").addEventListener("click", () => {
    confirmDialog.close();
    if (confirmed) confirmed();
    confirmed = null;
  });
  document.getElementById("confirm-no").addEventListener("click", () => {
    confirmDialog.close();
    confirmed = null;
  });

  const setup = {
    card: document.getElementById("setup"),
    state: document.getElementById("setup-state"),
    approve: document.getElementById("approve-setup"),
    list: document.querySelector("#setup .setup-list"),
  };
  setup.approve.addEventListener("click", () => send({ type: "approve_setup" }));

  document.getElementById("pause").addEventListener("click", () => send({ type: "pause" }));
  document.getElementById("resume").addEventListener("click", () => send({ type: "resume" }));

  /** Wire a form: `build` turns its fields into a message; `question` asks before sending;
   * `takeBack` gives the message that undoes it (clock changes: 6.10 lets the arbiter correct
   * a clock again), offered once the action is done. */
  function form(id, build, question = null, takeBack = null) {
    const element = document.getElementById(id);
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(element, event.submitter);
      const message = build(data);
      const reason = String(data.get("reason") || "").trim();
      if (reason) message.reason = reason;
      // The undo is worked out when the action goes: a clock runs while the question is open.
      const go = () => send(message, takeBack ? takeBack(message) : null);
      if (question) ask(question(message), go);
      else go();
    });
  }

  form("form-add-time", (d) => ({
    type: "add_time", side: d.get("side"), seconds: Number(d.get("seconds")),
  }),
    (m) => t("web.arbiter.confirm_add_time",
      { side: sideName(m.side), change: clockText(m.seconds * 1000) }),
    (m) => ({ type: "add_time", side: m.side, seconds: -m.seconds }));
  form("form-set-time", (d) => ({
    type: "set_time",
    side: d.get("side"),
    seconds: Number(d.get("minutes")) * 60 + Number(d.get("seconds")),
  }),
    (m) => t("web.arbiter.confirm_set_time",
      { side: sideName(m.side), time: VC.formatElapsed(m.seconds * 1000) }),
    (m) => ({ type: "add_time", side: m.side, seconds: reading(m.side) / 1000 - m.seconds }));
  form("form-penalty", (d) => ({ type: d.get("type"), side: d.get("side") }),
    (m) => t(`web.arbiter.confirm_${m.type}`, { side: t(`web.side.${m.side}`) }),
    // Penalty time given by mistake is taken off again. A wrong claim is not offered: under
    // some editions of the Laws it also costs the claimant time (voice.rules.laws).
    (m) => (m.type === "penalty"
      ? { type: "add_time", side: m.side, seconds: -view.penalty_ms / 1000 } : null));
  form("form-increment", (d) => ({ type: "increment", seconds: Number(d.get("seconds")) }),
    (m) => t("web.arbiter.confirm_increment", { seconds: m.seconds }));
  form("form-set-moves", (d) => {
    const message = { type: "set_moves", moves: Number(d.get("moves")) };
    if (d.get("side")) message.side = d.get("side");
    return message;
  },
    (m) => t("web.arbiter.confirm_set_moves", { side: sideName(m.side), moves: m.moves }),
    (m) => {
      const before = view.clock.moves;
      if (!m.side && before.white !== before.black) return null;
      return { type: "set_moves", moves: before[m.side || "white"], ...(m.side && { side: m.side }) };
    });
  form("form-retract", (d) => ({ type: "retract", ply: Number(d.get("ply")) }),
    (m) => t("web.arbiter.confirm_retract", { position: positionName(m.ply) }));
  form("form-illegal", (d) => {
    const message = { type: "illegal_move", side: d.get("side"), kind: d.get("kind") };
    if (d.get("ply") !== "") message.ply = Number(d.get("ply"));
    return message;
  },
    (m) => {
      const question = t("web.arbiter.confirm_illegal", { side: t(`web.side.${m.side}`) });
      // Two hands (7.5.4) or the clock without a move (7.5.3): the question names which.
      return m.kind === "move" ? question : `${t(`web.arbiter.kind.${m.kind}`)}. ${question}`;
    });
  form("form-result", (d) => ({ type: "declare_result", result: d.get("result") }),
    (m) => t("web.arbiter.confirm_result", { result: m.result.replace("1/2", "\u00bd") }));

  /** A position as the arbiter names it: the start, or after a move ("after 17. Nf3"). */
  function positionName(ply) {
    const move = view.moves.find((each) => each.ply === ply);
    if (!move) return t("web.arbiter.retract_start");
    const number = Math.floor((move.ply - 1) / 2) + 1;
    return t("web.arbiter.retract_after", {
      number, dots: move.by === "white" ? "." : "\u2026", san: move.san,
    });
  }

  /** The positions the game can be taken back to: the start, or after any move made. */
  function positionOptions(select, first, fallback) {
    const chosen = select.value;
    select.replaceChildren(...first);
    select.append(new Option(t("web.arbiter.retract_start"), "0"));
    for (const move of view.moves) {
      select.append(new Option(positionName(move.ply), String(move.ply)));
    }
    const values = [...select.options].map((option) => option.value);
    select.value = values.includes(chosen) ? chosen : fallback;
  }

  /** What the Laws in force count as a completed illegal move (2001: the move itself only):
   * the other kinds are not offered, and with one kind there is nothing to choose. */
  function renderKinds() {
    const kinds = view.illegal_kinds || ["move"];
    const select = document.getElementById("illegal-kind");
    for (const option of select.options) {
      option.disabled = option.hidden = !kinds.includes(option.value);
    }
    if (!kinds.includes(select.value)) select.value = "move";
    document.getElementById("illegal-kind-label").hidden = kinds.length < 2;
  }

  function renderRetract() {
    positionOptions(document.getElementById("retract-ply"), [], String(Math.max(0, view.ply - 1)));
    positionOptions(document.getElementById("illegal-ply"),
      [new Option(t("web.arbiter.reinstate_none"), "")], "");
  }

  /** The event log, newest first: what just happened is the first line. */
  function renderLog() {
    const list = document.getElementById("log");
    list.replaceChildren();
    for (const entry of [...view.log].reverse()) {
      const item = document.createElement("li");
      item.textContent = `${VC.formatElapsed(entry.t_ms)}  ${entry.text}`;
      item.classList.toggle("refused", entry.kind.startsWith("refused:"));
      list.append(item);
    }
    list.scrollTop = 0;
  }

  /** The action sent last is in the log: say what was done (or not), offer its undo. */
  function reportDone() {
    if (awaited === null || view.log.length <= awaited) return;
    const entry = view.log[awaited];
    awaited = null;
    const refused = entry.kind.startsWith("refused:");
    say(refused ? entry.text : t("web.arbiter.done", { entry: entry.text }), refused);
    undo = refused ? null : offered;
    offered = null;
    undoButton.hidden = !undo;
  }

  /** The set-up to approve, or how it was approved; nothing on a board without one. */
  function renderSetup() {
    const approval = view.approval;
    setup.card.hidden = !approval;
    if (!approval) return;
    document.getElementById("setup-control").textContent = approval.control;
    document.getElementById("setup-blind").textContent = t(`web.side.${approval.blind}`);
    document.getElementById("setup-ranks").textContent = approval.ranks.join(", ");
    document.getElementById("setup-files").textContent = approval.files.join(", ");
    const rules = document.getElementById("setup-rules");
    rules.textContent = approval.rules;
    rules.hidden = approval.approved;
    const hadFocus = document.activeElement === setup.approve;
    setup.approve.hidden = approval.approved;
    setup.list.hidden = approval.approved;  // approved: one line stays, the log has the rest
    setup.state.textContent = approval.approved
      ? t(`web.setup.approved_${approval.via}`) : t("web.setup.waiting");
    if (approval.approved && hadFocus) setup.state.focus();  // the button is gone
  }

  /** Per player: refused move attempts (logged, never penalised), completed illegal moves
   * (7.5.5: they add up to a loss) and incorrect claims (9.5.3). */
  function renderCounts() {
    const shown = { "attempts": "illegal_attempts", "illegal-moves": "illegal_moves",
      "wrong-claims": "wrong_claims" };
    for (const [id, key] of Object.entries(shown)) {
      const counts = view[key] || {};
      const blind = counts[view.blind] ?? 0;
      const sighted = counts[VC.other(view.blind)] ?? 0;
      const element = document.getElementById(id);
      element.textContent = t("web.arbiter.attempts", { blind, sighted });
      element.classList.toggle("counted", key !== "illegal_attempts" && blind + sighted > 0);
    }
  }

  const connection = VC.connect("arbiter", {
    state(message) {
      view = message.view;
      render(view);
      document.getElementById("laws").textContent = t("web.arbiter.laws", { edition: view.laws });
      const waiting = VC.awaitingApproval(view);
      document.getElementById("pause").disabled =
        waiting || view.clock.paused || Boolean(view.result);
      document.getElementById("resume").disabled =
        waiting || !view.clock.paused || Boolean(view.result);
      for (const button of document.querySelectorAll("form.arbiter button")) {
        button.disabled = waiting;
      }
      renderSetup();
      renderKinds();
      renderRetract();
      renderLog();
      reportDone();
      renderCounts();
    },
    notice(message) { say(message.text, message.kind === "refused"); },
    error(message) { say(message.message, true); },
  });
})();

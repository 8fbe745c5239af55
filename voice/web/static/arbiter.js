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
  let view = null;
  let confirmed = null;

  document.getElementById("download-pgn").href = `/download/pgn${location.search}`;
  document.getElementById("download-journal").href = `/download/journal${location.search}`;

  function say(text, isError = false) {
    status.textContent = text;
    status.classList.toggle("error", isError);
  }

  function send(message) {
    if (!connection.send(message)) { say(t("web.connection.down"), true); return; }
    say(t("web.arbiter.sent"));
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

  /** Wire a form: `build` turns its fields into a message; `question` asks before sending. */
  function form(id, build, question = null) {
    const element = document.getElementById(id);
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(element, event.submitter);
      const message = build(data);
      const reason = String(data.get("reason") || "").trim();
      if (reason) message.reason = reason;
      if (question) ask(question(message), () => send(message));
      else send(message);
    });
  }

  form("form-add-time", (d) => ({
    type: "add_time", side: d.get("side"), seconds: Number(d.get("seconds")),
  }));
  form("form-set-time", (d) => ({
    type: "set_time",
    side: d.get("side"),
    seconds: Number(d.get("minutes")) * 60 + Number(d.get("seconds")),
  }));
  form("form-penalty", (d) => ({ type: d.get("type"), side: d.get("side") }),
    (m) => t(`web.arbiter.confirm_${m.type}`, { side: t(`web.side.${m.side}`) }));
  form("form-increment", (d) => ({ type: "increment", seconds: Number(d.get("seconds")) }),
    (m) => t("web.arbiter.confirm_increment", { seconds: m.seconds }));
  form("form-set-moves", (d) => {
    const message = { type: "set_moves", moves: Number(d.get("moves")) };
    if (d.get("side")) message.side = d.get("side");
    return message;
  });
  form("form-retract", (d) => ({ type: "retract", ply: Number(d.get("ply")) }),
    (m) => t("web.arbiter.confirm_retract", { ply: m.ply }));
  form("form-illegal", (d) => {
    const message = { type: "illegal_move", side: d.get("side") };
    if (d.get("ply") !== "") message.ply = Number(d.get("ply"));
    return message;
  },
    (m) => t("web.arbiter.confirm_illegal", { side: t(`web.side.${m.side}`) }));
  form("form-result", (d) => ({ type: "declare_result", result: d.get("result") }),
    (m) => t("web.arbiter.confirm_result", { result: m.result }));

  /** The positions the game can be taken back to: the start, or after any move made. */
  function positionOptions(select, first, fallback) {
    const chosen = select.value;
    select.replaceChildren(...first);
    select.append(new Option(t("web.arbiter.retract_start"), "0"));
    for (const move of view.moves) {
      const number = Math.floor((move.ply - 1) / 2) + 1;
      const label = t("web.arbiter.retract_after", {
        number, dots: move.by === "white" ? "." : "\u2026", san: move.san,
      });
      select.append(new Option(label, String(move.ply)));
    }
    const values = [...select.options].map((option) => option.value);
    select.value = values.includes(chosen) ? chosen : fallback;
  }

  function renderRetract() {
    positionOptions(document.getElementById("retract-ply"), [], String(Math.max(0, view.ply - 1)));
    positionOptions(document.getElementById("illegal-ply"),
      [new Option(t("web.arbiter.reinstate_none"), "")], "");
  }

  function renderLog() {
    const list = document.getElementById("log");
    list.replaceChildren();
    for (const entry of view.log) {
      const item = document.createElement("li");
      item.textContent = `${VC.formatElapsed(entry.t_ms)}  ${entry.text}`;
      list.append(item);
    }
    list.scrollTop = list.scrollHeight;
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
    const hadFocus = document.activeElement === setup.approve;
    setup.approve.hidden = approval.approved;
    setup.list.hidden = approval.approved;  // approved: one line stays, the log has the rest
    setup.state.textContent = approval.approved
      ? t(`web.setup.approved_${approval.via}`) : t("web.setup.waiting");
    if (approval.approved && hadFocus) setup.state.focus();  // the button is gone
  }

  function renderAttempts() {
    const counts = view.illegal_attempts;
    document.getElementById("attempts").textContent = t("web.arbiter.attempts", {
      blind: counts[view.blind] ?? 0,
      sighted: counts[VC.other(view.blind)] ?? 0,
    });
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
      renderRetract();
      renderLog();
      renderAttempts();
    },
    notice(message) { say(message.text, message.kind === "refused"); },
    error(message) { say(message.message, true); },
  });
})();

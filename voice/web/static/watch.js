// The spectators' view: the board from White's side, both clocks, the moves. Read-only: the
// server accepts nothing from this page but a request for the state.
"use strict";

(() => {
  const render = VC.createOnlookerView();
  VC.connect("watch", { state: (message) => render(message.view) });
})();

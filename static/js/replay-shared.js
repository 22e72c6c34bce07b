// What both replay pages share (templates/games/replay.html for Ace in the Hole,
// replay_rhombus.html for Rhombus): stepping through the positions the server
// embedded (games/replays.py) with the buttons, the move list and the keys, and
// following a running game over its spectator socket (docs/protocol.md).
//
// A game's own script (replay.js, replay_rhombus.js) calls
// ReplayPage.start(root, steps, game) with what only it knows:
//   game.draw(step, steps)     draws one step (board, bars, labels);
//   game.publicStep(message)   turns a socket frame into a step, keeping only
//                              public fields, never a hand (R18, RH29);
//   game.appendMove(step, list) adds the step's button to the move list;
//   game.liveNote              the words shown while the socket is open.
// ReplayPage.sayWithAction(el, sentence, values, action) writes a sentence
// naming an action, the action kept apart as notation.
(function () {
  "use strict";

  function start(root, steps, game) {
    let current = steps.length - 1;

    // The move list scrolls in its own box: bring the current step into it, as
    // scrollIntoView({ block: "nearest" }) would, but without scrolling the page
    // (the page opens at the last step, and a phone shows the board first).
    function showInList(button) {
      const box = button.closest(".replay__moves");
      if (!box) return;
      const shown = box.getBoundingClientRect(), at = button.getBoundingClientRect();
      // Whole pixels, rounded outwards: a scroll position is whole, a row's edge need not be.
      if (at.top < shown.top) box.scrollTop -= Math.ceil(shown.top - at.top);
      else if (at.bottom > shown.bottom) box.scrollTop += Math.ceil(at.bottom - shown.bottom);
    }

    function markStep(index) {
      root.querySelectorAll("[data-step]").forEach((b) => {
        const on = Number(b.dataset.step) === index;
        b.classList.toggle("is-current", on);
        if (on) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); }
        if (on) showInList(b);
      });
    }

    function go(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      game.draw(steps[current], steps);
      markStep(steps[current].index);
      root.dataset.current = String(current);
    }

    root.addEventListener("click", (event) => {
      const target = event.target.closest("[data-go], [data-step]");
      if (!target) return;
      if (target.dataset.step !== undefined) { go(Number(target.dataset.step)); return; }
      go({ first: 0, prev: current - 1, next: current + 1, last: steps.length - 1 }[target.dataset.go]);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, textarea, select")) return;
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
      if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
    });

    // --- A running game, followed live -------------------------------------
    // The page holds the positions as of its loading; the socket then brings
    // each new ply.

    const socketPath = root.dataset.liveSocket;
    const liveNote = root.querySelector("[data-live-note]");
    const moveList = root.querySelector(".replay__list");
    let retries = 0;

    function follow(message) {
      if (message.game.status !== "running") {
        location.reload(); // over: the server now shows every hand and checks the seed (R19, RH30)
        return;
      }
      const last = steps.length - 1;
      if (message.ply <= last) return; // a presence change, or already shown
      if (message.ply > last + 1) {
        location.reload(); // missed plies (e.g. while reconnecting): load them all
        return;
      }
      const atEnd = current === last;
      steps.push(game.publicStep(message));
      game.appendMove(steps[steps.length - 1], moveList);
      go(atEnd ? steps.length - 1 : current); // keep up only if the viewer was at the latest step
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      const socket = new WebSocket(scheme + location.host + socketPath);
      socket.addEventListener("open", () => {
        retries = 0;
        if (liveNote) liveNote.textContent = game.liveNote;
        root.dataset.live = "on";
      });
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "sync" || message.type === "update") follow(message);
        else if (message.type === "beat" && (message.ply > steps.length - 1 || message.status !== "running")) {
          socket.send('{"type":"sync"}'); // behind the game (docs/protocol.md, "Staying in step")
        }
      });
      socket.addEventListener("close", (event) => {
        root.dataset.live = "off";
        if (event.code === 4404) return; // no such game
        if (liveNote) liveNote.textContent = gettext("Reconnecting…");
        setTimeout(connect, Math.min(10000, 500 * 2 ** retries++));
      });
    }

    go(current);
    if (socketPath && moveList) connect();
  }

  // SENTENCE (translated, with "%(action)s") said into EL, its action as
  // notation: kept apart from the words and never translated (issue 35).
  function sayWithAction(el, sentence, values, action) {
    const marker = "\u0000";
    const [before, after = ""] = interpolate(sentence, { ...values, action: marker }, true).split(marker);
    const notation = document.createElement("span");
    notation.className = "notation";
    notation.translate = false;
    notation.textContent = action;
    el.replaceChildren(before, notation, after);
  }

  window.ReplayPage = { start, sayWithAction };
})();

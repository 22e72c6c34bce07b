// A tournament's page, kept live: the socket says when the tournament changed
// (with its version); the page then fetches its live part again and swaps it
// in. A ping every 25 s is answered with the current version, so a page that
// missed a message (asleep, reconnecting) catches up by itself.
(function () {
  "use strict";

  const root = document.getElementById("tournament");
  if (!root) return;
  const live = document.getElementById("tournament-live");
  let socket = null;
  let retries = 0;
  let fetching = null;
  let again = false;
  const outbox = [];

  function shownVersion() {
    const state = live.querySelector("[data-version]");
    return state ? Number(state.dataset.version) : -1;
  }

  async function reload() {
    if (fetching) { again = true; return; }
    fetching = fetch(root.dataset.live + location.search, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } });
    try {
      const response = await fetching;
      if (response.ok) {
        live.innerHTML = await response.text();
        chatState();
      }
    } finally {
      fetching = null;
      if (again) { again = false; reload(); }
    }
  }

  // The chat box follows the live part: the organizer's switch, an entry or a withdrawal.
  function chatState() {
    const state = live.querySelector("[data-chat-writable]");
    if (state && window.AcewebChat) AcewebChat.setWritable("tournament", state.dataset.chatWritable === "1", state.dataset.chatWhy);
  }

  function catchUp(version) {
    if (typeof version === "number" && version > shownVersion()) reload();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.socket);
    socket.addEventListener("open", () => {
      retries = 0;
      root.dataset.state = "live";
      outbox.splice(0).forEach((frame) => socket.send(JSON.stringify(frame)));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (["version", "changed", "pong"].includes(message.type)) catchUp(message.version);
      if (message.type === "chatLine" || message.type === "chatRefused") AcewebChat.receive(Object.assign({ room: "tournament" }, message));
    });
    socket.addEventListener("close", () => {
      root.dataset.state = "reconnecting";
      setTimeout(connect, Math.min(10000, 500 * 2 ** retries++));
    });
  }

  // "next round at 14:05:00 UTC (in 1:23)": the time left, counted down each second.
  function countdown() {
    live.querySelectorAll("time[data-countdown]").forEach((time) => {
      const left = Math.max(0, Math.round((Date.parse(time.getAttribute("datetime")) - Date.now()) / 1000));
      let shown = time.nextElementSibling;
      if (!shown || !shown.classList.contains("countdown")) {
        shown = document.createElement("span");
        shown.className = "countdown";
        time.after(shown);
      }
      shown.textContent = ` (${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")})`;
    });
  }

  if (window.AcewebChat) {
    AcewebChat.attach((frame) => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
      else outbox.push(frame); // sent once the socket is (re)connected
    });
  }
  setInterval(countdown, 1000);
  countdown();
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 25000);
  connect();
})();

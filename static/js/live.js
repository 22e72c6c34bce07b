// Live games, TV and the home page's panel (docs/protocol.md, "The live-games
// socket"): the server sends whole lists ("list", "following") and the boards
// that changed ("boards"); this draws the small boards and keeps them and their clocks
// live. Plain JS; without it the page still lists the games with their links.
(function () {
  "use strict";

  const root = document.querySelector("[data-live]");
  if (!root) return;

  const GAMES = JSON.parse(document.getElementById("live-game-labels").textContent);
  const FILES_ACE = "abcdefgh";
  const FILES_RH = "abcde";
  const SUITS = { H: "\u2665", D: "\u2666", S: "\u2660", C: "\u2663" };
  const cards = new Map();  // game id -> the last card drawn
  let retries = 0;

  // --- Drawing ------------------------------------------------------------

  function square(dark, rhombus) {
    const cell = document.createElement("div");
    cell.className = "live-sq live-sq--" + (rhombus ? "rh-" : "") + (dark ? "dark" : "light");
    return cell;
  }

  function drawAce(el, board) {
    el.dataset.size = "8";
    el.replaceChildren();
    for (let rank = 8; rank >= 1; rank--) {
      for (let f = 0; f < 8; f++) {
        const cell = square((f + rank) % 2 === 1, false);
        const code = board[FILES_ACE[f] + rank];
        if (code) {
          const pawn = document.createElement("span");
          const suit = code.slice(-1);
          pawn.className = "live-pawn live-pawn--" + (suit === "H" || suit === "D" ? "red" : "black");
          pawn.textContent = code.slice(0, -1) + SUITS[suit];
          cell.append(pawn);
        }
        el.append(cell);
      }
    }
  }

  function drawRhombus(el, board) {
    el.dataset.size = "5";
    el.replaceChildren();
    for (let rank = 5; rank >= 1; rank--) {
      for (let f = 0; f < 5; f++) {
        const cell = square((f + 1 + rank) % 2 === 0, true);  // RH2: dark when file + rank is even
        const seat = board[FILES_RH[f] + rank];
        if (seat) {
          const piece = document.createElement("span");
          piece.className = "live-pawn live-pawn--" + seat;
          piece.textContent = seat;
          cell.append(piece);
        }
        el.append(cell);
      }
    }
  }

  function playerItem(player, tag, seatShown) {
    const li = document.createElement(tag || "li");
    li.className = "live-board__player";
    li.dataset.seat = player.seat;
    if (seatShown) {
      const seat = document.createElement("span");
      seat.className = "live-board__seat";
      seat.textContent = player.seat;
      li.append(seat, " ");
    }
    const link = document.createElement("a");
    link.href = "/@/" + encodeURIComponent(player.name) + "/";
    link.textContent = player.name;
    const rating = document.createElement("span");
    rating.className = "live-board__rating";
    rating.textContent = player.rating === null ? "" : String(player.rating);
    const clock = document.createElement("span");
    clock.className = "live-board__clock";
    clock.dataset.clock = "";
    li.append(link, " ", rating, " ", clock);
    return li;
  }

  // A team game (RH31): each team's seats together, "SW alice & NE carol vs
  // SE bob & NW dave", as templates/games/_live_board.html writes it.
  function teamItems(card) {
    const items = [];
    card.sides.forEach((side, i) => {
      if (i) {
        const versus = document.createElement("li");
        versus.className = "live-board__versus";
        versus.textContent = gettext("vs");
        items.push(versus);
      }
      const team = document.createElement("li");
      team.className = "live-board__team";
      team.dataset.side = side.join("+");
      card.players.filter((p) => side.includes(p.seat)).forEach((player, j) => {
        const item = playerItem(player, "span", true);
        if (j) {
          const and = document.createElement("span");
          and.className = "live-board__and";
          and.textContent = "&";
          item.prepend(and, " ");
        }
        team.append(item);
      });
      items.push(team);
    });
    return items;
  }

  function playerItems(card) {
    const teams = card.sides && card.sides.length < card.players.length;
    return teams ? teamItems(card) : card.players.map((p) => playerItem(p));
  }

  function article(card, big) {
    const el = document.createElement("article");
    el.className = "live-board" + (big ? " live-board--big" : "");
    el.dataset.game = String(card.id);
    const link = document.createElement("a");
    link.className = "live-board__link";
    link.href = card.url;
    link.title = gettext("Watch this game");
    const board = document.createElement("div");
    board.className = "live-board__board";
    board.dataset.board = "";
    board.setAttribute("aria-hidden", "true");
    link.append(board);
    const players = document.createElement("ul");
    players.className = "live-board__players";
    const meta = document.createElement("p");
    meta.className = "live-board__meta";
    const watch = document.createElement("a");
    watch.href = card.url;
    watch.textContent = gettext("Watch");
    meta.append((GAMES[card.game] || card.game) + " \u00b7 " + card.time_control + " \u00b7 ", watch);
    el.append(link, players, meta);
    fill(el, card);
    return el;
  }

  // A board's changing parts: the pieces, who is to move, the clocks.
  function fill(el, card) {
    el.dataset.kind = card.kind;
    el.dataset.players = String(card.players.length);
    el.dataset.ply = String(card.ply);
    el.dataset.status = card.status;
    const board = el.querySelector("[data-board]");
    if (card.kind === "rhombus") drawRhombus(board, card.board);
    else drawAce(board, card.board);
    const list = el.querySelector(".live-board__players");
    const seated = card.players.map((p) => `${p.seat} ${p.name}`).join(" ");
    if (list.dataset.seated !== seated) { // drawn by the server, or new players: drawn again
      list.replaceChildren(...playerItems(card));
      list.classList.toggle("live-board__players--teams", card.sides.length < card.players.length);
      list.dataset.seated = seated;
    }
    for (const item of list.querySelectorAll(".live-board__player")) {
      if (item.dataset.seat === card.to_move) item.dataset.toMove = "";
      else delete item.dataset.toMove;
    }
    const meta = el.querySelector('[data-label="game"]');
    if (meta) meta.textContent = GAMES[card.game] || card.game;
    cards.set(card.id, card);
    tick(el);
  }

  function clockText(ms) {
    const seconds = Math.max(0, Math.floor(ms / 1000));
    if (seconds >= 86400) return Math.floor(seconds / 86400) + "d";
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function tick(el) {
    const card = cards.get(Number(el.dataset.game));
    if (!card) return;
    const clock = card.clock;
    const started = clock.turn_started_at ? Date.parse(clock.turn_started_at) : null;
    for (const item of el.querySelectorAll(".live-board__player")) {
      let ms = clock.ms[item.dataset.seat];
      if (ms === undefined) continue;
      if (clock.running === item.dataset.seat && started !== null) ms -= Date.now() - started;
      item.querySelector("[data-clock]").textContent = clockText(ms);
    }
  }

  function showList(container, boards) {
    const big = container.hasAttribute("data-big");
    const old = new Map([...container.querySelectorAll("[data-game]")].map((el) => [el.dataset.game, el]));
    const next = boards.map((card) => {
      const el = old.get(String(card.id));
      if (!el) return article(card, big);
      fill(el, card);
      return el;
    });
    container.replaceChildren(...next);
    const empty = container.parentElement.querySelector("[data-empty], [data-following-empty]");
    if (empty) empty.hidden = boards.length > 0;
  }

  // --- The socket ---------------------------------------------------------

  function handle(message) {
    if (message.type === "list") {
      for (const container of root.querySelectorAll("[data-list]")) {
        if (container.dataset.list === message.list) showList(container, message.boards);
      }
      const total = root.querySelector("[data-total]");
      if (total && total.dataset.total === message.list) {
        total.textContent = interpolate(ngettext("%s game", "%s games", message.total),
                                        [message.total.toLocaleString()]);
      }
    } else if (message.type === "following") {
      const container = root.querySelector("[data-following]");
      if (container) showList(container, message.boards);
    } else if (message.type === "boards") {
      for (const card of message.boards) {
        const before = cards.get(card.id);
        if (before && before.ply > card.ply) continue;  // built before the one shown
        for (const el of root.querySelectorAll('[data-game="' + card.id + '"]')) fill(el, card);
      }
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + root.dataset.socket);
    socket.addEventListener("open", () => { retries = 0; root.dataset.state = "live"; });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      root.dataset.state = "connecting";
      setTimeout(connect, Math.min(10000, 500 * 2 ** retries++));
    });
  }

  setInterval(() => root.querySelectorAll("[data-game]").forEach(tick), 1000);
  connect();
})();

// The page of `tarot serve`: a form to sit down at a table, then the table as the server
// says the person's seat sees it: the seats around the felt in the game's direction of play,
// the trick in the middle with each card before its player, the hand fanned below. Every
// change goes through the server, which refuses what the seat may not do; the page only
// draws the JSON of `interpreter/web/view.py`, with the card faces of `cards.js`.
"use strict";

const $ = (id) => document.getElementById(id);

let current = null; // the last view of the table
let token = new URLSearchParams(location.search).get("token"); // the seat's secret, from its link
let views = 0; // how many views were drawn: a test waits on it (body's data-views)
let keepFocus = false; // the person acted from the hand or the choices: focus returns there

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") made.className = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "role") made.setAttribute(name, value);
    else made[name] = value;
  }
  for (const child of children) made.append(child);
  return made;
}

function showError(message) {
  const bar = $("error");
  bar.textContent = message || "";
  // a ruleset's problems: each with its line quoted and a caret under the place, kept in column
  bar.classList.toggle("listing", (message || "").includes("\n"));
  bar.hidden = !message;
}

async function ask(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function who(seat, view) {
  return seat === view.seat ? "you" : `seat ${seat}`;
}

// A table's address for this seat: its token, when the seat has one, in every request.
function seatUrl(path) {
  return token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
}

// A number as the server sends it: an integer, a decimal (45.5), or "p/q" for one with no
// finite decimal ("40/3"), shown as games write it: 13 1/3.
function amount(value) {
  if (typeof value === "string") {
    const [top, bottom] = value.split("/").map(BigInt);
    const sign = top < 0n ? "-" : "";
    const units = (top < 0n ? -top : top) / bottom;
    const part = `${(top < 0n ? -top : top) % bottom}/${bottom}`;
    return sign + (units ? `${units} ${part}` : part);
  }
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

function signed(value) {
  const positive = typeof value === "string" ? !value.startsWith("-") : value > 0;
  return positive ? `+${amount(value)}` : amount(value);
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// --- the setup form ---------------------------------------------------------------------

async function showSetup() {
  $("setup").hidden = false;
  const rulesets = await ask("GET", "/api/rulesets");
  const select = $("ruleset");
  for (const ruleset of rulesets) {
    select.append(element("option", { value: ruleset.name, textContent: `${ruleset.title} (${ruleset.name})` }));
  }
  select.value = (rulesets.find((ruleset) => ruleset.default) || rulesets[0]).name;
  select.addEventListener("change", () => chooseRuleset(select.value));
  $("upload").addEventListener("change", chooseFile);
  $("seat").addEventListener("change", friendChoices);
  await chooseRuleset(select.value);
  $("setup").addEventListener("submit", sitDown);
}

async function chooseRuleset(name) {
  const about = await ask("GET", `/api/rulesets/${encodeURIComponent(name)}`);
  seatChoices(about.players);
  friendChoices();
  const box = $("options");
  box.replaceChildren();
  for (const option of about.options) {
    if (option.readings.length < 2) continue;
    const choice = element("select", { name: option.name, "data-option": option.name });
    for (const reading of option.readings) {
      choice.append(element("option", {
        value: reading.name, textContent: reading.name.replaceAll("_", " "), title: reading.description,
        selected: reading.name === option.default,
      }));
    }
    const described = () => {
      const reading = option.readings.find((r) => r.name === choice.value);
      note.textContent = reading ? reading.description : "";
    };
    const note = element("small", { class: "reading" });
    choice.addEventListener("change", described);
    described();
    box.append(element("label", { class: "option" }, element("span", { textContent: option.description || option.name }), choice, note));
  }
  $("options-title").hidden = box.childElementCount === 0;
  $("setup").dataset.ruleset = name; // the seats and options now are this ruleset's (a test waits on it)
}

// A ruleset file of the person's own: its options and seats are its own, not the built-in's.
function chooseFile() {
  const file = $("upload").files[0];
  $("builtin").hidden = Boolean(file);
  $("file-note").hidden = !file;
  if (!file) chooseRuleset($("ruleset").value);
}

function seatChoices(players) {
  const seat = $("seat");
  seat.replaceChildren();
  for (let s = 0; s < players; s += 1) seat.append(element("option", { value: s, textContent: `seat ${s}` }));
}

// A box per seat but the person's own: ticked, a friend sits there (and gets a link).
function friendChoices() {
  const box = $("friends");
  box.replaceChildren();
  const mine = Number($("seat").value);
  for (const option of $("seat").options) {
    const seat = Number(option.value);
    if (seat === mine) continue;
    box.append(element("label", {}, element("input", { type: "checkbox", value: String(seat), "data-friend": String(seat) }), ` seat ${seat}`));
  }
}

async function sitDown(event) {
  event.preventDefault();
  showError("");
  const body = {
    seat: Number($("seat").value),
    agents: $("agents-text").value.trim() || $("agents").value,
    seed: $("seed").value.trim(),
    options: {},
    people: [...document.querySelectorAll("[data-friend]:checked")].map((box) => Number(box.value)),
  };
  const file = $("upload").files[0];
  if (file) {
    body.upload = { name: file.name, text: await file.text() };
  } else {
    body.ruleset = $("ruleset").value;
    for (const choice of document.querySelectorAll("[data-option]")) body.options[choice.dataset.option] = choice.value;
  }
  try {
    const view = await ask("POST", "/api/tables", body);
    const mine = (view.links || []).find((link) => link.seat === view.seat);
    if (mine) token = new URL(mine.path, location.origin).searchParams.get("token");
    history.pushState(null, "", mine ? mine.path : `/t/${view.table}`);
    $("setup").hidden = true;
    showLinks(view);
    keepFocus = true;
    await follow(view);
    goLive(view.table);
  } catch (error) {
    showError(error.message);
  }
}

// --- cards --------------------------------------------------------------------------------

function cardFace(card) {
  const face = element("span", { class: "card", title: card.label, "data-card": card.id, role: "img", "aria-label": card.label });
  face.append(window.cardSvg(card));
  return face;
}

function play(action) {
  showError("");
  ask("POST", seatUrl(`/api/tables/${current.table}/actions`), { seat: current.seat, action })
    .then(show)
    .catch((error) => {
      showError(error.message);
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
    });
}

function choose(action) {
  keepFocus = true;
  play(action);
}

// The hand, sorted as the server sends it, fanned in one row, or two on a narrow screen.
function drawHand(view) {
  const decision = view.decision;
  const clickable = Boolean(decision && decision.on_hand);
  const numbers = new Map(clickable ? decision.choices.map((c, n) => [c.text, { number: n + 1, cost: c.cost }]) : []);
  const hand = $("hand");
  hand.replaceChildren();
  $("hand-title").textContent = view.sitting_out.includes(view.seat)
    ? "You sit this hand out: no cards, nothing to decide"
    : `Your hand (${plural(view.hand.length, "card")})`;
  hand.setAttribute("aria-label", $("hand-title").textContent);
  const width = hand.clientWidth || 360;
  const cardWidth = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 64;
  const rows = view.hand.length * 22 + cardWidth > width && view.hand.length > 8 ? 2 : 1;
  const perRow = Math.ceil(view.hand.length / rows);
  for (let r = 0; r < rows; r += 1) {
    const cards = view.hand.slice(r * perRow, (r + 1) * perRow);
    const fan = element("div", { class: "fan" });
    const step = cards.length > 1 ? Math.min(cardWidth * 0.62, (width - cardWidth - 8) / (cards.length - 1)) : 0;
    fan.style.setProperty("--step", `${step - cardWidth}px`);
    cards.forEach((card, at) => {
      const face = choosable(cardFace(card), card, clickable, numbers);
      face.style.setProperty("--tilt", `${(at - (cards.length - 1) / 2) * (12 / Math.max(cards.length, 6))}deg`);
      fan.append(face);
    });
    hand.append(fan);
  }
  const piles = $("my-piles");
  piles.replaceChildren();
  const tops = view.pile_tops[view.seat] || [];
  if (tops.length) {
    piles.append(element("h3", { textContent: "Your piles, face up (yours to play)" }));
    const box = element("div", { class: "cards" });
    for (const card of tops) box.append(choosable(cardFace(card), card, clickable, numbers));
    piles.append(box);
  }
  const discards = $("discards");
  discards.replaceChildren();
  if (view.discards.length) {
    discards.append(element("h3", { textContent: "Your discards" }));
    const box = element("div", { class: "cards small" });
    for (const card of view.discards) box.append(cardFace(card));
    discards.append(box);
  }
}

// A card of the seat's own the person may click: raised and numbered when legal, dimmed when
// not (a dimmed card is still sent, and the server refuses it with its reason).
function choosable(face, card, clickable, numbers) {
  if (!clickable) return face;
  const choice = numbers.get(card.id);
  face.classList.add(choice ? "legal" : "dimmed");
  face.setAttribute("role", "button");
  if (choice) {
    face.tabIndex = 0;
    const cost = choice.cost ? `; ${choice.cost}` : "";
    face.setAttribute("aria-label", `${card.label}, choice ${choice.number}${cost}`);
    face.title = card.label + (choice.cost ? `\n${choice.cost}` : "");
    face.append(element("span", { class: "number", textContent: String(choice.number), "aria-hidden": "true" }));
    if (choice.cost) {
      face.classList.add("costly");
      face.append(element("span", { class: "cost", textContent: "\u00a4", "aria-hidden": "true" }));
    }
  } else {
    face.tabIndex = -1;
    face.setAttribute("aria-label", `${card.label}, not playable now`);
  }
  face.addEventListener("click", () => choose(card.id));
  face.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(card.id);
    }
  });
  return face;
}

function drawDecision(view) {
  const box = $("decision");
  box.replaceChildren();
  const decision = view.decision;
  if (view.over) return;
  if (!decision) {
    box.append(element("p", { class: "waiting", textContent: waitingText(view) }));
    return;
  }
  const kind = decision.kind.replaceAll("_", " ");
  const keys = decision.choices.length > 1 ? ` (or type its number)` : "";
  const what = decision.on_hand ? `click a card${keys}` : `choose${keys}`;
  box.append(element("h2", { textContent: `Your turn: ${kind} \u2014 ${what}` }));
  for (const line of decision.notes || []) box.append(element("p", { class: "note", textContent: line }));
  if (decision.on_hand) return;
  const buttons = element("div", { class: "choices" });
  decision.choices.forEach((choice, n) => {
    buttons.append(element("button", {
      type: "button", class: "choice", onclick: () => choose(choice.text), "data-action": choice.text,
      "aria-keyshortcuts": String(n + 1),
    }, element("span", { class: "number", textContent: String(n + 1), "aria-hidden": "true" }), ` ${choice.label}`));
  });
  box.append(buttons);
}

function waitingText(view) {
  const person = view.people.find((p) => p.seat === view.to_decide);
  if (person && !person.here) return `Waiting for seat ${view.to_decide}: nobody has opened its link yet`;
  return `Waiting for ${who(view.to_decide, view)}\u2026`;
}

// Whoever opened the table: a link for each friend's seat, to send them.
function showLinks(view) {
  const box = $("invite");
  const friends = (view.links || []).filter((link) => link.seat !== view.seat);
  box.hidden = friends.length === 0;
  const list = $("invite-links");
  list.replaceChildren(...friends.map((link) => {
    const url = new URL(link.path, location.origin).href;
    const field = element("input", { readOnly: true, value: url, "aria-label": `the link to seat ${link.seat}`, "data-link": String(link.seat) });
    const copy = element("button", { type: "button", textContent: "copy", onclick: () => { field.select(); navigator.clipboard?.writeText(url); } });
    return element("li", {}, element("span", { textContent: `seat ${link.seat}: ` }), field, copy);
  }));
}

// --- live: the table changes when another person plays -----------------------------------

let liveSocket = null;
let liveRetry = 1000;
let refreshing = null; // the view asked for after a change, while it is on its way
let refreshAgain = false;
let drawing = Promise.resolve(); // views are drawn one after the other, never two at once

function show(view) {
  drawing = drawing.then(() => follow(view)).catch((error) => showError(error.message));
  return drawing;
}

function goLive(tableId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}${seatUrl(`/api/tables/${tableId}/live`)}`);
  liveSocket = socket;
  socket.addEventListener("open", () => { document.body.dataset.live = "open"; liveRetry = 1000; });
  socket.addEventListener("message", (event) => {
    const told = JSON.parse(event.data);
    if (!current || told.by !== current.seat) refresh(tableId); // another seat's doing
  });
  socket.addEventListener("close", (event) => {
    document.body.dataset.live = "closed";
    if (event.code === 1008) { showError(event.reason || "this page may not follow the table"); return; }
    setTimeout(() => goLive(tableId), liveRetry); // the connection dropped: open it again
    liveRetry = Math.min(liveRetry * 2, 15000);
  });
}

function refresh(tableId) {
  if (refreshing) { refreshAgain = true; return; }
  refreshing = ask("GET", seatUrl(`/api/tables/${tableId}`))
    .then(show)
    .catch((error) => showError(error.message))
    .finally(() => {
      refreshing = null;
      if (refreshAgain) { refreshAgain = false; refresh(tableId); }
    });
}

// --- the felt: seats around it, the trick in the middle ------------------------------------

// Where a seat sits, as an angle from the bottom of the table (the person's own seat): the
// next seat in the order of play to the right when play passes anticlockwise, to the left
// when it passes clockwise.
function seatAngle(seat, view) {
  const players = view.ruleset.players;
  const turn = (2 * Math.PI * ((seat - view.seat + players) % players)) / players;
  return view.ruleset.direction === "clockwise" ? -turn : turn;
}

// A seat's plaque, or a card it played, placed on the felt towards the seat (the reach of
// each, across and down, is the style sheet's).
function placeAt(node, seat, view) {
  const angle = seatAngle(seat, view);
  node.style.setProperty("--sx", Math.sin(angle).toFixed(3));
  node.style.setProperty("--sy", Math.cos(angle).toFixed(3));
}

function drawSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < view.ruleset.players; s += 1) {
    const turn = view.to_decide === s && !view.over;
    const mine = s === view.seat;
    const name = mine ? `you (seat ${s})` : `seat ${s}`;
    const person = view.people.find((p) => p.seat === s);
    const player = person ? `a person, ${person.here ? "here" : "not here yet"}` : view.agents[s];
    const out = view.sitting_out.includes(s);
    const marks = [];
    if (view.dealer === s) marks.push("dealer");
    if (turn) marks.push(mine ? "your turn" : "to play");
    const plaque = element("div", {
      class: `seat${turn ? " turn" : ""}${mine ? " mine" : ""}${out ? " out" : ""}`, role: "group",
      "aria-label": [name, mine ? "" : player, cardCount(view, s), ...marks].filter(Boolean).join(", "),
      "data-seat": String(s),
    },
    element("strong", { textContent: name }),
    mine ? "" : element("span", { class: `player${person && !person.here ? " away" : ""}`, textContent: player }),
    element("span", { textContent: cardCount(view, s) }),
    element("span", { class: "money" }, element("span", { textContent: `hand ${signed(view.returns[s])}` }),
      " \u00b7 ", element("span", { textContent: `game ${signed(view.game.totals[s])}` })));
    if (view.dealer === s) plaque.prepend(element("span", { class: "chip", title: "the dealer", textContent: "D" }));
    if (turn) plaque.append(element("span", { class: "to-play", textContent: mine ? "your turn" : "to play" }));
    placeAt(plaque, s, view);
    box.append(plaque);
  }
}

function cardCount(view, seat) {
  if (view.sitting_out.includes(seat)) return "sits this hand out";
  const held = view.hand_sizes[seat];
  const tops = (view.pile_tops[seat] || []).length;
  return `${plural(held, "card")} in hand` + (tops ? ` + ${tops} face up` : "");
}

let shownInTrick = new Set(); // the cards of the trick on the felt already drawn (not animated again)

function drawTrick(box, plays, view, trickKey) {
  box.replaceChildren();
  const seen = box.dataset.trick === trickKey ? shownInTrick : new Set();
  box.dataset.trick = trickKey;
  for (const played of plays) {
    const face = cardFace(played.card);
    face.setAttribute("aria-label", `${who(played.seat, view)}: ${played.card.label}`);
    const spot = element("div", { class: "played" }, face);
    placeAt(spot, played.seat, view);
    if (!seen.has(played.card.id)) spot.classList.add("arrive");
    box.append(spot);
  }
  shownInTrick = new Set(plays.map((p) => p.card.id));
}

function drawLast(last, view) {
  const box = $("last-trick");
  box.replaceChildren();
  $("last").hidden = !last;
  if (!last) return;
  $("last-title").textContent = `Trick ${last.number}: ${who(last.winner, view)} won`;
  for (const played of last.plays) {
    box.append(element("figure", {}, cardFace(played.card), element("figcaption", { textContent: who(played.seat, view) })));
  }
}

// The felt: the trick being played, the last trick won, the talon while it lies turned up
// (until the first trick is won), and the face-up tops of the other seats' piles.
function drawBoard(view, title, plays, last, trickKey) {
  $("trick-title").textContent = title;
  drawTrick($("trick"), plays, view, trickKey);
  drawLast(last, view);
  const talon = $("talon");
  talon.replaceChildren();
  if (!last && !plays.length) {
    for (const shown of view.talon_up) {
      talon.append(...shownCards(`The talon, shown: ${who(shown.seat, view)} took it`, shown.cards));
    }
  }
  const piles = $("piles");
  piles.replaceChildren();
  view.pile_tops.forEach((tops, seat) => {
    if (seat === view.seat || !tops.length) return;
    piles.append(...shownCards(`Seat ${seat}'s piles, face up`, tops));
  });
}

// A heading and a row of small cards face up.
function shownCards(heading, cards) {
  const box = element("div", { class: "cards small" });
  for (const card of cards) box.append(cardFace(card));
  return [element("h3", { textContent: heading }), box];
}

// --- following the computer players' cards -------------------------------------------------
// A view arrives with every card the computer players played since the person's last move.
// Unless the pace is "at once", the board shows them one at a time, holding each finished
// trick a moment, before the whole view is drawn. A click on the board skips to the end.

const PACE_KEY = "tarot-pace";
const MOTION_KEY = "tarot-motion";
let skipping = false;
let followed = { table: null, hand: 0, plays: 0 }; // how far into the hand the board has shown

function pace() {
  const chosen = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(chosen) && localStorage.getItem(PACE_KEY) !== null ? chosen : 700;
}

function motion() {
  const chosen = localStorage.getItem(MOTION_KEY);
  if (chosen !== null) return chosen === "on";
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function playsOf(view) {
  const plays = [];
  for (const trick of view.tricks) {
    trick.plays.forEach((played, at) => plays.push({ ...played, trick, at, ends: at === trick.plays.length - 1 }));
  }
  const now = { number: view.trick_number, winner: null, plays: view.trick };
  view.trick.forEach((played, at) => plays.push({ ...played, trick: now, at, ends: false }));
  return plays;
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function follow(view) {
  const plays = playsOf(view);
  const same = followed.table === view.table && followed.hand === view.hand_number;
  const from = same ? Math.min(followed.plays, plays.length) : 0;
  followed = { table: view.table, hand: view.hand_number, plays: plays.length };
  const ms = pace();
  const computers = plays.slice(from).some((played) => played.seat !== view.seat);
  if (ms > 0 && computers) {
    render({ ...view, decision: null }); // all but the board (which follows the cards) and the choices
    skipping = false;
    document.body.dataset.following = "1";
    $("table").classList.add("following");
    $("decision").replaceChildren(element("p", { textContent: "The other players play\u2026 (click the table to see all at once)" }));
    for (let n = from; n < plays.length && !skipping; n += 1) {
      const played = plays[n];
      const trick = played.trick;
      const before = view.tricks.filter((t) => t.number < trick.number);
      const cards = trick.plays.slice(0, played.at + 1);
      const title = played.ends
        ? `Trick ${trick.number}: ${who(trick.winner, view)} ${trick.winner === view.seat ? "win" : "wins"}`
        : `Trick ${trick.number}, led by ${who(trick.plays[0].seat, view)}`;
      drawBoard(view, title, cards, before.length ? before[before.length - 1] : null, `${view.hand_number}:${trick.number}`);
      if (played.seat !== view.seat || played.ends) await pause(played.ends ? ms * 1.5 : ms);
    }
    $("table").classList.remove("following");
    delete document.body.dataset.following;
  }
  draw(view);
}

// --- the logs and the end of the hand --------------------------------------------------------

function drawLogs(view) {
  const news = $("news");
  news.replaceChildren();
  view.news.forEach((line, n) => news.append(element("li", { class: n >= view.news_from ? "new" : "", textContent: line })));
  news.scrollTop = news.scrollHeight;
  const body = $("payments").querySelector("tbody");
  body.replaceChildren();
  for (const p of view.payments) {
    body.append(element("tr", {},
      element("td", { textContent: p.at }),
      element("td", { textContent: `${who(p.payer, view)} \u2192 ${who(p.payee, view)}` }),
      element("td", { textContent: amount(p.amount) }),
      element("td", { textContent: p.name }),
      element("td", { textContent: p.source })));
  }
}

// The end of the hand: the score sheet the server built from the ruleset's settlement (what
// each seat made and paid, by rule; the terms the settlement read, with their values), and the
// running totals of the sitting.
function drawResult(view) {
  const sheet = view.sheet;
  const appears = Boolean(sheet) && $("result").hidden;
  $("result").hidden = !sheet;
  if (!sheet) return;
  if (appears) { // the hand has just ended: its sheet is what the person reads next
    const still = document.body.classList.contains("still");
    requestAnimationFrame(() => $("result").scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" }));
  }
  $("result-title").textContent = `Hand ${view.hand_number} is over`;
  const seats = Array.from({ length: view.ruleset.players }, (_, s) => who(s, view));
  $("result-summary").textContent = sheet.thrown_in
    ? `The deal is thrown in before play: ${sheet.thrown_in}. Nothing is paid.`
    : `Net this hand (${view.ruleset.unit}): ` + sheet.net.map((n, s) => `${seats[s]} ${signed(n)}`).join(", ");
  const head = (first) => element("tr", {}, element("th", { scope: "col", textContent: first }),
    ...seats.map((name) => element("th", { scope: "col", textContent: name })));
  const row = (label, values, show, kind = "") => element("tr", { class: kind },
    element("th", { scope: "row", textContent: label }),
    ...values.map((value) => element("td", { textContent: show(value) })));
  const bySeat = $("sheet-seats");
  bySeat.hidden = Boolean(sheet.thrown_in);
  bySeat.tHead.replaceChildren(head(""));
  const rows = [];
  if (sheet.card_points) rows.push(row("card points", sheet.card_points, amount));
  for (const paid of sheet.paid) rows.push(row(paid.rule, paid.net, signed));
  rows.push(row(`net (${view.ruleset.unit})`, sheet.net, signed, "net"));
  rows.push(row("game total", view.game.totals, signed, "total"));
  bySeat.tBodies[0].replaceChildren(...rows);
  const terms = $("sheet-terms");
  terms.hidden = sheet.terms.length === 0;
  terms.tBodies[0].replaceChildren(...sheet.terms.map((term) => {
    const value = term.per_seat ? term.per_seat.map((v, s) => `${seats[s]} ${v}`).join(", ") : term.value;
    const name = term.kind === "parameter" ? `${term.name} (rule value)` : term.name;
    return element("tr", { class: term.kind.replaceAll(" ", "-") },
      element("th", { scope: "row", textContent: name }),
      element("td", { textContent: value }),
      element("td", { class: "about", textContent: term.description }));
  }));
  const sitting = $("sitting");
  sitting.tHead.replaceChildren(head("hand"));
  const hands = view.sitting.map((net, n) => row(String(n + 1), net, signed));
  const totals = view.game.sitting_totals;  // added up exactly by the server
  sitting.tBodies[0].replaceChildren(...hands, row("total", totals, signed, "total"));
  $("game-over").textContent = view.game.winners.length
    ? `The game is over: ${view.game.winners.map((s) => who(s, view)).join(" and ")} won.` : "";
}

// --- drawing a view -------------------------------------------------------------------------

function draw(view) {
  render(view);
  views += 1;
  document.body.dataset.views = String(views);
  if (keepFocus) focusHand();
}

// After an action the focus returns to the hand (its first legal card, or the first choice,
// or the hand itself while others play), so that play goes on from the keyboard.
function focusHand() {
  if (document.activeElement && document.activeElement.closest("input, select, textarea")) return; // a setting being changed
  const target = document.querySelector("#hand .card.legal, #my-piles .card.legal, #decision button.choice, #result button:not([hidden])") || $("hand");
  target.focus({ preventScroll: true });
}

function render(view) {
  current = view;
  $("table").hidden = false;
  $("links").hidden = false;
  $("title").textContent = view.ruleset.title;
  $("rules-link").href = `/t/${view.table}/rules`;
  const record = $("record-link");
  record.href = `/api/tables/${view.table}/record`;
  record.hidden = view.game.hands_finished === 0;
  $("status").textContent = `Hand ${view.hand_number} \u00b7 you are seat ${view.seat} \u00b7 ` +
    `${who(view.dealer, view)} dealt \u00b7 play passes ${view.ruleset.direction} \u00b7 ` +
    `seed ${view.seed ?? "hidden (in the record)"} \u00b7 ${view.ruleset.unit}`;
  drawSeats(view);
  const led = view.trick.length ? `, led by ${who(view.leader, view)}` : `: ${who(view.leader, view)} to lead`;
  const title = view.trick_number < 1 || view.over ? "" : `Trick ${view.trick_number}${led}`;
  drawBoard(view, title, view.trick, view.last_trick, `${view.hand_number}:${view.trick_number}`);
  const lines = $("table-lines");
  lines.replaceChildren(...view.table_lines.map((line) => element("li", { textContent: line })));
  drawDecision(view);
  drawHand(view);
  drawResult(view);
  $("next-hand").hidden = !view.game.may_deal;
  drawLogs(view);
  $("announce").textContent = view.over ? `Hand ${view.hand_number} is over.`
    : view.decision ? `Your turn: ${view.decision.kind.replaceAll("_", " ")}.` : waitingText(view);
}

// --- the keyboard: the choices' numbers, as the terminal numbers them ------------------------

let typed = "";
let typedTimer = null;

function typedChoice() {
  clearTimeout(typedTimer);
  const wanted = typed;
  typed = "";
  $("typed").textContent = "";
  const decision = current && current.decision;
  if (!wanted || !decision || document.body.dataset.following) return;
  const n = Number(wanted);
  const count = decision.choices.length;
  if (n >= 1 && n <= count) choose(decision.choices[n - 1].text);
  else showError(`There is no choice [${wanted}]: choose 1 to ${count}.`);
}

function onKey(event) {
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const decision = current && current.decision;
  if (!decision) return;
  if (/^[0-9]$/.test(event.key)) {
    event.preventDefault();
    typed += event.key;
    $("typed").textContent = `choice ${typed}\u2026`;
    clearTimeout(typedTimer);
    // a number no longer one can follow is taken at once; else wait a moment for the next digit
    if (Number(typed) * 10 > decision.choices.length) typedChoice();
    else typedTimer = setTimeout(typedChoice, 900);
  } else if (event.key === "Enter" && typed) {
    event.preventDefault();
    typedChoice();
  }
}

async function start() {
  $("next-hand").addEventListener("click", () => {
    keepFocus = true;
    ask("POST", seatUrl(`/api/tables/${current.table}/next`)).then(show).catch((error) => showError(error.message));
  });
  const given = new URLSearchParams(location.search).get("pace");
  if (given !== null && given.trim() !== "" && Number(given) >= 0) localStorage.setItem(PACE_KEY, String(Number(given)));
  const choice = $("pace");
  choice.value = String(pace());
  if (choice.value === "") choice.append(element("option", { value: String(pace()), textContent: `${pace()} ms`, selected: true }));
  choice.addEventListener("change", () => localStorage.setItem(PACE_KEY, choice.value));
  const moving = $("motion");
  moving.checked = motion();
  document.body.classList.toggle("still", !moving.checked);
  moving.addEventListener("change", () => {
    localStorage.setItem(MOTION_KEY, moving.checked ? "on" : "off");
    document.body.classList.toggle("still", !moving.checked);
  });
  $("felt").addEventListener("click", () => { skipping = true; });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => { if (current) drawHand(current); });
  const opened = location.pathname.match(/^\/t\/([^/]+)$/);
  try {
    if (opened) {
      const view = await ask("GET", seatUrl(`/api/tables/${opened[1]}`));
      followed = { table: view.table, hand: view.hand_number, plays: playsOf(view).length };
      draw(view);
      goLive(view.table);
    }
    else await showSetup();
  } catch (error) {
    showError(error.message);
  }
}

window.addEventListener("popstate", () => location.reload());
start();

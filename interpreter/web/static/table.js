// The page of `tarot serve`: a form to sit down at a table, then the table as the server
// says the person's seat sees it. Every change goes through the server, which refuses what
// the seat may not do; the page only draws the JSON of `interpreter/web/view.py`.
"use strict";

const SYMBOLS = {
  spades: "\u2660", hearts: "\u2665", diamonds: "\u2666", clubs: "\u2663",
  swords: "\u2694", batons: "\u269a", cups: "\u222a", coins: "\u2299",
};
const RED = new Set(["hearts", "diamonds", "cups", "coins"]);
const $ = (id) => document.getElementById(id);

let current = null; // the last view of the table
let views = 0; // how many views were drawn: a test waits on it (body's data-views)

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") made.className = value;
    else if (name.startsWith("data-")) made.setAttribute(name, value);
    else made[name] = value;
  }
  for (const child of children) made.append(child);
  return made;
}

function showError(message) {
  const bar = $("error");
  bar.textContent = message || "";
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

function amount(value) {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

function signed(value) {
  return value > 0 ? `+${amount(value)}` : amount(value);
}

// --- the setup form ---------------------------------------------------------------------

async function showSetup() {
  $("setup").hidden = false;
  const rulesets = await ask("GET", "/api/rulesets");
  const select = $("ruleset");
  for (const ruleset of rulesets) {
    select.append(element("option", { value: ruleset.name, textContent: `${ruleset.name}: ${ruleset.title}` }));
  }
  select.value = rulesets[0].name;
  select.addEventListener("change", () => chooseRuleset(select.value));
  await chooseRuleset(select.value);
  $("setup").addEventListener("submit", sitDown);
}

async function chooseRuleset(name) {
  const about = await ask("GET", `/api/rulesets/${encodeURIComponent(name)}`);
  seatChoices(about.players);
  const box = $("options");
  box.replaceChildren();
  for (const option of about.options) {
    if (option.readings.length < 2) continue;
    const choice = element("select", { name: option.name, "data-option": option.name });
    for (const reading of option.readings) {
      choice.append(element("option", { value: reading, textContent: reading, selected: reading === option.default }));
    }
    box.append(element("label", { title: option.description }, option.name.replaceAll("_", " ") + " ", choice));
  }
  $("setup").dataset.ruleset = name; // the seats and options now are this ruleset's (a test waits on it)
}

function seatChoices(players) {
  const seat = $("seat");
  seat.replaceChildren();
  for (let s = 0; s < players; s += 1) seat.append(element("option", { value: s, textContent: `seat ${s}` }));
}

async function sitDown(event) {
  event.preventDefault();
  showError("");
  const body = {
    seat: Number($("seat").value),
    agents: $("agents-text").value.trim() || $("agents").value,
    seed: $("seed").value.trim(),
    options: {},
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
    history.pushState(null, "", `/t/${view.table}`);
    $("setup").hidden = true;
    await follow(view);
  } catch (error) {
    showError(error.message);
  }
}

// --- the table ----------------------------------------------------------------------------

function cardFace(card, view) {
  const symbol = card.suit ? SYMBOLS[card.suit] || card.suit.slice(0, 1).toUpperCase() : "";
  const kind = card.fool ? "fool" : card.trump !== null ? "trump" : RED.has(card.suit) ? "red" : "black";
  const face = element("span", { class: `card ${kind}`, title: card.label, "data-card": card.id });
  face.append(element("span", { class: "rank", textContent: card.fool ? "\u2605" : card.face }));
  face.append(element("span", { class: "suit", textContent: card.fool ? card.label : card.trump !== null ? "trump" : symbol }));
  return face;
}

function play(action) {
  showError("");
  ask("POST", `/api/tables/${current.table}/actions`, { seat: current.seat, action })
    .then(follow)
    .catch((error) => {
      showError(error.message);
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
    });
}

function drawHand(view) {
  const decision = view.decision;
  const clickable = Boolean(decision && decision.on_hand);
  const legal = new Set(clickable ? decision.choices.map((c) => c.text) : []);
  const hand = $("hand");
  hand.replaceChildren();
  $("hand-title").hidden = view.hand.length === 0;
  $("hand-title").textContent = `Your hand (${view.hand.length} ${view.hand.length === 1 ? "card" : "cards"})`;
  let row = null;
  let rowName = null;
  for (const card of view.hand) {
    if (row === null || card.row !== rowName) {
      rowName = card.row;
      row = element("div", { class: "row" });
      hand.append(row);
    }
    row.append(choosable(cardFace(card, view), card, clickable, legal));
  }
  const piles = $("my-piles");
  piles.replaceChildren();
  const tops = view.pile_tops[view.seat] || [];
  if (tops.length) {
    piles.append(element("h3", { textContent: "Your piles, face up (yours to play)" }));
    const box = element("div", { class: "cards" });
    for (const card of tops) box.append(choosable(cardFace(card, view), card, clickable, legal));
    piles.append(box);
  }
  const discards = $("discards");
  discards.replaceChildren();
  if (view.discards.length) {
    discards.append(element("h3", { textContent: "Your discards" }));
    const box = element("div", { class: "cards small" });
    for (const card of view.discards) box.append(cardFace(card, view));
    discards.append(box);
  }
}

// A card of the seat's own the person may click: raised when legal, dimmed when not (a
// dimmed card is still sent, and the server refuses it with its reason).
function choosable(face, card, clickable, legal) {
  if (!clickable) return face;
  face.classList.add(legal.has(card.id) ? "legal" : "dimmed");
  face.tabIndex = 0;
  face.setAttribute("role", "button");
  face.addEventListener("click", () => play(card.id));
  face.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") play(card.id);
  });
  return face;
}

function drawDecision(view) {
  const box = $("decision");
  box.replaceChildren();
  const decision = view.decision;
  if (view.over) return;
  if (!decision) {
    box.append(element("p", { textContent: `Waiting for ${who(view.to_decide, view)}\u2026` }));
    return;
  }
  const kind = decision.kind.replaceAll("_", " ");
  box.append(element("h2", { textContent: decision.on_hand ? `Your turn: ${kind} \u2014 click a card` : `Your turn: ${kind}` }));
  if (decision.on_hand) return;
  const buttons = element("div", { class: "choices" });
  for (const choice of decision.choices) {
    buttons.append(element("button", { type: "button", class: "choice", textContent: choice.label, onclick: () => play(choice.text), "data-action": choice.text }));
  }
  box.append(buttons);
}

function drawTrick(box, plays, view) {
  box.replaceChildren();
  for (const played of plays) {
    box.append(element("figure", {}, cardFace(played.card, view), element("figcaption", { textContent: who(played.seat, view) })));
  }
}

// The felt: the trick being played, the last trick won, the talon while it lies turned up
// (until the first trick is won), and the face-up tops of the other seats' piles.
function drawBoard(view, title, plays, last) {
  $("trick-title").textContent = title;
  drawTrick($("trick"), plays, view);
  $("last-title").textContent = last ? `Trick ${last.number}: ${who(last.winner, view)} won` : "";
  drawTrick($("last-trick"), last ? last.plays : [], view);
  const talon = $("talon");
  talon.replaceChildren();
  if (!last) {
    for (const shown of view.talon_up) {
      talon.append(...shownCards(`The talon, shown: ${who(shown.seat, view)} took it`, shown.cards, view));
    }
  }
  const piles = $("piles");
  piles.replaceChildren();
  view.pile_tops.forEach((tops, seat) => {
    if (seat === view.seat || !tops.length) return;
    piles.append(...shownCards(`Seat ${seat}'s piles, face up`, tops, view));
  });
}

// A heading and a row of small cards face up on the board.
function shownCards(heading, cards, view) {
  const box = element("div", { class: "cards small" });
  for (const card of cards) box.append(cardFace(card, view));
  return [element("h2", { textContent: heading }), box];
}

// --- following the computer players' cards -------------------------------------------------
// A view arrives with every card the computer players played since the person's last move.
// Unless the pace is "at once", the board shows them one at a time, holding each finished
// trick a moment, before the whole view is drawn. A click on the board skips to the end.

const PACE_KEY = "tarot-pace";
let skipping = false;
let followed = { table: null, hand: 0, plays: 0 }; // how far into the hand the board has shown

function pace() {
  const chosen = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(chosen) && localStorage.getItem(PACE_KEY) !== null ? chosen : 700;
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
    $("decision").replaceChildren(element("p", { textContent: "The computer players play\u2026 (click the table to see all at once)" }));
    for (let n = from; n < plays.length && !skipping; n += 1) {
      const played = plays[n];
      const trick = played.trick;
      const before = view.tricks.filter((t) => t.number < trick.number);
      const cards = trick.plays.slice(0, played.at + 1);
      const title = played.ends
        ? `Trick ${trick.number}: ${who(trick.winner, view)} ${trick.winner === view.seat ? "win" : "wins"}`
        : `Trick ${trick.number}, led by ${who(trick.plays[0].seat, view)}`;
      drawBoard(view, title, cards, before.length ? before[before.length - 1] : null);
      if (played.seat !== view.seat || played.ends) await pause(played.ends ? ms * 1.5 : ms);
    }
    $("table").classList.remove("following");
    delete document.body.dataset.following;
  }
  draw(view);
}

function drawSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < view.ruleset.players; s += 1) {
    const turn = view.to_decide === s ? " turn" : "";
    const mine = s === view.seat ? " mine" : "";
    box.append(element("div", { class: `seat${turn}${mine}` },
      element("strong", { textContent: s === view.seat ? `you (seat ${s})` : `seat ${s}: ${view.agents[s]}` }),
      element("span", { textContent: `${cardCount(view, s)}${view.dealer === s ? " \u00b7 dealer" : ""}` }),
      element("span", { textContent: `hand ${signed(view.returns[s])} \u00b7 game ${signed(view.game.totals[s])}` })));
  }
}

function cardCount(view, seat) {
  const held = view.hand_sizes[seat];
  const tops = (view.pile_tops[seat] || []).length;
  return `${held} ${held === 1 ? "card" : "cards"} in hand` + (tops ? ` + ${tops} face up` : "");
}

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

function draw(view) {
  render(view);
  views += 1;
  document.body.dataset.views = String(views);
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
    `${who(view.dealer, view)} dealt \u00b7 seed ${view.seed ?? "hidden (in the record)"} \u00b7 ` +
    `${view.ruleset.unit}`;
  drawSeats(view);
  const led = view.trick.length ? `, led by ${who(view.leader, view)}` : `: ${who(view.leader, view)} to lead`;
  const title = view.trick_number < 1 || view.over ? "The table" : `Trick ${view.trick_number}${led}`;
  drawBoard(view, title, view.trick, view.last_trick);
  const lines = $("table-lines");
  lines.replaceChildren(...view.table_lines.map((line) => element("li", { textContent: line })));
  drawDecision(view);
  drawHand(view);
  $("result").hidden = !view.over;
  $("result-lines").textContent = view.over ? resultText(view) : "";
  $("next-hand").hidden = !view.game.may_deal;
  drawLogs(view);
}

function resultText(view) {
  const lines = [...view.result];
  lines.push(`Game totals after ${view.game.hands_finished} hand(s): ` +
    view.game.totals.map((t, s) => `${who(s, view)} ${signed(t)}`).join(", "));
  if (view.game.winners.length) lines.push(`The game is over: ${view.game.winners.map((s) => who(s, view)).join(" and ")} won.`);
  return lines.join("\n");
}

async function start() {
  $("next-hand").addEventListener("click", () => {
    ask("POST", `/api/tables/${current.table}/next`).then(follow).catch((error) => showError(error.message));
  });
  const given = new URLSearchParams(location.search).get("pace");
  if (given !== null && given.trim() !== "" && Number(given) >= 0) localStorage.setItem(PACE_KEY, String(Number(given)));
  const choice = $("pace");
  choice.value = String(pace());
  if (choice.value === "") choice.append(element("option", { value: String(pace()), textContent: `${pace()} ms`, selected: true }));
  choice.addEventListener("change", () => localStorage.setItem(PACE_KEY, choice.value));
  $("board").addEventListener("click", () => { skipping = true; });
  const opened = location.pathname.match(/^\/t\/([^/]+)$/);
  try {
    if (opened) {
      const view = await ask("GET", `/api/tables/${opened[1]}`);
      followed = { table: view.table, hand: view.hand_number, plays: playsOf(view).length };
      draw(view);
    }
    else await showSetup();
  } catch (error) {
    showError(error.message);
  }
}

window.addEventListener("popstate", () => location.reload());
start();

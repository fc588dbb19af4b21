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
    draw(view);
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
    .then(draw)
    .catch((error) => {
      showError(error.message);
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
    });
}

function drawHand(view) {
  const decision = view.decision;
  const legal = new Set(decision && decision.on_hand ? decision.choices.map((c) => c.text) : []);
  const hand = $("hand");
  hand.replaceChildren();
  $("hand-title").hidden = view.hand.length === 0;
  let row = null;
  let rowName = null;
  for (const card of view.hand) {
    if (row === null || card.row !== rowName) {
      rowName = card.row;
      row = element("div", { class: "row" });
      hand.append(row);
    }
    const face = cardFace(card, view);
    if (decision && decision.on_hand) {
      face.classList.add(legal.has(card.id) ? "legal" : "dimmed");
      face.tabIndex = 0;
      face.setAttribute("role", "button");
      face.addEventListener("click", () => play(card.id)); // a dimmed card is refused by the server
    }
    row.append(face);
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

function drawSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  for (let s = 0; s < view.ruleset.players; s += 1) {
    const turn = view.to_decide === s ? " turn" : "";
    const mine = s === view.seat ? " mine" : "";
    box.append(element("div", { class: `seat${turn}${mine}` },
      element("strong", { textContent: s === view.seat ? `you (seat ${s})` : `seat ${s}: ${view.agents[s]}` }),
      element("span", { textContent: `${view.hand_sizes[s]} cards${view.dealer === s ? " \u00b7 dealer" : ""}` }),
      element("span", { textContent: `hand ${signed(view.returns[s])} \u00b7 game ${signed(view.game.totals[s])}` })));
  }
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
  current = view;
  views += 1;
  $("table").hidden = false;
  $("links").hidden = false;
  $("title").textContent = view.ruleset.title;
  $("rules-link").href = `/t/${view.table}/rules`;
  const record = $("record-link");
  record.href = `/api/tables/${view.table}/record`;
  record.hidden = view.game.hands_finished === 0;
  $("status").textContent = `Hand ${view.hand_number} \u00b7 you are seat ${view.seat} \u00b7 ` +
    `${who(view.dealer, view)} dealt \u00b7 seed ${view.seed} \u00b7 ${view.ruleset.unit}`;
  drawSeats(view);
  const led = view.trick.length ? `, led by ${who(view.leader, view)}` : `: ${who(view.leader, view)} to lead`;
  $("trick-title").textContent = view.trick_number < 1 || view.over ? "The table" : `Trick ${view.trick_number}${led}`;
  drawTrick($("trick"), view.trick, view);
  const last = view.last_trick;
  $("last-title").textContent = last ? `Trick ${last.number}: ${who(last.winner, view)} won` : "";
  drawTrick($("last-trick"), last ? last.plays : [], view);
  const lines = $("table-lines");
  lines.replaceChildren(...view.table_lines.map((line) => element("li", { textContent: line })));
  drawDecision(view);
  drawHand(view);
  $("result").hidden = !view.over;
  $("result-lines").textContent = view.over ? resultText(view) : "";
  $("next-hand").hidden = !view.game.may_deal;
  drawLogs(view);
  document.body.dataset.views = String(views);
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
    ask("POST", `/api/tables/${current.table}/next`).then(draw).catch((error) => showError(error.message));
  });
  const opened = location.pathname.match(/^\/t\/([^/]+)$/);
  try {
    if (opened) draw(await ask("GET", `/api/tables/${opened[1]}`));
    else await showSetup();
  } catch (error) {
    showError(error.message);
  }
}

window.addEventListener("popstate", () => location.reload());
start();

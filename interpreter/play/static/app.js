// The Grimoire table page: draws the view the server builds for this page's token (a seat's or
// the designer's) and sends answers. Every text from the game goes through textContent, never
// innerHTML: a card name cannot inject markup.
"use strict";
const parts = location.pathname.split("/").filter(Boolean);
const designer = parts[0] === "designer";
const token = parts[1];
const api = (path) => `/api/${encodeURIComponent(token)}/${path}`;
let view = null;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function call(path, options = {}) {
  const response = await fetch(api(path), options);
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) { showError(data.error || `error ${response.status}`); return null; }
  showError("");
  return data;
}

async function refresh() {
  const data = await call("state");
  if (data) render(data);
}

async function post(path, body) {
  const data = await call(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body || {}) });
  if (data) render(data);
}

function cardView(c) {
  if (view && view.faces && document.getElementById("faces").checked)  // the printed face (layout.yaml)
    return el("img", { class: "face", "data-name": c.name, title: c.label, alt: c.label, src: api(`face/${c.id}`) });
  const box = el("div", { class: "card", "data-name": c.name, title: c.label });
  box.append(el("div", { class: "card-name", text: c.name }), el("div", { class: "card-type", text: c.type }));
  // fields that are false, none or empty are left off the face; past eight, the rest fold away
  const fields = Object.entries(c.fields || {}).filter(([, v]) => v !== false && v !== null && v !== "" &&
                                                        !(Array.isArray(v) && !v.length));
  const list = (items) => {
    const dl = el("dl");
    for (const [k, v] of items) dl.append(el("dt", { text: k }), el("dd", { text: Array.isArray(v) ? v.join(", ") : String(v) }));
    return dl;
  };
  if (fields.length) box.append(list(fields.slice(0, 8)));
  if (fields.length > 8) box.append(el("details", {}, el("summary", { text: `${fields.length - 8} more` }), list(fields.slice(8))));
  if (c.text) box.append(el("p", { class: "card-text", text: c.text }));
  if (c.under) box.append(el("div", { class: "under", text: `on ${c.under} hidden card${c.under > 1 ? "s" : ""}` }));
  return box;
}

function back(count) {
  return el("div", { class: "card back", text: `${count} face down` });
}

function zoneView(z) {
  const box = el("div", { class: `zone kind-${z.kind}`, "data-zone": z.title });
  box.append(el("h3", { text: `${z.title} · ${z.count} card${z.count === 1 ? "" : "s"}${z.visible ? "" : " (hidden)"}` }));
  if (z.board) { box.append(boardView(z.board)); return box; }
  if (!z.visible) {
    if (z.kind === "rows") z.rows.forEach((n, i) => box.append(el("div", { class: "row" }, el("span", { class: "row-no", text: `row ${i + 1}` }), back(n))));
    else if (z.count) box.append(back(z.count));
    return box;
  }
  if (z.kind === "rows") {
    z.rows.forEach((row, i) => {
      const line = el("div", { class: "row" }, el("span", { class: "row-no", text: `row ${i + 1}` }));
      row.forEach((c) => line.append(cardView(c)));
      box.append(line);
    });
  } else if (z.grid) {
    const grid = el("div", { class: "grid", style: `grid-template-columns: repeat(${z.grid.width}, minmax(6em, 1fr))` });
    const cells = {};
    for (const cell of z.grid.cells) cells[`${cell.x},${cell.y}`] = cell.card;
    for (let y = 1; y <= z.grid.height; y++)
      for (let x = 1; x <= z.grid.width; x++) {
        const c = cells[`${x},${y}`];
        grid.append(c ? cardView(c) : el("div", { class: "cell", text: `${x},${y}` }));
      }
    box.append(grid);
  } else if (z.kind === "pile" && z.cards.length > 1) {
    box.append(el("div", { class: "row" }, cardView(z.cards[z.cards.length - 1])));
    const more = el("details", {}, el("summary", { text: `all ${z.cards.length} cards (top last)` }));
    const line = el("div", { class: "row" });
    z.cards.forEach((c) => line.append(cardView(c)));
    more.append(line);
    box.append(more);
  } else {
    const line = el("div", { class: "row" });
    z.cards.forEach((c) => line.append(cardView(c)));
    box.append(line);
  }
  return box;
}

function boardView(b) {
  // each region (a ring's or path's name) on its own circle, the first outermost, its spaces in
  // declaration order; spaces of no region join the first circle; edges as lines
  const NS = "http://www.w3.org/2000/svg";
  const groups = [];
  for (const node of b.nodes) {
    const key = node.region || "";
    let g = groups.find((x) => x.key === key);
    if (!g) groups.push(g = { key, nodes: [] });
    g.nodes.push(node);
  }
  const size = Math.max(420, Math.max(...groups.map((g) => g.nodes.length), 1) * 32);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("class", "board");
  const at = {};
  groups.forEach((g, k) => {
    const r = (size / 2 - 70) * (1 - k / (groups.length + 0.5));
    g.nodes.forEach((node, i) => {
      const a = (2 * Math.PI * i) / g.nodes.length - Math.PI / 2;
      at[node.id] = [size / 2 + r * Math.cos(a), size / 2 + r * Math.sin(a)];
    });
  });
  for (const e of b.edges) {
    const [x1, y1] = at[e.from], [x2, y2] = at[e.to];
    const line = document.createElementNS(NS, "line");
    Object.entries({ x1, y1, x2, y2, class: "edge" }).forEach(([k, v]) => line.setAttribute(k, v));
    svg.append(line);
  }
  for (const node of b.nodes) {
    const [x, y] = at[node.id];
    const g = document.createElementNS(NS, "g");
    const dot = document.createElementNS(NS, "circle");
    Object.entries({ cx: x, cy: y, r: node.cards.length ? 9 : 6, class: node.cards.length ? "space busy" : "space" })
      .forEach(([k, v]) => dot.setAttribute(k, v));
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", x + 11); label.setAttribute("y", y + 4);
    label.textContent = node.label + (node.cards.length ? ": " + node.cards.map((c) => c.name).join(", ") : "");
    const tip = document.createElementNS(NS, "title");
    tip.textContent = node.label + (node.region ? ` (${node.region})` : "");
    g.append(dot, label, tip);
    svg.append(g);
  }
  return svg;
}

function statsView(v) {
  const box = el("div");
  const shared = Object.entries(v.stats || {});
  if (shared.length) {
    const t = el("table", { class: "stats" }, el("caption", { text: "game" }));
    for (const [k, val] of shared) t.append(el("tr", {}, el("th", { text: k }), el("td", { text: JSON.stringify(val) })));
    box.append(t);
  }
  const names = [...new Set(v.player_stats.flatMap((p) => Object.keys(p.stats)))];
  if (names.length) {
    const t = el("table", { class: "stats" }, el("caption", { text: "players" }));
    t.append(el("tr", {}, el("th", { text: "" }), ...v.player_stats.map((p) => el("th", { text: `player ${p.player}` }))));
    for (const k of names)
      t.append(el("tr", {}, el("th", { text: k }), ...v.player_stats.map((p) => el("td", { text: k in p.stats ? JSON.stringify(p.stats[k]) : "" }))));
    box.append(t);
  }
  return box;
}

function render(v) {
  view = v;
  document.getElementById("faces-toggle").hidden = !v.faces;
  document.title = `${v.title} · ${v.seat ? "player " + v.seat : "designer"}`;
  document.getElementById("title").textContent = `${v.title} — ${v.seat ? "you are player " + v.seat : "designer"}`;
  const status = document.getElementById("status");
  let text = `turn ${v.turn}, round ${v.round}, player ${v.active} is active`;
  if (v.over) text = "the game is over";
  else if (v.decision && v.seat) text += " · your decision";
  else if (v.waiting_for) text += ` · waiting for player ${v.waiting_for}` + (v.waiting_prompt ? `: ${v.waiting_prompt}` : "");
  if (v.paused) text += " · paused by the designer";
  status.textContent = text;
  status.dataset.mine = v.decision && v.seat ? "1" : "0";
  status.dataset.over = v.over ? "1" : "0";
  status.dataset.step = v.step;

  const dec = document.getElementById("decision");
  dec.replaceChildren();
  if (v.decision) {
    dec.append(el("h2", { text: (v.seat ? "" : `player ${v.decision.player} decides: `) + v.decision.prompt }));
    const buttons = el("div", { class: "options" });
    for (const o of v.decision.options) {
      buttons.append(el("button", { class: "option", "data-option": o.option, text: o.label,
                                    title: o.option <= 9 ? `key ${o.option}` : undefined,
                                    disabled: v.seat ? undefined : "disabled",
                                    onclick: () => post("answer", { option: o.option, step: v.step }) }));
    }
    if (!v.seat) buttons.append(el("p", { class: "hint", text: "(answered from the seat's page)" }));
    dec.append(buttons);
  }
  const res = document.getElementById("result");
  res.hidden = !v.over;
  res.replaceChildren();
  if (v.over) {
    if (v.stopped_by) res.append(el("h2", { text: `the game stopped: ${v.stopped_by}` }));
    if (v.result) {
      res.append(el("h2", { text: `winner${v.result.winners.length > 1 ? "s" : ""}: ` + v.result.winners.map((w) => `player ${w}`).join(", ") }));
      res.append(el("p", { text: "scores: " + v.result.scores.map((s) => `player ${s.player}: ${s.score}`).join(", ") + (v.result.reason ? ` (${v.result.reason})` : "") }));
    }
  }
  const zones = document.getElementById("zones");
  zones.replaceChildren();
  const shared = v.zones.filter((z) => z.owner === null);
  zones.append(el("h2", { text: "table" }));
  const sharedBox = el("div", { class: "area" });
  shared.forEach((z) => sharedBox.append(zoneView(z)));
  zones.append(sharedBox);
  const order = [...Array(v.players).keys()].map((i) => i + 1);
  if (v.seat) order.sort((a, b) => (a === v.seat ? -1 : b === v.seat ? 1 : a - b));
  for (const p of order) {
    const own = v.zones.filter((z) => z.owner === p);
    if (!own.length) continue;
    zones.append(el("h2", { text: p === v.seat ? `your area (player ${p})` : `player ${p}` + (v.seats[p - 1].kind !== "human" ? " (bot)" : "") }));
    const area = el("div", { class: p === v.seat ? "area mine" : "area" });
    own.forEach((z) => area.append(zoneView(z)));
    zones.append(area);
  }
  document.getElementById("stats").replaceChildren(statsView(v));
  const log = document.getElementById("narration");
  log.replaceChildren(...v.narration.entries.map((e, i) => el("li", {
    class: (e.player ? `by-player p${e.player}` : "by-rules") + (i < v.narration.new_from ? " old" : " new"),
    text: `turn ${e.turn} · ${e.text}` })));
  const firstNew = log.querySelector("li.new");
  if (firstNew) log.parentElement.scrollTop = firstNew.offsetTop - 60;
  if (v.designer) renderDesigner(v);
}

function renderDesigner(v) {
  document.getElementById("designer").hidden = false;
  document.getElementById("d-at").textContent = `answer ${v.designer.at} of ${v.designer.history} · state ${v.designer.digest}`;
  const seed = document.getElementById("d-seed");
  if (document.activeElement !== seed) seed.value = v.designer.seed;
  document.getElementById("d-save").href = api("save");
  document.getElementById("d-log").href = api("log");
  const seats = document.getElementById("d-seats");
  seats.replaceChildren();
  for (const s of v.seats) {
    const pick = el("select", { "data-player": s.player, onchange: (ev) => post("seat", { player: s.player, kind: ev.target.value }) });
    for (const k of ["human", ...v.designer.agent_kinds]) {
      const o = el("option", { value: k, text: k });
      if (k === s.kind) o.selected = true;
      pick.append(o);
    }
    seats.append(el("label", { text: `player ${s.player} ` }, pick));
  }
  document.getElementById("d-json").textContent = JSON.stringify(v, null, 1);
}

if (designer) {
  document.getElementById("d-back").onclick = () => post("back");
  document.getElementById("d-forward").onclick = () => post("forward");
  document.getElementById("d-resume").onclick = () => post("resume");
  document.getElementById("d-new").onclick = () => post("new", { seed: Number(document.getElementById("d-seed").value) });
  document.getElementById("d-load").onchange = async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const data = await call("load", { method: "POST", body: await file.text() });
    if (data) render(data);
    ev.target.value = "";
  };
}

const facesBox = document.getElementById("faces");
facesBox.checked = localStorage.getItem("grimoire-faces") === "1";
facesBox.onchange = () => { localStorage.setItem("grimoire-faces", facesBox.checked ? "1" : "0"); if (view) render(view); };

// keys 1 to 9 press the decision's buttons (a seat's page, outside form fields)
document.addEventListener("keydown", (ev) => {
  if (!view || !view.seat || !view.decision || ev.target.closest("input, select, textarea")) return;
  const n = Number(ev.key);
  if (n >= 1 && n <= view.decision.options.length && n <= 9) post("answer", { option: n, step: view.step });
});

refresh();
const events = new EventSource(api("events"));
events.onmessage = (ev) => { if (!view || String(view.version) !== ev.data) refresh(); };

// The Rockafka console: one page, routed by the URL's hash, drawn from the broker's JSON API (/api/...).
// Every value from the broker is put in the page as text (never as HTML).
"use strict";

const { lineChart, SeriesHistory, shortNumber } = window.RockafkaChart;
const POLL_MS = 2000;
const state = { credentials: sessionStorage.getItem("rockafka-credentials"), timer: null, whoami: null };

// --- helpers ---

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function shown(value) {
  if (value === null || value === undefined) return el("span", { class: "muted" }, "null");
  if (typeof value === "object") return el("pre", {}, JSON.stringify(value, null, 1));
  return el("pre", {}, String(value));
}

function table(headings, rows, id) {
  const head = el("tr", {}, headings.map((h) => el("th", { class: h.num ? "num" : "" }, h.label || h)));
  const body = rows.map((cells) => el("tr", {}, cells.map((cell, i) => el("td", { class: headings[i].num ? "num" : "" }, cell))));
  return el("table", { id }, el("thead", {}, head), el("tbody", {}, body));
}

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, options) {
  const headers = { Accept: "application/json" };
  if (state.credentials) headers.Authorization = "Basic " + state.credentials;
  if (options && options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: (options && options.method) || "GET", headers,
    body: options && options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const document = await response.json();
  if (response.status === 401) { signIn(document.error); throw new ApiError(401, document.error); }
  if (!response.ok) throw new ApiError(response.status, document.error || response.statusText);
  return document;
}

function query(params) {
  return Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

function hashParams() {
  const [, search] = location.hash.split("?");
  return Object.fromEntries(new URLSearchParams(search || ""));
}

function go(page, params) { location.hash = `#/${page}` + (params ? "?" + query(params) : ""); }

function pager(result, onPage) {
  const pages = Math.max(1, Math.ceil(result.total / result.size));
  return el("div", { class: "pager" },
    el("button", { type: "button", disabled: result.page <= 1 ? "" : null, onclick: () => onPage(result.page - 1) }, "‹"),
    `page ${result.page} of ${pages} (${result.total})`,
    el("button", { type: "button", disabled: result.page >= pages ? "" : null, onclick: () => onPage(result.page + 1) }, "›"));
}

function errorBox(error) { return el("p", { class: "error", id: "error" }, error.message || String(error)); }

function card(label, value, id) {
  return el("div", { class: "card" }, el("div", { class: "value", id }, value), el("div", { class: "label" }, label));
}

function chartBox(title, id) { return el("div", { class: "chart" }, el("div", { class: "title" }, title), el("div", { id })); }

function draw(id, series, unit) {
  const box = document.getElementById(id);
  if (box) box.replaceChildren(lineChart(series, { unit }));
}

function changesAllowed() { return state.whoami && state.whoami.changes_allowed; }

// --- sign in ---

function signIn(message) {
  const dialog = document.getElementById("signin");
  document.getElementById("signin-error").textContent = state.credentials ? message || "" : "";
  if (!dialog.open) dialog.showModal();
}

document.getElementById("signin-form").addEventListener("submit", () => {
  const user = document.getElementById("signin-user").value;
  const password = document.getElementById("signin-password").value;
  state.credentials = btoa(unescape(encodeURIComponent(`${user}:${password}`)));
  sessionStorage.setItem("rockafka-credentials", state.credentials);
  state.whoami = null;
  route();
});

// --- pages ---

const history = new SeriesHistory(150);
let lastTraffic = null;

async function overviewPage(main) {
  const first = await api("/api/overview");
  main.replaceChildren(
    el("h1", {}, "Overview"),
    el("div", { class: "cards" },
      card("brokers", first.brokers.length, "card-brokers"), card("topics", first.topics, "card-topics"),
      card("partitions", first.partitions, "card-partitions"), card("consumer groups", first.groups, "card-groups"),
      card("store bytes", shortNumber(first.store_bytes), "card-store"), card("total lag", first.lag, "card-lag")),
    el("div", { class: "charts" }, chartBox("Messages in / s", "chart-messages"), chartBox("Bytes in and out / s", "chart-bytes"),
      chartBox("Total consumer lag", "chart-lag")),
    el("h2", {}, "Brokers"),
    table(["node", "host", "port"], first.brokers.map((b) => [b.node_id === first.controller_id ? `${b.node_id} (controller)` : b.node_id, b.host, b.port]), "brokers"),
    el("h2", {}, "Listeners"), el("ul", {}, first.listeners.map((url) => el("li", {}, url))),
    el("p", { class: "muted" }, `cluster ${first.cluster_id}, this broker is node ${first.node_id}`));
  const sample = (doc) => {
    if (lastTraffic) {
      const seconds = Math.max(0.001, (doc.time_ms - lastTraffic.time_ms) / 1000);
      history.add("messages in", doc.time_ms, Math.max(0, (doc.messages_in - lastTraffic.messages_in) / seconds));
      history.add("bytes in", doc.time_ms, Math.max(0, (doc.bytes_in - lastTraffic.bytes_in) / seconds));
      history.add("bytes out", doc.time_ms, Math.max(0, (doc.bytes_out - lastTraffic.bytes_out) / seconds));
    }
    history.add("lag", doc.time_ms, doc.lag);
    lastTraffic = doc;
    draw("chart-messages", history.list(["messages in"]), "msg/s");
    draw("chart-bytes", history.list(["bytes in", "bytes out"]), "B/s");
    draw("chart-lag", history.list(["lag"]), "records");
    for (const [id, value] of [["card-topics", doc.topics], ["card-partitions", doc.partitions], ["card-groups", doc.groups], ["card-lag", doc.lag]]) {
      const node = document.getElementById(id);
      if (node) node.textContent = value;
    }
  };
  sample(first);
  state.timer = setInterval(async () => { try { sample(await api("/api/overview")); } catch (e) { /* next tick retries */ } }, POLL_MS);
}

async function topicsPage(main, params) {
  const page = Number(params.page || 1), filter = params.filter || "";
  const result = await api("/api/topics?" + query({ page, size: 50, filter }));
  const filterBox = el("input", { id: "topic-filter", value: filter, placeholder: "filter by name" });
  const create = changesAllowed() ? createTopicForm() : el("p", { class: "muted" }, "Read-only console: changes are off.");
  main.replaceChildren(
    el("h1", {}, "Topics"),
    el("div", { class: "controls" }, filterBox, el("button", { type: "button", onclick: () => go("topics", { filter: filterBox.value }) }, "Filter")),
    table(["name", { label: "partitions", num: true }, { label: "messages", num: true }, { label: "bytes", num: true }, "cleanup.policy"],
      result.items.map((t) => [el("a", { href: `#/topic?name=${encodeURIComponent(t.name)}` }, t.name), t.partitions, t.messages, t.size_bytes, t.cleanup_policy]), "topics"),
    pager(result, (n) => go("topics", { page: n, filter })), create);
}

function createTopicForm() {
  const name = el("input", { id: "new-topic-name", placeholder: "name" });
  const partitions = el("input", { id: "new-topic-partitions", type: "number", min: 1, value: 1 });
  const configs = el("input", { id: "new-topic-configs", placeholder: "cleanup.policy=compact, retention.ms=…" });
  const message = el("span", { id: "create-result" });
  const submit = async () => {
    const parsed = Object.fromEntries(configs.value.split(",").map((s) => s.trim()).filter(Boolean).map((s) => s.split("=").map((p) => p.trim())));
    try {
      await api("/api/topics", { method: "POST", body: { name: name.value, partitions: Number(partitions.value), configs: parsed } });
      go("topic", { name: name.value });
    } catch (e) { message.replaceChildren(errorBox(e)); }
  };
  return el("div", {}, el("h2", {}, "Create a topic"),
    el("div", { class: "controls" }, el("label", {}, "name", name), el("label", {}, "partitions", partitions),
      el("label", {}, "configs", configs), el("button", { type: "button", id: "create-topic", onclick: submit }, "Create"), message));
}

async function topicPage(main, params) {
  const page = Number(params.page || 1);
  const topic = await api("/api/topic?" + query({ name: params.name, page, size: 100 }));
  const rows = topic.partitions.items.map((p) => [
    el("a", { href: `#/messages?${query({ topic: topic.name, partition: p.partition })}` }, p.partition), p.leader,
    p.log_start_offset ?? "–", p.high_watermark ?? "–", p.last_stable_offset ?? "–", p.size_bytes ?? "–"]);
  const remove = changesAllowed() && !topic.internal ? el("button", { type: "button", class: "danger", id: "delete-topic", onclick: async () => {
    if (!confirm(`Delete topic ${topic.name}?`)) return;
    try { await api("/api/topic?" + query({ name: topic.name }), { method: "DELETE" }); go("topics"); } catch (e) { main.appendChild(errorBox(e)); }
  } }, "Delete topic") : null;
  main.replaceChildren(
    el("h1", {}, `Topic ${topic.name}`), el("p", { class: "muted" }, `id ${topic.topic_id}`), remove,
    el("h2", {}, "Partitions"),
    table(["partition", "leader", { label: "log start", num: true }, { label: "high watermark", num: true }, { label: "LSO", num: true }, { label: "bytes", num: true }], rows, "partitions"),
    pager(topic.partitions, (n) => go("topic", { name: topic.name, page: n })),
    el("h2", {}, "Configs"),
    changesAllowed() ? configForm(topic.name) : null,
    table(["name", "value", "source"], topic.configs.map((c) => [c.name, c.value ?? "", c.source]), "configs"));
}

function configForm(topicName) {
  const name = el("input", { id: "config-name", placeholder: "retention.ms" });
  const value = el("input", { id: "config-value", placeholder: "value" });
  const message = el("span", { id: "config-result" });
  const send = async (body) => {
    try { await api("/api/topic/configs", { method: "POST", body: { name: topicName, ...body } }); route(); }
    catch (e) { message.replaceChildren(errorBox(e)); }
  };
  return el("div", { class: "controls" }, el("label", {}, "config", name), el("label", {}, "value", value),
    el("button", { type: "button", id: "config-set", onclick: () => send({ set: { [name.value]: value.value } }) }, "Set"),
    el("button", { type: "button", id: "config-default", onclick: () => send({ delete: [name.value] }) }, "Back to default"),
    message);
}

async function messagesPage(main, params) {
  const form = params.format || "text", order = params.order || "newest";
  const fields = {
    topic: el("input", { id: "msg-topic", value: params.topic || "", placeholder: "topic" }),
    partition: el("input", { id: "msg-partition", type: "number", min: 0, value: params.partition || 0 }),
    offset: el("input", { id: "msg-offset", type: "number", min: 0, value: params.offset || "", placeholder: "offset" }),
    timestamp: el("input", { id: "msg-timestamp", value: params.timestamp || "", placeholder: "timestamp (ms)" }),
    order: el("select", { id: "msg-order" }, ["newest", "oldest"].map((o) => el("option", { value: o, selected: o === order ? "" : null }, `${o} first`))),
    format: el("select", { id: "msg-format" }, ["text", "json", "hex"].map((f) => el("option", { value: f, selected: f === form ? "" : null }, f))),
  };
  const show = () => go("messages", Object.fromEntries(Object.entries(fields).map(([k, node]) => [k, node.value])));
  main.replaceChildren(el("h1", {}, "Messages"),
    el("div", { class: "controls" }, Object.entries(fields).map(([k, node]) => el("label", {}, k, node)),
      el("button", { type: "button", id: "msg-show", onclick: show }, "Show")));
  if (!params.topic) return;
  const result = await api("/api/messages?" + query({ topic: params.topic, partition: params.partition, offset: params.offset, timestamp: params.timestamp, order, format: form, limit: 50 }));
  const rows = result.records.map((r) => r.marker
    ? [r.offset, new Date(r.timestamp).toISOString(), el("span", { class: "marker" }, `${r.marker} marker`), `producer ${r.producer_id}`, ""]
    : [r.offset, new Date(r.timestamp).toISOString(), shown(r.key), shown(r.value), r.headers.map((h) => `${h.key}=${typeof h.value === "object" ? JSON.stringify(h.value) : h.value}`).join(", ")]);
  main.append(el("p", { class: "muted" }, `offsets ${result.log_start_offset} to ${result.high_watermark} (LSO ${result.last_stable_offset})`),
    table([{ label: "offset", num: true }, "timestamp", "key", "value", "headers"], rows, "messages"));
}

async function findPage(main, params) {
  const fields = {
    topic: el("input", { id: "find-topic", value: params.topic || "", placeholder: "topic" }),
    key: el("input", { id: "find-key", value: params.key || "", placeholder: "key" }),
    key_format: el("select", { id: "find-key-format" }, ["text", "hex"].map((f) => el("option", { value: f, selected: f === params.key_format ? "" : null }, f))),
    from_ms: el("input", { id: "find-from", value: params.from_ms || "", placeholder: "from (ms)" }),
    to_ms: el("input", { id: "find-to", value: params.to_ms || "", placeholder: "to (ms)" }),
  };
  const search = () => go("find", Object.fromEntries(Object.entries(fields).map(([k, node]) => [k, node.value])));
  main.replaceChildren(el("h1", {}, "Find by key"),
    el("p", { class: "muted" }, "Looks the key up in the IndexFile, across the topic's partitions, newest first."),
    el("div", { class: "controls" }, Object.entries(fields).map(([k, node]) => el("label", {}, k, node)),
      el("button", { type: "button", id: "find-search", onclick: search }, "Search")));
  if (!params.topic || params.key === undefined) return;
  const result = await api("/api/find?" + query({ topic: params.topic, key: params.key, key_format: params.key_format, from_ms: params.from_ms, to_ms: params.to_ms }));
  main.append(result.records.length === 0 ? el("p", { id: "found-none" }, "No record with this key.")
    : table([{ label: "partition", num: true }, { label: "offset", num: true }, "timestamp", "key", "value"],
      result.records.map((r) => [r.partition, r.offset, new Date(r.timestamp).toISOString(), shown(r.key), shown(r.value)]), "found"));
}

async function groupsPage(main, params) {
  const page = Number(params.page || 1), filter = params.filter || "";
  const result = await api("/api/groups?" + query({ page, size: 50, filter }));
  const filterBox = el("input", { id: "group-filter", value: filter, placeholder: "filter by id" });
  main.replaceChildren(el("h1", {}, "Consumer groups"),
    el("div", { class: "controls" }, filterBox, el("button", { type: "button", onclick: () => go("groups", { filter: filterBox.value }) }, "Filter")),
    table(["group", "state", { label: "members", num: true }, { label: "partitions", num: true }, { label: "lag", num: true }],
      result.items.map((g) => [el("a", { href: `#/group?id=${encodeURIComponent(g.group_id)}` }, g.group_id), g.state, g.members, g.partitions, g.lag]), "groups"),
    pager(result, (n) => go("groups", { page: n, filter })));
}

async function groupPage(main, params) {
  const lagHistory = new SeriesHistory(150);
  const render = (group) => {
    for (const row of group.offsets) lagHistory.add(`${row.topic}-${row.partition}`, group.time_ms, row.lag);
    lagHistory.add("total", group.time_ms, group.lag);
    draw("chart-group-lag", lagHistory.list(["total", ...group.offsets.slice(0, 9).map((r) => `${r.topic}-${r.partition}`)]), "records");
    document.getElementById("group-state").textContent = group.state;
    document.getElementById("group-lag-table").replaceWith(table(["topic", { label: "partition", num: true }, { label: "committed", num: true }, { label: "high watermark", num: true }, { label: "lag", num: true }],
      group.offsets.map((r) => [r.topic, r.partition, r.committed, r.high_watermark, r.lag]), "group-lag-table"));
  };
  const group = await api("/api/group?" + query({ id: params.id }));
  main.replaceChildren(
    el("h1", {}, `Consumer group ${group.group_id}`),
    el("p", {}, "state ", el("strong", { id: "group-state" }, group.state), ` · protocol ${group.protocol || "–"}`),
    el("h2", {}, "Members"),
    table(["member", "client", "host", "assignment"], group.members.map((m) => [m.member_id, m.client_id, m.host,
      m.assignment.map((a) => `${a.topic}: ${a.partitions.join(",")}`).join("; ")]), "members"),
    el("h2", {}, "Lag"), chartBox("Lag per partition", "chart-group-lag"), el("table", { id: "group-lag-table" }),
    changesAllowed() ? resetForm(group) : null);
  render(group);
  state.timer = setInterval(async () => { try { render(await api("/api/group?" + query({ id: params.id }))); } catch (e) { /* retried */ } }, POLL_MS);
}

function resetForm(group) {
  const topics = [...new Set(group.offsets.map((r) => r.topic))];
  const topic = el("input", { id: "reset-topic", value: topics[0] || "", placeholder: "topic" });
  const to = el("select", { id: "reset-to" }, ["earliest", "latest", "offset", "timestamp"].map((o) => el("option", { value: o }, o)));
  const value = el("input", { id: "reset-value", placeholder: "offset or timestamp (ms)" });
  const message = el("span", { id: "reset-result" });
  const submit = async () => {
    const target = to.value === "offset" ? Number(value.value) : to.value === "timestamp" ? { timestamp: Number(value.value) } : to.value;
    try {
      const done = await api("/api/group/reset", { method: "POST", body: { group: group.group_id, topic: topic.value, to: target } });
      message.replaceChildren(el("span", {}, `reset: ${done.offsets.map((o) => `${o.topic}-${o.partition}→${o.offset}`).join(", ")}`));
    } catch (e) { message.replaceChildren(errorBox(e)); }
  };
  return el("div", {}, el("h2", {}, "Reset offsets"), el("p", { class: "muted" }, "Only while the group has no members."),
    el("div", { class: "controls" }, el("label", {}, "topic", topic), el("label", {}, "to", to), el("label", {}, "value", value),
      el("button", { type: "button", id: "reset-offsets", onclick: submit }, "Reset"), message));
}

async function storePage(main, params) {
  const page = Number(params.page || 1), kind = params.kind || "";
  const result = await api("/api/store?" + query({ page, size: 100, kind }));
  const p = result.positions;
  main.replaceChildren(el("h1", {}, "Store"),
    el("div", { class: "cards" }, card("CommitLog first offset", p.commitlog_min_offset, "pos-min"),
      card("published (readable) end", p.commitlog_published_offset, "pos-published"), card("flushed (fsynced) end", p.commitlog_synced_offset, "pos-synced"),
      card("indexed up to", p.indexed_offset, "pos-indexed")),
    el("p", {}, Object.entries(result.counts).map(([k, n]) => el("a", { href: `#/store?kind=${k}`, style: "margin-right:12px" }, `${k}: ${n}`))),
    result.health.offline_reason ? el("p", { class: "error" }, `offline: ${result.health.offline_reason}`) : null,
    table(["kind", "path", { label: "bytes", num: true }], result.files.items.map((f) => [f.kind, f.path, f.size]), "store-files"),
    pager(result.files, (n) => go("store", { page: n, kind })));
}

// --- routing ---

const PAGES = { overview: overviewPage, topics: topicsPage, topic: topicPage, messages: messagesPage, find: findPage, groups: groupsPage, group: groupPage, store: storePage };
const NAV = { topic: "topics", group: "groups" };

async function route() {
  if (state.timer) { clearInterval(state.timer); state.timer = null; }
  const name = (location.hash.slice(2).split("?")[0]) || "overview";
  const render = PAGES[name] || overviewPage;
  for (const link of document.querySelectorAll("#nav a")) link.classList.toggle("active", link.dataset.page === (NAV[name] || name));
  const main = document.getElementById("main");
  try {
    if (!state.whoami) {
      state.whoami = await api("/api/whoami");
      document.getElementById("who").textContent = `${state.whoami.principal} · node ${state.whoami.node_id}` + (state.whoami.changes_allowed ? "" : " · read-only");
    }
    await render(main, hashParams());
  } catch (error) {
    if (error.status !== 401) main.replaceChildren(errorBox(error));
  }
}

window.addEventListener("hashchange", route);
route();

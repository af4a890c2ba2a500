// The table: what one person's Discord client shows, and what they do, sent to the server over a websocket.
// The server (bot/local/table/web.py) decides what this person may see and checks what they send; this file only
// draws and asks. No framework, no build step.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

let socket = null;
let state = null; // the table: people, channels, commands, words, forms, ...
let channel = null; // the server channel shown
let requests = 0;
const waiting = new Map(); // request number -> resolve
const messages = new Map(); // id -> message as last received
let command = null; // the slash command being filled in
let completing = null; // the option whose suggestions are shown
let shownForm = null;
let openSelect = null; // "message id/custom id" of the select whose menu is open: it stays open when redrawn
const unreadChannels = new Set(); // server channels with messages that came while another was shown
const IMAGE_WIDTH = 520; // px: the largest a picture is shown (table.css, .attachment img)
const IMAGE_HEIGHT = 360;

// -- words --------------------------------------------------------------------------------------------------------

function say(key, params = {}) {
  const text = (state && state.words[key]) || key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

function locale() {
  const me = person(state.me);
  return (me && me.locale) || "en-US";
}

function person(id) {
  return state.people.find((p) => p.id === id);
}

function userName(id) {
  if (id === state.bot.id) return state.bot.name;
  return state.users[id] || "unknown-user";
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- talking to the server ----------------------------------------------------------------------------------------

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.onopen = () => {
    $("#offline").hidden = true;
    messages.clear();
    $$(".messages").forEach((box) => (box.textContent = ""));
    ask({ op: "as", person: decodeURIComponent(location.hash.slice(1)) || "" });
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (state) {
      $("#offline").textContent = say("offline");
      $("#offline").hidden = false;
    }
    setTimeout(connect, 2000);
  };
}

function ask(request) {
  const req = ++requests;
  return new Promise((resolve) => {
    waiting.set(req, resolve);
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ ...request, req }));
    else resolve({ error: say("offline") });
  });
}

function receive(data) {
  if (data.type === "answer") {
    const resolve = waiting.get(data.req);
    waiting.delete(data.req);
    if (resolve) resolve(data);
  } else if (data.type === "table") {
    const switched = !state || state.me !== data.me || locale() !== (data.people.find((p) => p.id === data.me) || {}).locale;
    state = data;
    drawTable(switched);
  } else if (data.type === "messages") {
    if (data.reset) {
      // another person now: nothing of the one before stays on the page (their ephemeral answers, their DMs)
      messages.clear();
      unreadChannels.clear();
      for (const node of $$(".messages .message")) node.remove();
    }
    for (const id of data.remove) {
      messages.delete(id);
      const node = document.querySelector(`[data-message-id="${id}"]`);
      if (node) node.remove();
    }
    for (const message of data.upsert) {
      const known = messages.has(message.id);
      messages.set(message.id, message);
      place(message, data.reset || known); // a message only edited, or all of them again: nothing new to read
    }
  }
}

// -- the table: server, channels, seats ---------------------------------------------------------------------------

function drawTable(switched) {
  document.documentElement.lang = locale();
  document.title = `${say("server")} · ${person(state.me).name}`;
  $("#server").textContent = say("server");
  $("#channels-title").textContent = say("channels");
  $("#people-title").textContent = say("people");
  $("#hint").textContent = say("hint");
  $("#dms-title").textContent = `${say("dms")} · ${state.bot.name}`;
  $("#send").textContent = say("send");
  const add = $("#add-person");
  add.textContent = `+ ${say("add_person")}`;
  add.disabled = state.full;
  if (!channel || !state.channels.some((c) => c.id === channel)) channel = state.channels[0].id;
  const list = $("#channels");
  list.textContent = "";
  for (const c of state.channels) {
    const item = element("li", c.id === channel ? "channel active" : unreadChannels.has(c.id) ? "channel unread" : "channel");
    item.dataset.channel = c.id;
    item.append(element("span", "hash", "#"), element("span", "name", c.name));
    item.onclick = () => showChannel(c.id);
    list.append(item);
  }
  $("#channel-name").textContent = state.channels.find((c) => c.id === channel).name;
  $("#text").placeholder = say("composer", { channel: state.channels.find((c) => c.id === channel).name });
  const seats = $("#seats");
  seats.textContent = "";
  for (const p of state.people) {
    const seat = element("li", p.id === state.me ? "seat active" : "seat");
    seat.dataset.person = p.id;
    seat.dataset.name = p.name;
    seat.title = p.name;
    seat.append(avatar(p.name, p.colour), element("span", "name", p.name));
    if (p.id === state.me) seat.append(element("span", "you", `(${say("you")})`));
    if (p.unread) seat.append(element("span", "badge", String(p.unread)));
    seat.onclick = () => become(p.id);
    seats.append(seat);
  }
  const language = $("#language");
  $("#language-label span").textContent = say("language");
  language.textContent = "";
  for (const [code, name] of Object.entries(state.locales)) {
    const option = element("option", "", name);
    option.value = code;
    language.append(option);
  }
  language.value = locale();
  drawProblems();
  drawForm();
  if (switched) {
    if (command) closeCommand();
    $("#composer-error").textContent = "";
    if (location.hash.slice(1) !== person(state.me).name) history.replaceState(null, "", `#${person(state.me).name}`);
  }
  const dmBox = $("#dm-messages");
  if (!dmBox.querySelector(".message")) {
    dmBox.textContent = "";
    dmBox.append(element("p", "empty", say("dms_none", { bot: state.bot.name })));
  }
  if (switched) for (const node of $$(".messages .message")) node.dispatchEvent(new Event("redraw"));
}

function avatar(name, colour) {
  const node = element("span", "avatar", (name || "?").slice(0, 1).toUpperCase());
  node.style.background = colour;
  return node;
}

function drawProblems() {
  const box = $("#problems");
  box.textContent = "";
  if (state.bot.status !== "ready") {
    const banner = element("div", `problem bot-${state.bot.status}`, say(state.bot.status === "stopped" ? "bot_stopped" : "bot_starting"));
    if (state.bot.detail) banner.append(element("pre", "", state.bot.detail));
    box.append(banner);
  }
  for (const refused of state.refused.slice(-5)) {
    box.append(element("div", "problem refused", say("refused", refused)));
  }
}

async function become(id) {
  if (id === state.me) return;
  await ask({ op: "as", person: id });
}

function showChannel(id) {
  channel = id;
  unreadChannels.delete(id);
  for (const node of $$("#messages .message")) node.remove();
  for (const message of messages.values()) place(message, true);
  drawTable(false);
  scrollDown($("#messages"), true);
}

// -- messages -----------------------------------------------------------------------------------------------------

function order(id) {
  return BigInt(id.replace(/^n/, ""));
}

function boxFor(message) {
  if (state.dm && message.channel === state.dm) return $("#dm-messages");
  if (message.channel === channel) return $("#messages");
  return null;
}

function nearBottom(box) {
  return box.scrollHeight - box.scrollTop - box.clientHeight < 80;
}

function scrollDown(box, force) {
  if (force || box.dataset.stick !== "no") box.scrollTop = box.scrollHeight;
}

function place(message, quiet = false) {
  const old = document.querySelector(`[data-message-id="${message.id}"]`);
  const box = boxFor(message);
  if (!box) {
    if (old) old.remove();
    else if (!quiet && state.channels.some((c) => c.id === message.channel) && !unreadChannels.has(message.channel)) {
      unreadChannels.add(message.channel);
      const item = document.querySelector(`.channel[data-channel="${message.channel}"]`);
      if (item) item.classList.add("unread");
    }
    return;
  }
  const stick = nearBottom(box);
  const node = drawMessage(message);
  if (old && old.parentNode === box) {
    morph(old, node);
  } else {
    if (old) old.remove();
    const empty = box.querySelector(".empty");
    if (empty) empty.remove();
    const mine = order(message.id);
    let after = null;
    for (let child = box.lastElementChild; child; child = child.previousElementSibling) {
      if (child.dataset.messageId && order(child.dataset.messageId) < mine) {
        after = child;
        break;
      }
    }
    if (after) after.after(node);
    else box.prepend(node);
  }
  if (stick) scrollDown(box, true);
}

// An edited message keeps every part that did not change (a button under the mouse, an image already shown, an open
// menu) and replaces the parts that did.
function morph(old, fresh) {
  const before = Array.from(old.children);
  const after = Array.from(fresh.children);
  if (before.length !== after.length || old.tagName !== fresh.tagName) {
    old.replaceWith(fresh);
    return;
  }
  old.className = fresh.className;
  after.forEach((node, i) => {
    if (before[i].isEqualNode(node)) return;
    if (node.classList.contains("body")) morph(before[i], node);
    else before[i].replaceWith(node);
  });
}

function time(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
}

function drawMessage(message) {
  const bot = message.author === "bot";
  const node = element("article", "message");
  node.dataset.messageId = message.id;
  node.dataset.author = message.author;
  if (message.ping) node.classList.add("ping");
  if (message.ephemeral) node.classList.add("ephemeral");
  if (message.used) {
    const used = element("div", "used");
    used.innerHTML = escapeHtml(say("used", { name: "\u0000", command: "\u0001" }))
      .replace("\u0000", `<span class="used-name">${escapeHtml(userName(message.used.by))}</span>`)
      .replace("\u0001", `<span class="used-command">${escapeHtml(message.used.command)}</span>`);
    node.append(used);
  }
  const author = bot ? null : person(message.author);
  node.append(avatar(bot ? state.bot.name : userName(message.author), bot ? "#5865f2" : author ? author.colour : "#80848e"));
  const body = element("div", "body");
  const head = element("header");
  head.append(element("span", "name", bot ? state.bot.name : userName(message.author)));
  if (bot) head.append(element("span", "tag", say("app")));
  head.append(element("time", "", time(message.at)));
  body.append(head);
  if (message.notice) {
    body.append(element("div", "notice", say(message.notice)));
  } else if (message.thinking) {
    body.append(element("div", "thinking", say("thinking", { bot: state.bot.name })));
  } else {
    if (message.content) {
      const content = element("div", "content");
      content.innerHTML = markdown(message.content);
      if (message.edited) content.append(element("span", "edited", ` ${say("edited")}`));
      body.append(content);
    }
    for (const embed of message.embeds) body.append(drawEmbed(embed));
    if (message.files.length) {
      const files = element("div", "files");
      for (const file of message.files) files.append(drawFile(file));
      body.append(files);
    }
    if (message.components.length) body.append(drawComponents(message));
  }
  if (message.ephemeral) {
    const note = element("div", "ephemeral-note");
    note.append(element("span", "eye", "👁"), element("span", "", ` ${say("only_you")} · `));
    const dismiss = element("a", "dismiss", say("dismiss"));
    dismiss.href = "#";
    dismiss.onclick = (event) => {
      event.preventDefault();
      ask({ op: "dismiss", message: message.id });
    };
    note.append(dismiss);
    body.append(note);
  }
  node.append(body);
  node.addEventListener("redraw", () => node.replaceWith(drawMessage(messages.get(message.id) || message)));
  for (const img of $$("img", node)) img.addEventListener("load", () => { const box = node.parentNode; if (box && nearBottom(box)) scrollDown(box, true); });
  return node;
}

function colour(value) {
  return value === undefined || value === null ? "#1e1f22" : `#${Number(value).toString(16).padStart(6, "0")}`;
}

function drawEmbed(embed) {
  const node = element("div", "embed");
  node.style.borderLeftColor = colour(embed.color);
  const main = element("div", "embed-main");
  if (embed.author && embed.author.name) main.append(element("div", "embed-author", embed.author.name));
  if (embed.title) {
    const title = element("div", "embed-title");
    title.innerHTML = markdown(embed.title, true);
    main.append(title);
  }
  if (embed.description) {
    const description = element("div", "embed-description");
    description.innerHTML = markdown(embed.description);
    main.append(description);
  }
  if (embed.fields && embed.fields.length) {
    const fields = element("div", "embed-fields");
    for (const field of embed.fields) {
      const item = element("div", field.inline ? "embed-field inline" : "embed-field");
      const name = element("div", "embed-field-name");
      name.innerHTML = markdown(field.name, true);
      const value = element("div", "embed-field-value");
      value.innerHTML = markdown(field.value);
      item.append(name, value);
      fields.append(item);
    }
    main.append(fields);
  }
  if (embed.image && embed.image.url) {
    const img = element("img", "embed-image");
    keepRoom(img, embed.image);
    img.src = embed.image.url;
    img.alt = "";
    main.append(img);
  }
  if (embed.footer && embed.footer.text) main.append(element("div", "embed-footer", embed.footer.text));
  node.append(main);
  if (embed.thumbnail && embed.thumbnail.url) {
    const thumb = element("img", "embed-thumbnail");
    thumb.src = embed.thumbnail.url;
    node.append(thumb);
  }
  return node;
}

function keepRoom(img, size) {
  // The picture's room is kept before it loads, as Discord's client keeps it: nothing below it moves under the
  // pointer when it arrives (a button pressed just then would be missed).
  if (!size.width || !size.height) return;
  const scale = Math.min(1, IMAGE_WIDTH / size.width, IMAGE_HEIGHT / size.height);
  img.style.width = `${Math.round(size.width * scale)}px`;
  img.style.aspectRatio = `${size.width} / ${size.height}`;
}

function drawFile(file) {
  if (file.image) {
    const link = element("a", "attachment");
    link.href = file.url;
    link.target = "_blank";
    const img = element("img");
    keepRoom(img, file);
    img.src = file.url;
    img.alt = file.alt;
    img.title = file.alt;
    link.append(img);
    return link;
  }
  const card = element("div", "file");
  card.append(element("span", "file-icon", "📄"));
  const text = element("div", "file-text");
  const link = element("a", "file-name", file.name);
  link.href = file.url;
  link.download = file.name;
  text.append(link, element("span", "file-size", `${(file.size / 1024).toFixed(1)} KB`));
  card.append(text);
  return card;
}

// -- components: buttons and selects ------------------------------------------------------------------------------

const STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };

function emoji(value) {
  if (!value) return "";
  return value.id ? `:${value.name}:` : value.name || "";
}

function drawComponents(message) {
  const box = element("div", "components");
  for (const row of message.components) {
    const line = element("div", "row");
    for (const item of row.components || []) {
      if (item.type === 2) line.append(drawButton(message, item));
      else if (item.type === 3) line.append(drawSelect(message, item));
    }
    box.append(line);
  }
  return box;
}

function showError(message, text) {
  const node = document.querySelector(`[data-message-id="${message.id}"] .body`);
  if (!node || !text) return;
  const old = $(".component-error", node);
  if (old) old.remove();
  node.append(element("div", "component-error", text));
}

function drawButton(message, item) {
  const button = element("button", `button ${STYLES[item.style] || "secondary"}`);
  button.type = "button";
  button.disabled = !!item.disabled;
  if (item.emoji) button.append(element("span", "emoji", emoji(item.emoji)));
  if (item.label) button.append(element("span", "label", item.label));
  if (item.style === 5) {
    button.dataset.url = item.url;
    button.onclick = () => openLink(item.url);
    return button;
  }
  button.dataset.customId = item.custom_id;
  button.onclick = async () => {
    button.classList.add("pending");
    const answer = await ask({ op: "click", message: message.id, custom_id: item.custom_id });
    button.classList.remove("pending");
    showError(message, answer.error);
  };
  return button;
}

function drawSelect(message, item) {
  const select = element("div", "select");
  select.dataset.customId = item.custom_id;
  if (item.disabled) select.classList.add("disabled");
  const face = element("div", "select-face");
  face.append(element("span", "placeholder", item.placeholder || say("choose")), element("span", "chevron", "⌄"));
  const menu = element("div", "select-menu");
  menu.hidden = true;
  const many = (item.max_values || 1) > 1;
  const picked = new Set();
  for (const option of item.options || []) {
    const line = element("div", "select-option");
    line.dataset.value = option.value;
    if (many) line.append(element("span", "check", ""));
    if (option.emoji) line.append(element("span", "emoji", emoji(option.emoji)));
    const words = element("div", "select-words");
    words.append(element("span", "label", option.label));
    if (option.description) words.append(element("span", "description", option.description));
    line.append(words);
    line.onclick = (event) => {
      event.stopPropagation();
      if (!many) {
        close();
        send([option.value]);
        return;
      }
      if (picked.has(option.value)) picked.delete(option.value);
      else if (picked.size < item.max_values) picked.add(option.value);
      line.classList.toggle("picked", picked.has(option.value));
    };
    menu.append(line);
  }
  const send = async (values) => {
    face.querySelector(".placeholder").textContent = (item.options || []).filter((o) => values.includes(o.value)).map((o) => o.label).join(", ");
    select.classList.add("pending");
    const answer = await ask({ op: "select", message: message.id, custom_id: item.custom_id, values });
    select.classList.remove("pending");
    showError(message, answer.error);
  };
  const key = `${message.id}/${item.custom_id}`;
  const close = () => {
    if (menu.hidden) return;
    menu.hidden = true;
    if (openSelect === key) openSelect = null;
    select.classList.remove("open");
    document.removeEventListener("click", outside, true);
    if (many && picked.size >= (item.min_values ?? 1) && picked.size) send(Array.from(picked));
  };
  const outside = (event) => {
    if (!select.isConnected) document.removeEventListener("click", outside, true); // redrawn: the new one listens
    else if (!select.contains(event.target)) close();
  };
  const open = () => {
    menu.hidden = false;
    openSelect = key;
    select.classList.add("open");
    document.addEventListener("click", outside, true);
  };
  face.onclick = () => {
    if (item.disabled) return;
    if (!menu.hidden) return close();
    open();
  };
  select.append(face, menu);
  if (openSelect === key && !item.disabled) open();
  return select;
}

function openLink(url) {
  const jump = /^https:\/\/discord\.com\/channels\/[^/]+\/(\d+)(?:\/(\d+))?$/.exec(url);
  if (!jump) return window.open(url, "_blank", "noopener");
  if (state.channels.some((c) => c.id === jump[1]) && jump[1] !== channel) showChannel(jump[1]);
  const target = jump[2] && document.querySelector(`[data-message-id="${jump[2]}"]`);
  if (target) {
    target.scrollIntoView({ block: "center" });
    target.classList.add("flash");
    setTimeout(() => target.classList.remove("flash"), 1500);
  }
}

// -- Discord's markdown -------------------------------------------------------------------------------------------

const TOKENS = /(`+)([\s\S]*?[^`]|[^`])\1(?!`)|<@!?(\d+)>|<@&(\d+)>|<#(\d+)>|<\/([^:>]+):(\d+)>|<t:(-?\d+)(?::([tTdDfFR]))?>|<a?:(\w+):(\d+)>|\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)|(https?:\/\/[^\s<]+[^\s<.,:;"')\]])/g;

function token(match) {
  const [, , code, user, role, chan, commandName, , stamp, style, emojiName, , masked, maskedUrl, url] = match;
  if (code !== undefined) return `<code>${escapeHtml(code)}</code>`;
  if (user) return `<span class="mention${state && user === state.me ? " me" : ""}" data-user="${user}">@${escapeHtml(userName(user))}</span>`;
  if (role) return `<span class="mention">@role</span>`;
  if (chan) {
    const found = state.channels.find((c) => c.id === chan);
    return `<span class="mention channel-mention" data-channel="${chan}">#${escapeHtml(found ? found.name : "unknown")}</span>`;
  }
  if (commandName) {
    const entry = state.commands.find((c) => c.path.join(" ") === commandName);
    const label = entry ? entry.label : `/${commandName}`;
    return `<span class="mention command-mention" data-path="${escapeHtml(commandName)}">${escapeHtml(label)}</span>`;
  }
  if (stamp) return `<span class="timestamp">${escapeHtml(when(Number(stamp), style || "f"))}</span>`;
  if (emojiName) return `:${escapeHtml(emojiName)}:`;
  if (masked) return link(maskedUrl, escapeHtml(masked));
  if (url) return link(url, escapeHtml(url));
  return escapeHtml(match[0]);
}

function link(url, html) {
  return `<a href="${escapeHtml(url)}" data-url="${escapeHtml(url)}" class="link" target="_blank" rel="noopener">${html}</a>`;
}

function when(seconds, style) {
  const date = new Date(seconds * 1000);
  const lang = locale();
  if (style === "R") {
    const delta = Math.round(seconds - Date.now() / 1000);
    const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
    const [unit, size] = units.find(([, s]) => Math.abs(delta) >= s) || ["second", 1];
    return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(Math.round(delta / size), unit);
  }
  const formats = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" }, D: { dateStyle: "long" },
    f: { dateStyle: "long", timeStyle: "short" }, F: { dateStyle: "full", timeStyle: "short" },
  };
  return date.toLocaleString(lang, formats[style] || formats.f);
}

function inline(text) {
  const pieces = [];
  const marked = text.replace(TOKENS, (...match) => {
    pieces.push(token(match));
    return `\u0000${pieces.length - 1}\u0000`;
  });
  let html = escapeHtml(marked)
    .replace(/\*\*([\s\S]+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__([\s\S]+?)__/g, "<u>$1</u>")
    .replace(/(^|[^\w*])\*(?!\s)([^*\n]+?)\*(?![\w*])/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?!\s)([^_\n]+?)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
    .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler">$1</span>');
  html = html.replace(/\u0000(\d+)\u0000/g, (all, n) => pieces[Number(n)]);
  return html;
}

function markdown(text, short = false) {
  if (short) return inline(text);
  const parts = text.split(/```(?:[a-z]*\n)?([\s\S]*?)```/g);
  let html = "";
  parts.forEach((part, i) => {
    if (i % 2) {
      html += `<pre><code>${escapeHtml(part)}</code></pre>`;
      return;
    }
    let list = false;
    let quote = false;
    for (const line of part.split("\n")) {
      const item = /^\s*[-*] (.*)$/.exec(line);
      const quoted = /^> ?(.*)$/.exec(line);
      if (list && !item) { html += "</ul>"; list = false; }
      if (quote && !quoted) { html += "</blockquote>"; quote = false; }
      if (item) {
        if (!list) { html += "<ul>"; list = true; }
        html += `<li>${inline(item[1])}</li>`;
      } else if (quoted) {
        if (!quote) { html += "<blockquote>"; quote = true; }
        html += `${inline(quoted[1])}<br>`;
      } else if (/^-# /.test(line)) {
        html += `<div class="subtext">${inline(line.slice(3))}</div>`;
      } else if (/^#{1,3} /.test(line)) {
        const level = line.indexOf(" ");
        html += `<h${level + 2} class="heading">${inline(line.slice(level + 1))}</h${level + 2}>`;
      } else {
        html += `${inline(line)}<br>`;
      }
    }
    if (list) html += "</ul>";
    if (quote) html += "</blockquote>";
  });
  return html.replace(/(<br>)+$/, "");
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest("a.link");
  if (anchor && /^https:\/\/discord\.com\/channels\//.test(anchor.dataset.url)) {
    event.preventDefault();
    openLink(anchor.dataset.url);
  }
  const mention = event.target.closest(".command-mention");
  if (mention) {
    const entry = state.commands.find((c) => c.path.join(" ") === mention.dataset.path);
    if (entry) openCommand(entry);
  }
  const spoiler = event.target.closest(".spoiler");
  if (spoiler) spoiler.classList.add("shown");
});

// -- the composer: messages and slash commands --------------------------------------------------------------------

function composerError(text) {
  $("#composer-error").textContent = text || "";
}

function commandMenu() {
  const text = $("#text").value;
  const menu = $("#command-menu");
  if (command || !text.startsWith("/")) {
    menu.hidden = true;
    return;
  }
  const typed = text.slice(1).toLowerCase();
  const found = state.commands.filter((c) => c.label.slice(1).toLowerCase().startsWith(typed) || c.path.join(" ").startsWith(typed));
  menu.textContent = "";
  if (!found.length) menu.append(element("div", "empty", say("no_command")));
  for (const entry of found) {
    const line = element("div", "command-choice");
    line.dataset.path = entry.path.join(" ");
    line.append(element("span", "command-label", entry.label), element("span", "command-description", entry.description));
    line.onmousedown = (event) => {
      event.preventDefault();
      openCommand(entry);
    };
    menu.append(line);
  }
  menu.hidden = false;
}

function openCommand(entry) {
  command = entry;
  $("#command-menu").hidden = true;
  $("#text").value = "";
  $("#text").hidden = true;
  composerError("");
  const form = $("#command-form");
  $(".command-name", form).textContent = entry.label;
  $(".command-description", form).textContent = entry.description;
  const box = $(".command-options", form);
  box.textContent = "";
  for (const option of entry.options) box.append(optionField(option));
  form.hidden = false;
  const first = $("input, select", box);
  if (first) first.focus();
  else $("#send").focus();
}

function closeCommand() {
  command = null;
  $("#command-form").hidden = true;
  $("#suggestions").hidden = true;
  $("#text").hidden = false;
  $("#text").value = "";
}

function optionField(option) {
  const field = element("label", option.required ? "option-field required" : "option-field");
  field.dataset.option = option.name;
  const head = element("span", "option-name", option.label);
  if (!option.required) head.append(element("span", "optional", ` · ${say("optional")}`));
  field.append(head);
  let input;
  if (option.choices.length || option.type === 5) {
    input = element("select");
    input.append(new Option("", ""));
    const choices = option.type === 5 ? [{ label: say("true"), value: "true" }, { label: say("false"), value: "false" }] : option.choices;
    for (const choice of choices) input.append(new Option(choice.label, String(choice.value)));
  } else if (option.type === 6) {
    input = element("select");
    input.append(new Option("", ""));
    for (const p of state.people) input.append(new Option(p.name, p.id));
  } else {
    input = element("input");
    input.autocomplete = "off";
    if ((option.type === 4 || option.type === 10) && !option.autocomplete) {
      input.type = "number";
      if (option.min_value !== undefined) input.min = option.min_value;
      if (option.max_value !== undefined) input.max = option.max_value;
    }
    if (option.max_length) input.maxLength = option.max_length;
    if (option.autocomplete) {
      input.addEventListener("focus", () => suggest(option, input));
      input.addEventListener("input", () => {
        delete input.dataset.value;
        clearTimeout(input.timer);
        input.timer = setTimeout(() => suggest(option, input), 200);
      });
    }
  }
  input.dataset.optionInput = option.name;
  input.placeholder = option.description;
  input.title = option.description;
  field.append(input);
  return field;
}

function filledOptions(skip) {
  const values = {};
  for (const input of $$("[data-option-input]", $("#command-form"))) {
    if (input.dataset.optionInput === skip) continue;
    const value = input.dataset.value !== undefined ? JSON.parse(input.dataset.value) : input.value;
    if (value !== "") values[input.dataset.optionInput] = value;
  }
  return values;
}

async function suggest(option, input) {
  completing = option.name;
  const box = $("#suggestions");
  box.textContent = "";
  box.append(element("div", "empty", say("loading")));
  box.hidden = false;
  const options = filledOptions(option.name);
  options[option.name] = input.value;
  const answer = await ask({ op: "complete", channel, path: command.path, options, focused: option.name });
  if (completing !== option.name || !command) return;
  box.textContent = "";
  if (answer.error) {
    composerError(answer.error);
    box.hidden = true;
    return;
  }
  if (!answer.choices.length) box.append(element("div", "empty", say("no_choices")));
  for (const choice of answer.choices) {
    const line = element("div", "suggestion", choice.label);
    line.dataset.value = JSON.stringify(choice.value);
    line.onmousedown = (event) => {
      event.preventDefault();
      input.value = choice.label;
      input.dataset.value = JSON.stringify(choice.value);
      box.hidden = true;
      completing = null;
      const fields = $$("[data-option-input]", $("#command-form"));
      const next = fields[fields.indexOf(input) + 1];
      if (next) next.focus();
      else $("#send").focus();
    };
    box.append(line);
  }
}

async function send() {
  composerError("");
  if (command) {
    const answer = await ask({ op: "slash", channel, path: command.path, options: filledOptions(null) });
    if (answer.error) return composerError(answer.error);
    closeCommand();
    $("#text").focus();
    return;
  }
  const text = $("#text").value;
  if (!text.trim()) return;
  if (text.startsWith("/")) {
    const entry = state.commands.find((c) => c.label === text.trim() || `/${c.path.join(" ")}` === text.trim());
    if (entry) return openCommand(entry);
    return composerError(say("no_command"));
  }
  const answer = await ask({ op: "say", channel, text });
  if (answer.error) return composerError(answer.error);
  $("#text").value = "";
}

// -- forms (modals) -----------------------------------------------------------------------------------------------

function drawForm() {
  const form = state.forms[0];
  const overlay = $("#overlay");
  if (!form) {
    overlay.hidden = true;
    overlay.textContent = "";
    shownForm = null;
    return;
  }
  if (shownForm === form.interaction) return;
  shownForm = form.interaction;
  overlay.textContent = "";
  const modal = element("form", "modal");
  modal.dataset.interaction = form.interaction;
  modal.append(element("h3", "modal-title", form.title));
  const fields = element("div", "modal-fields");
  for (const top of form.components) {
    if (top.type === 10) {
      const text = element("div", "modal-text");
      text.innerHTML = markdown(top.content || "");
      fields.append(text);
      continue;
    }
    const inputs = top.type === 1 ? top.components.map((c) => [c, c.label, null]) : [[top.component, top.label, top.description]];
    for (const [input, label, description] of inputs) {
      const field = element("label", "field");
      const required = input.required !== false;
      field.append(element("span", "field-label", (label || "") + (required ? " *" : "")));
      if (description) field.append(element("span", "field-description", description));
      const box = element(input.style === 2 ? "textarea" : "input");
      box.dataset.customId = input.custom_id;
      if (input.placeholder) box.placeholder = input.placeholder;
      if (input.value) box.value = input.value;
      if (input.max_length) box.maxLength = input.max_length;
      if (input.min_length) box.minLength = input.min_length;
      box.required = required;
      field.append(box);
      fields.append(field);
    }
  }
  modal.append(fields, element("div", "modal-error"));
  const foot = element("footer");
  const cancel = element("button", "cancel", say("cancel"));
  cancel.type = "button";
  cancel.onclick = () => ask({ op: "close_form", interaction: form.interaction });
  const submit = element("button", "submit", say("submit"));
  submit.type = "submit";
  foot.append(cancel, submit);
  modal.append(foot);
  modal.onsubmit = async (event) => {
    event.preventDefault();
    const values = {};
    for (const box of $$("[data-custom-id]", modal)) values[box.dataset.customId] = box.value;
    const answer = await ask({ op: "submit", interaction: form.interaction, values });
    if (answer.error) $(".modal-error", modal).textContent = answer.error;
  };
  overlay.append(modal);
  overlay.hidden = false;
  const first = $("input, textarea", modal);
  if (first) first.focus();
}

// -- start --------------------------------------------------------------------------------------------------------

function start() {
  $("#text").addEventListener("input", commandMenu);
  $("#text").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      const first = $("#command-menu .command-choice");
      if (!$("#command-menu").hidden && first) first.dispatchEvent(new MouseEvent("mousedown"));
      else send();
    }
  });
  $("#command-form").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && $("#suggestions").hidden) {
      event.preventDefault();
      send();
    } else if (event.key === "Escape") closeCommand();
  });
  $("#command-form").addEventListener("focusout", () => setTimeout(() => {
    if (!$("#command-form").contains(document.activeElement)) $("#suggestions").hidden = true;
  }, 150));
  $(".command-cancel").onclick = closeCommand;
  $("#send").onclick = send;
  $("#add-person").onclick = () => ask({ op: "add_person" });
  $("#language").onchange = (event) => ask({ op: "locale", locale: event.target.value });
  for (const box of $$(".messages")) box.addEventListener("scroll", () => (box.dataset.stick = nearBottom(box) ? "yes" : "no"));
  window.addEventListener("hashchange", () => {
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (state && wanted && person(state.me).name !== wanted) ask({ op: "as", person: wanted });
  });
  connect();
}

start();

// feedsite's search page (search/index.html): looks up the words of ?q= in the Pagefind index
// published with the site (pagefind/) and lists the items found. Results are built with DOM calls
// and textContent; Pagefind's excerpts are parsed in an inert document and only their text and
// <mark> highlights are kept, so nothing from a feed is ever inserted as markup.
const root = new URL("../", import.meta.url);
const form = document.getElementById("search-form");
const input = document.getElementById("search-query");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const query = (new URLSearchParams(location.search).get("q") || "").trim();
const shown = 50;
// The page's language's texts (data-messages, from the catalogue of feeds.yml's `language`); a
// counted text has a form per plural category, chosen as the language counts.
const messages = JSON.parse((status && status.dataset.messages) || "{}");
const plurals = new Intl.PluralRules(document.documentElement.lang || "en");
function text(key, values, fallback) {
  let entry = messages[key];
  if (entry && typeof entry === "object") entry = entry[plurals.select(values.count)] || entry.other;
  return (entry || fallback).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

if (input) input.value = query;

if (location.protocol === "file:") {
  status.textContent = text(
    "search_from_file",
    {},
    "Search works when the site is served over http(s) (feedsite serve, or any web server), not from a file.",
  );
} else if (query) {
  search(query).catch(() => {
    status.textContent = text("search_failed", {}, "The search index could not be loaded.");
  });
} else if (input) {
  input.focus();
}

async function search(words) {
  status.textContent = text("searching", { words }, "Searching for “{words}”…");
  const pagefind = await import(new URL("pagefind/pagefind.js", root).href);
  await pagefind.options({ baseUrl: root.pathname });
  const found = await pagefind.search(words);
  const results = await Promise.all(found.results.slice(0, shown).map((result) => result.data()));
  const count = found.results.length;
  status.textContent =
    count === 0
      ? text("search_none", { words }, "No items found for “{words}”.")
      : count > shown
        ? text("search_best", { count, words, shown }, "{count} items found for “{words}”; the {shown} best:")
        : text("search_found", { count, words }, "{count} items found for “{words}”:");
  list.replaceChildren(...results.map(item));
}

function item(data) {
  const entry = document.createElement("li");
  entry.className = "summary";
  const heading = document.createElement("h2");
  const link = document.createElement("a");
  link.href = data.url;
  link.textContent = (data.meta && data.meta.title) || data.url;
  heading.append(link);
  const meta = document.createElement("p");
  meta.className = "meta";
  meta.textContent = [data.meta && data.meta.feed, data.meta && data.meta.date].filter(Boolean).join(" · ");
  const excerpt = document.createElement("p");
  excerpt.className = "excerpt";
  appendExcerpt(excerpt, data.excerpt || "");
  entry.append(heading, meta, excerpt);
  return entry;
}

function appendExcerpt(target, html) {
  const parsed = new DOMParser().parseFromString(`<p>${html}</p>`, "text/html");
  const paragraph = parsed.body.firstElementChild;
  for (const node of paragraph ? paragraph.childNodes : []) {
    if (node.nodeName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      target.append(mark);
    } else {
      target.append(node.textContent);
    }
  }
}

if (form) {
  form.addEventListener("submit", (event) => {
    if (!input.value.trim()) event.preventDefault();
  });
}

// feedsite's search page (search/index.html): looks up the words of ?q= in the Pagefind index
// published with the site (pagefind/, one bundle per shard) and lists the items found. Results are
// built with DOM calls and textContent; Pagefind's excerpts are parsed in an inert document and
// only their text and <mark> highlights are kept, so nothing from a feed is ever inserted as markup.
const root = new URL("../", import.meta.url);
const form = document.getElementById("search-form");
const input = document.getElementById("search-query");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const query = (new URLSearchParams(location.search).get("q") || "").trim();
const shown = 50;
const pagesRead = 40;
// The page's language's texts (data-messages, from the catalogue of feeds.yml's `language`); a
// counted text has a form per plural category, chosen as the language counts.
const messages = JSON.parse((status && status.dataset.messages) || "{}");
const plurals = new Intl.PluralRules(document.documentElement.lang || "en");
function text(key, values, fallback) {
  let message = messages[key];
  if (message && typeof message === "object") message = message[plurals.select(values.count)] || message.other;
  return (message || fallback).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
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
  // The index is in shards (pagefind/<period>/, newest first in pagefind/shards.json): the newest
  // is loaded, the others are merged into it, and one search covers them all.
  const listed = await (await fetch(new URL("pagefind/shards.json", root))).json();
  const shards = (listed.shards || []).filter((name) => /^[0-9a-z-]+$/.test(name));
  if (shards.length === 0) throw new Error("no search index");
  const pagefind = await import(new URL(`pagefind/${shards[0]}/pagefind.js`, root).href);
  await pagefind.options({ baseUrl: root.pathname });
  for (const name of shards.slice(1)) {
    await pagefind.mergeIndex(new URL(`pagefind/${name}/`, root).pathname, { baseUrl: root.pathname });
  }
  // Each Pagefind result is a page of up to 25 items, one sub-result per item that matched: the
  // best pages are read and their items ranked by their own scores.
  const found = await pagefind.search(words);
  const pages = await Promise.all(found.results.slice(0, pagesRead).map((result) => result.data()));
  const items = pages
    .flatMap((page) => page.sub_results || [])
    .map(entry)
    .filter(Boolean)
    .sort((a, b) => b.score - a.score);
  const count = items.length;
  const more = found.results.length > pagesRead;
  status.textContent =
    count === 0
      ? text("search_none", { words }, "No items found for “{words}”.")
      : more
        ? text("search_more", { count, words, shown: Math.min(shown, count) }, "More than {count} items found for “{words}”; the {shown} best:")
        : count > shown
          ? text("search_best", { count, words, shown }, "{count} items found for “{words}”; the {shown} best:")
          : text("search_found", { count, words }, "{count} items found for “{words}”:");
  list.replaceChildren(...items.slice(0, shown).map(item));
}

// A sub-result's anchor is the item's heading id: its page, feed and day, percent-encoded and
// joined by "|" (feedsite's SearchIndex.anchor). Anything else is not an item.
function entry(sub) {
  const hash = (sub.url || "").indexOf("#");
  if (hash < 0) return null;
  const parts = sub.url.slice(hash + 1).split("|");
  if (parts.length !== 3) return null;
  let path, feed, day;
  try {
    [path, feed, day] = parts.map(decodeURIComponent);
  } catch {
    return null;
  }
  if (!/^items\/[a-z0-9._~\/-]+$/i.test(path) || path.includes("..")) return null;
  const score = (sub.weighted_locations || []).reduce((sum, location) => sum + (location.balanced_score || 0), 0);
  const meta = [feed, day].filter(Boolean).join(" · ");
  return { href: new URL(path, root).href, title: sub.title || path, meta, excerpt: sub.excerpt || "", score };
}

function item(found) {
  const row = document.createElement("li");
  row.className = "summary";
  const heading = document.createElement("h2");
  const link = document.createElement("a");
  link.href = found.href;
  link.textContent = found.title;
  heading.append(link);
  const meta = document.createElement("p");
  meta.className = "meta";
  meta.textContent = found.meta;
  const excerpt = document.createElement("p");
  excerpt.className = "excerpt";
  appendExcerpt(excerpt, found.excerpt);
  row.append(heading, meta, excerpt);
  return row;
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

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

if (input) input.value = query;

if (location.protocol === "file:") {
  status.textContent = "Search works when the site is served over http(s) (feedsite serve, or any web server), not from a file.";
} else if (query) {
  search(query).catch(() => {
    status.textContent = "The search index could not be loaded.";
  });
} else if (input) {
  input.focus();
}

async function search(words) {
  status.textContent = `Searching for “${words}”…`;
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
  const found = await pagefind.search(words);
  const results = await Promise.all(found.results.slice(0, shown).map((result) => result.data()));
  const count = found.results.length;
  status.textContent =
    count === 0
      ? `No items found for “${words}”.`
      : `${count} ${count === 1 ? "item" : "items"} found for “${words}”` + (count > shown ? `; the ${shown} best:` : ":");
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

// The static book's script (tools.book): the current page's sections in the
// sidebar, and a plain substring search over the sections listed in search-index.js
// (window.BOOK_SEARCH), offline, no server.
(() => {
  const current = document.querySelector(".book-toc .book-current");
  const headings = document.querySelectorAll("main h2[id]");
  if (current && headings.length) {
    const list = document.createElement("ol");
    list.className = "book-sections";
    for (const h of headings) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#" + h.id;
      link.textContent = h.textContent.replace("¶", "").trim();
      item.append(link);
      list.append(item);
    }
    current.append(list);
  }
})();
(() => {
  const root = document.body.dataset.bookRoot || "";
  const form = document.querySelector(".book-search");
  if (!form) return;
  const input = form.querySelector("input");
  const list = form.querySelector(".book-results");
  const escape = (s) => s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const show = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter((w) => w.length > 1);
    list.innerHTML = "";
    if (!words.length) return;
    const hits = [];
    for (const page of window.BOOK_SEARCH || []) {
      for (const s of page.sections) {
        const text = (s.heading + " " + s.text).toLowerCase();
        if (!words.every((w) => text.includes(w))) continue;
        const at = s.text.toLowerCase().indexOf(words[0]);
        const snippet = at < 0 ? s.text.slice(0, 90) : s.text.slice(Math.max(0, at - 40), at + 60);
        hits.push(`<li><a href="${root}${page.href}${s.anchor ? "#" + s.anchor : ""}">` +
                  `${escape(page.title)}${s.heading ? " › " + escape(s.heading) : ""}</a>` +
                  `<small>…${escape(snippet)}…</small></li>`);
        if (hits.length >= 25) break;
      }
      if (hits.length >= 25) break;
    }
    list.innerHTML = hits.length ? hits.join("") : "<li>No match.</li>";
  };
  input.addEventListener("input", show);
})();

// Lecture mode's page (make lecture: Voilà with this template): keys to drive it from the
// front of the room, documented in a small bar at the bottom right.
//   space play/pause, ←/→ scrub, Home/End, 1–9 presets: sent to the scene most in view (a
//     scene with the focus handles them itself, scene.js);
//   N / PageDown next section, P / PageUp previous section (a clicker's keys): the next or
//     previous heading (h1, h2) scrolled to the top;
//   ? opens or closes the keys' bar.
(() => {
  const HEADINGS = "#rendered_cells h1, #rendered_cells h2";
  const INTERACTIVE = "button, input, textarea, select, a, [role=slider], [contenteditable]";
  const SCENE_KEYS = [" ", "ArrowLeft", "ArrowRight", "Home", "End", "1", "2", "3", "4", "5",
    "6", "7", "8", "9"];

  const shown = (el) => el.getBoundingClientRect().height > 0;
  function inView(el) {
    const r = el.getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
  }
  function currentScene() {
    let best = null, most = 0;
    for (const scene of document.querySelectorAll(".companion-scene")) {
      const seen = inView(scene);
      if (seen > most) { best = scene; most = seen; }
    }
    return best;
  }
  function section(step) {
    const heads = [...document.querySelectorAll(HEADINGS)].filter(shown);
    const below = heads.filter((h) => h.getBoundingClientRect().top > 8);
    const above = heads.filter((h) => h.getBoundingClientRect().top < -8);
    const target = step > 0 ? below[0] : above[above.length - 1];
    if (target) target.scrollIntoView({ block: "start" });
  }

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || !target.closest) return;
    if (target.closest(INTERACTIVE) || target.closest(".companion-scene")) return;
    if (event.key === "n" || event.key === "PageDown") section(1);
    else if (event.key === "p" || event.key === "PageUp") section(-1);
    else if (event.key === "?") bar.open = !bar.open;
    else if (SCENE_KEYS.includes(event.key)) {
      const scene = currentScene();
      if (!scene) return;
      scene.focus({ preventScroll: true });
      scene.dispatchEvent(new KeyboardEvent("keydown",
        { key: event.key, shiftKey: event.shiftKey, bubbles: true, cancelable: true }));
    } else return;
    event.preventDefault();
  });

  // The keys' bar: a small button in the bottom right corner that opens on a click (or "?")
  // into the keys and the section buttons; closed, it takes no room from a scene or figure
  // (the page keeps --companion-bottom-reserve free for it).
  const bar = document.createElement("details");
  bar.className = "companion-lecture-keys";
  bar.setAttribute("aria-label", "lecture keys");
  const summary = document.createElement("summary");
  summary.textContent = "⌨ keys";
  summary.title = "lecture keys (?)";
  const go = (label, title, step) => {
    const b = document.createElement("button");
    b.textContent = label; b.title = title;
    b.addEventListener("click", () => { section(step); b.blur(); });
    return b;
  };
  const help = document.createElement("span");
  help.textContent = "space play/pause · ←/→ scrub · 1–9 presets · N/P section · ? keys";
  bar.append(summary, go("‹ section", "previous section (P, PageUp)", -1), help,
             go("section ›", "next section (N, PageDown)", 1));
  document.body.appendChild(bar);
})();

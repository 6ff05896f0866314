// Lecture mode's page (make lecture: Voilà with this template): keys to drive it from the
// front of the room, documented in a small bar at the bottom right.
//   space play/pause, ←/→ scrub, Home/End: sent to the scene most in view (a scene with the
//     focus handles them itself, scene.js, brought into view first by space); 1–9 press
//     that preset of the explorer in view (the one nearest the screen's middle, counting its
//     scene), with or without a scene (scene.js then moves the focus to its scene).  Focus
//     left in an explorer or scene scrolled off the screen does not keep these keys: it is
//     dropped and the key goes to the one in view (space with no scene in view does nothing);
//   N / PageDown next section, P / PageUp previous section (a clicker's keys): the next or
//     previous heading of the prose (h1, h2, h3), prediction or answer to one (cells tagged
//     predict, answers-prediction) scrolled to the top — from the page's top the first press
//     moves to the first section below the title;
//     from a control the mouse last put the focus on (a slider's handle, a preset button) too:
//     the clicker still moves on, where a control the keyboard reached (Tab) keeps its keys
//     (PageDown/PageUp move an ARIA slider), as does a text field;
//   ? opens or closes the keys' bar.
// Predict, play, explain: a prose cell that answers a prediction (tagged answers-prediction),
// or a code cell so tagged below the explorer (what it prints answers too), is held back while the explorer above it hides a predict preset's outcome; once the motion
// has been played (or revealed) it shows in place, and N goes to it next.
(() => {
  // The page's goodbye: Voilà's beforeunload beacon asks the server to shut the page's kernel
  // down and sends the _xsrf cookie back as a form field, which tornado checks against the
  // cookie.  Voilà's notebook page never sets that cookie (a warm page is rendered before
  // anyone asks for it), so every goodbye was refused: the page sets one, a random token of
  // the form tornado accepts (hex, "version 1"), unless the server already did.
  if (!/(^|;\s*)_xsrf=/.test(document.cookie)) {
    const token = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    document.cookie = `_xsrf=${token}; path=/; SameSite=Strict`;
  }

  // A markdown cell's tags are classes of its rendered markdown (nbconvert's lab template).
  const ANSWER = "#rendered_cells .jp-MarkdownCell .celltag_answers-prediction";
  // A code cell's are the cell's: one after the explorer (a check it prints) is held too.
  const ANSWER_CODE = "#rendered_cells .jp-CodeCell.celltag_answers-prediction";
  const PREDICT = "#rendered_cells .jp-MarkdownCell .celltag_predict";
  const HEADINGS = [1, 2, 3].map((n) => `#rendered_cells .jp-MarkdownCell h${n}`)
    .concat([PREDICT, ANSWER.replace(".jp-MarkdownCell", ".jp-MarkdownCell:not(.companion-held)")])
    .join(", ");
  const EXPLORER = ".companion-explorer", PRESET = ".companion-preset";
  const PREDICTING = "companion-predicting", HELD = "companion-held";
  const INTERACTIVE = "button, input, textarea, select, a, [role=slider], [contenteditable]";
  const SCENE_KEYS = [" ", "ArrowLeft", "ArrowRight", "Home", "End"];
  const PAGE_KEYS = ["n", "p", "PageDown", "PageUp", "?"];

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
  // Each explorer with its scene (the next scene before the next explorer), in page order.
  function stretches() {
    const found = [];
    for (const el of document.querySelectorAll(`${EXPLORER}, .companion-scene`)) {
      if (el.matches(EXPLORER)) found.push({ explorer: el, scene: null, parts: [el] });
      else if (found.length && !found[found.length - 1].scene) {
        found[found.length - 1].scene = el; found[found.length - 1].parts.push(el);
      }
    }
    return found.filter((s) => shown(s.explorer));
  }
  // How far a stretch is from the screen's middle (0 when it spans it): any stretch partly
  // on the screen is nearer than any off it.
  function distance(stretch) {
    const rects = stretch.parts.map((el) => el.getBoundingClientRect());
    const top = Math.min(...rects.map((r) => r.top)), bottom = Math.max(...rects.map((r) => r.bottom));
    const middle = window.innerHeight / 2;
    return Math.max(0, top - middle, middle - bottom);
  }
  // The explorer in view: of those on the screen the one nearest its middle (off it, the
  // nearest one).
  function nearestStretch() {
    let best = null;
    for (const s of stretches()) if (!best || distance(s) < distance(best)) best = s;
    return best;
  }
  // The top of the box that scrolls the page (Voilà's lab template: #rendered_cells, whose
  // top is a little below the screen's): a heading scrolled to the top lands just below it.
  function scrollerTop(el) {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowY;
      if ((o === "auto" || o === "scroll") && a.scrollHeight > a.clientHeight) {
        return a.getBoundingClientRect().top;
      }
    }
    return 0;
  }
  // The next (step 1) or previous (-1) heading scrolled to the top.  "Next" is a heading
  // clearly below the top (NEAR px): the title of a page just opened, a few pixels from the
  // top, is where the reader already is, and the first press goes to the section below it.
  // A heading the page cannot bring up (near its end) is passed over for the next.
  const NEAR = 48;
  function section(step) {
    const heads = [...document.querySelectorAll(HEADINGS)].filter(shown);
    if (!heads.length) return;
    const top = scrollerTop(heads[0]);
    const at = (h) => h.getBoundingClientRect().top - top;
    const candidates = step > 0 ? heads.filter((h) => at(h) > NEAR)
      : heads.filter((h) => at(h) < -8).reverse();
    for (const target of candidates) {
      const before = at(target);
      target.scrollIntoView({ block: "start" });
      if (Math.abs(at(target) - before) > 2) return;
    }
  }

  // The explorer a cell answers: the last one above it, after the last prediction above it.
  function answered(cell) {
    let explorer = null;
    for (const c of document.querySelectorAll("#rendered_cells .jp-Cell")) {
      if (c === cell) return explorer;
      if (c.querySelector(":scope > .jp-Cell-inputWrapper .celltag_predict")) explorer = null;
      const inside = c.querySelectorAll(EXPLORER);
      if (inside.length) explorer = inside[inside.length - 1];
    }
    return null;
  }
  let pending = false;
  function holdAnswers() {
    pending = false;
    for (const tagged of document.querySelectorAll(`${ANSWER}, ${ANSWER_CODE}`)) {
      const cell = tagged.closest(".jp-Cell"), explorer = answered(cell);
      cell.classList.toggle(HELD, !!explorer && explorer.classList.contains(PREDICTING));
    }
  }
  // Explorers appear, and enter and leave predict mode, as the kernel says (ipywidgets).
  new MutationObserver(() => {
    if (!pending) { pending = true; requestAnimationFrame(holdAnswers); }
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
                              attributeFilter: ["class"] });

  // How the focus reached where it is: by the keyboard (Tab, a key that moved it) or not (a
  // click, or a script after one).  Capturing, so that a control's own handler is not first.
  let lastKeyboard = false, focusByKeyboard = false;
  document.addEventListener("pointerdown", () => { lastKeyboard = false; }, true);
  document.addEventListener("keydown", () => { lastKeyboard = true; }, true);
  document.addEventListener("focusin", () => { focusByKeyboard = lastKeyboard; }, true);
  // A clicker's key on a control the mouse focused: the section moves, the control does not
  // change (a slider moved would also end a prediction), and the focus leaves it.
  const TEXT = "textarea, [contenteditable], input:not([type=range], [type=checkbox], "
    + "[type=radio], [type=button], [type=submit], [type=reset])";
  const STEPS = new Map([["n", 1], ["PageDown", 1], ["p", -1], ["PageUp", -1]]);
  document.addEventListener("keydown", (event) => {
    const target = event.target, step = STEPS.get(event.key);
    if (!step || event.ctrlKey || event.metaKey || event.altKey || !target.closest) return;
    if (focusByKeyboard || !target.closest(INTERACTIVE) || target.closest(TEXT)) return;
    event.preventDefault(); event.stopPropagation();
    target.blur();
    section(step);
  }, true);
  // A preset or scene key while the focus sits in an explorer or scene that scrolled off the
  // screen (a preset pressed there, then N): that focus is dropped and the key goes to the
  // explorer in view, as from the page (its scene.js handler would act off the screen).
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || !target.closest) return;
    if (!/^[1-9]$/.test(event.key) && !SCENE_KEYS.includes(event.key)) return;
    const holder = stretches().find((s) => s.parts.some((el) => el.contains(target)));
    if (!holder || holder.parts.some((el) => inView(el) > 0)) return;
    target.blur();
    event.stopPropagation();
    pageKey(event);
  }, true);
  // Space plays the scene with the focus (after a preset): on a narrow screen, where the
  // scene went below its explorer's figure, the scene is first brought into view.
  document.addEventListener("keydown", (event) => {
    const scene = event.key === " " && event.target.closest
      && event.target.closest(".companion-scene");
    if (scene && inView(scene) < scene.getBoundingClientRect().height / 2) {
      scene.scrollIntoView({ block: "start" });
    }
  }, true);

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || !target.closest) return;
    if (target.closest(INTERACTIVE)) return;
    // A scene with the focus (after a preset key) keeps its own keys; N, P and the page keys
    // still move on, so that after the play the next press reaches the explanation.
    if (target.closest(".companion-scene") && !PAGE_KEYS.includes(event.key)) return;
    if (event.key === "n" || event.key === "PageDown") section(1);
    else if (event.key === "p" || event.key === "PageUp") section(-1);
    else if (event.key === "?") bar.open = !bar.open;
    else if (!pageKey(event)) return;
    event.preventDefault();
  });
  // A preset key (to the explorer in view) or a scene key (to the scene most in view; space
  // with none does nothing, rather than scroll the page away); false for any other key.
  function pageKey(event) {
    if (/^[1-9]$/.test(event.key)) {
      const stretch = nearestStretch();
      const preset = stretch && stretch.explorer.querySelectorAll(PRESET)[Number(event.key) - 1];
      if (preset) preset.click();
    } else if (SCENE_KEYS.includes(event.key)) {
      const scene = currentScene();
      if (scene) {
        scene.focus({ preventScroll: true });
        scene.dispatchEvent(new KeyboardEvent("keydown",
          { key: event.key, shiftKey: event.shiftKey, bubbles: true, cancelable: true }));
      }
    } else return false;
    event.preventDefault();
    return true;
  }

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

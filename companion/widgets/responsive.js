// Width probe of an explorer (companion/widgets/responsive.py): a zero-height strip as wide as
// the explorer reports the width its figure may take, so the kernel can size the figure to it.
//
// ipympl's canvas has a fixed size in pixels, set by matplotlib (figsize); its front end never
// follows its container.  So the width is measured here and the figure is resized in the
// kernel (Figure.set_size_inches, which ipympl forwards as a 'resize' message).
//
// It reports the height left for the figure too: the screen's height below the probe, measured
// from the top of its container (the explorer scrolled to the top of the screen), less the
// room the page keeps at the bottom (lecture mode's key button: the CSS variable
// --companion-bottom-reserve).  A figure beside its scene (lecture mode) is bounded by it.
//
// It also makes its container's live figure and controls usable without sight or a mouse
// (WCAG 2.2, issue 38), which ipympl's and ipywidgets' front ends leave undone:
// * ipympl's canvas keeps every key (its keydown handler calls preventDefault), so Tab and
//   Shift+Tab could not leave it (a keyboard trap, 2.1.2): Tab and Escape go past it here, in
//   a capture listener that runs before ipympl's (Escape still reaches JupyterLab);
// * the canvas is an image named by the figure's description (model "description", which
//   changes with the motion: 1.1.1);
// * the status line (STATUS_CLASS) is a polite live region (4.1.3);
// * in the whole page (decoratePage): the icon-only buttons of ipywidgets' Play control are
//   named by their icons, each slider handle by its label, with its value rounded to the
//   slider's step and the unit of its label ("[rad/s]"), not "1.0199999999999998" (4.1.2);
//   outputs that scroll take the keyboard focus (2.1.1).

const CANVAS = ".jupyter-matplotlib-canvas-div";
const STATUS_CLASS = "companion-status";
const PASS_KEYS = new Set(["Tab", "Escape"]);
// ipywidgets' Play control draws its buttons as Font Awesome icons without text.
const ICON_NAMES = { "fa-play": "play", "fa-pause": "pause", "fa-stop": "stop",
                     "fa-retweet": "repeat", "fa-repeat": "repeat" };

// Keys a figure does not keep: the capture listener on the canvas runs before ipympl's
// (bubbling) one and stops it; the browser then moves the focus (Tab).  Escape is sent on
// from the canvas's parent, so that JupyterLab still leaves edit mode with it.
function passKey(event) {
  if (!PASS_KEYS.has(event.key)) return;
  event.stopImmediatePropagation();
  if (event.key === "Escape" && event.target.parentElement) {
    event.target.parentElement.dispatchEvent(new KeyboardEvent(event.type, {
      key: event.key, code: event.code, keyCode: event.keyCode, which: event.which,
      bubbles: true, cancelable: true, composed: true,
      shiftKey: event.shiftKey, ctrlKey: event.ctrlKey, altKey: event.altKey,
      metaKey: event.metaKey,
    }));
  }
}

function setIfChanged(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

// A handle's value rounded to its slider's step ("1.0199999999999998" at step 0.02 reads
// "1.02"), with the unit its label ends with ("ω [rad/s]" → "1.02 rad/s").
function valueText(handle, label) {
  const target = handle.closest(".noUi-target");
  const step = Number(target && target.noUiSlider ? target.noUiSlider.options.step : NaN);
  const value = Number(handle.getAttribute("aria-valuenow"));
  if (handle.getAttribute("aria-valuenow") === null || !Number.isFinite(value)) return null;
  const decimals = Number.isFinite(step) && step > 0
    ? Math.min(6, (String(step).split(".")[1] || "").length) : 4;
  const unit = (label.match(/\[([^\]]+)\]\s*$/) || [])[1];
  return value.toFixed(decimals) + (unit ? " " + unit : "");
}

// A slider handle named by its slider's label, its value rounded (any slider of the page:
// the explorers' and those beside a scene alike).
function nameHandle(handle) {
  const slider = handle.closest(".widget-slider");
  const labelNode = slider && slider.querySelector(".widget-label");
  const label = labelNode ? labelNode.textContent.trim() : "";
  if (label) setIfChanged(handle, "aria-label", label);
  const text = valueText(handle, label);
  if (text !== null) setIfChanged(handle, "aria-valuetext", text);
}

function namePlayButtons(root) {
  for (const button of root.querySelectorAll(".widget-play button")) {
    const icon = button.querySelector("i");
    const name = icon && [...icon.classList].map((c) => ICON_NAMES[c]).find(Boolean);
    if (name && !button.textContent.trim()) setIfChanged(button, "aria-label", name);
  }
}

function decorate(scope, model) {
  const description = model.get("description");
  for (const canvas of scope.querySelectorAll(CANVAS)) {
    if (!canvas.dataset.companionKeys) {
      canvas.dataset.companionKeys = "1";
      canvas.addEventListener("keydown", passKey, true);
      canvas.addEventListener("keyup", passKey, true);
    }
    setIfChanged(canvas, "role", "img");
    setIfChanged(canvas, "aria-label", description || "figure");
  }
  for (const status of scope.querySelectorAll("." + STATUS_CLASS)) {
    setIfChanged(status, "role", "status");
    setIfChanged(status, "aria-live", "polite");
  }
}

// Page-wide, once (the first probe installs it), for every widget of the page, not only the
// explorers': slider handles and Play buttons are named (above), and an output or a text cell
// larger than its area, which only a mouse could scroll (WCAG 2.1.1; axe's
// scrollable-region-focusable), becomes a focusable region the arrow keys scroll.
const SCROLLERS = ".jp-OutputArea-output, .jp-RenderedMarkdown";
function markScrollers() {
  for (const node of document.querySelectorAll(SCROLLERS)) {
    if (node.hasAttribute("tabindex")) continue;
    const style = getComputedStyle(node);
    const scrolls = (overflow) => overflow === "auto" || overflow === "scroll";
    if (!(scrolls(style.overflowX) && node.scrollWidth > node.clientWidth)
        && !(scrolls(style.overflowY) && node.scrollHeight > node.clientHeight)) continue;
    node.tabIndex = 0;
    node.setAttribute("role", "region");
    node.setAttribute("aria-label", "wide content: scroll it with the arrow keys");
  }
}

function decoratePage() {
  if (globalThis.__companionPageA11y) return;
  globalThis.__companionPageA11y = true;
  let timer = null;
  const pass = () => {
    timer = null;
    document.querySelectorAll(".widget-slider .noUi-handle").forEach(nameHandle);
    namePlayButtons(document);
    markScrollers();
  };
  const later = () => { if (timer === null) timer = setTimeout(pass, 300); };
  // noUiSlider rewrites a handle's aria-valuetext on every move: put the rounded one back at
  // once; anything else that changed waits for the next pass
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") nameHandle(record.target);
      else later();
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true,
                              attributeFilter: ["aria-valuetext"] });
  window.addEventListener("resize", later);
  later();
}

function render({ model, el }) {
  el.style.width = "100%";
  el.style.height = "0";
  el.style.overflow = "hidden";
  decoratePage();
  let timer = null;
  let last = 0, lastHeight = 0;

  const measure = () => {
    timer = null;
    // A detached output (a notebook scrolled far away) or a hidden one measures 0 wide:
    // keep the last width rather than collapse the figure.
    if (!el.isConnected || el.offsetParent === null) return;
    let width = el.getBoundingClientRect().width;
    const scope = el.closest("." + model.get("scope_class"));
    const reserve = model.get("reserve_selector");
    if (scope && reserve) {
      for (const other of scope.querySelectorAll(reserve)) {
        width -= other.getBoundingClientRect().width;
      }
    }
    width = Math.floor(width);
    const top = el.getBoundingClientRect().top - (scope || el).getBoundingClientRect().top;
    const bottom = parseFloat(getComputedStyle(el).getPropertyValue("--companion-bottom-reserve"));
    const height = Math.max(0, Math.floor(window.innerHeight - top - (bottom || 0)));
    if (width < model.get("min_width")) return;
    if (Math.abs(width - last) < 2 && Math.abs(height - lastHeight) < 2) return;
    last = width; lastHeight = height;
    model.set("height", height);  // before the width: the kernel fits on the width
    model.set("width", width);
    model.save_changes();
  };

  // Resizes come in bursts (a dragged sidebar, a window being resized): report the last one.
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(measure, model.get("debounce_ms"));
  };
  const observer = new ResizeObserver(later);
  observer.observe(el);
  window.addEventListener("resize", later);  // the screen's height alone: not the strip's

  // The container's parts arrive and change after the probe (widgets render asynchronously):
  // decorate again on each change.
  let watched = null;
  const mutations = new MutationObserver(() => watched && decorate(watched, model));
  const watch = () => {
    const scope = el.isConnected ? el.closest("." + model.get("scope_class")) : null;
    if (!scope || scope === watched) return;
    watched = scope;
    mutations.observe(scope, { childList: true, subtree: true });
    decorate(scope, model);
  };
  const attach = new ResizeObserver(watch);  // first called once the probe is in the page
  attach.observe(el);
  model.on("change:description", () => watched && decorate(watched, model));
  return () => {
    attach.disconnect();
    mutations.disconnect();
    observer.disconnect();
    window.removeEventListener("resize", later);
    clearTimeout(timer);
  };
}

export default { render };

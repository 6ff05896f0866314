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

function render({ model, el }) {
  el.style.width = "100%";
  el.style.height = "0";
  el.style.overflow = "hidden";
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
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", later);
    clearTimeout(timer);
  };
}

export default { render };

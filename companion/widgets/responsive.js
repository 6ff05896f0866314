// Width probe of an explorer (companion/widgets/responsive.py): a zero-height strip as wide as
// the explorer reports the width its figure may take, so the kernel can size the figure to it.
//
// ipympl's canvas has a fixed size in pixels, set by matplotlib (figsize); its front end never
// follows its container.  So the width is measured here and the figure is resized in the
// kernel (Figure.set_size_inches, which ipympl forwards as a 'resize' message).

function render({ model, el }) {
  el.style.width = "100%";
  el.style.height = "0";
  el.style.overflow = "hidden";
  let timer = null;
  let last = 0;

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
    if (width < model.get("min_width") || Math.abs(width - last) < 2) return;
    last = width;
    model.set("width", width);
    model.save_changes();
  };

  // Resizes come in bursts (a dragged sidebar, a window being resized): report the last one.
  const observer = new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(measure, model.get("debounce_ms"));
  });
  observer.observe(el);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

export default { render };

// Deferred snapshots of an ipympl canvas (companion/widgets/private_hooks.py, DeferredSnapshot).
//
// ipympl's front end (MPLCanvasModel.handle_binary, ipympl 0.10) encodes its offscreen canvas
// as a PNG data URL (`_data_url`: the picture a saved notebook keeps) synchronously on every
// frame it receives, on the page's main thread, before the frame can load: 5 ms alone and
// 10-20 ms under load for a 930 x 850 figure, on every slider move.  And since the new frame
// has not loaded yet, the copy it makes is of the frame before.  Here the frames go through
// ipympl's own handler with that copy skipped, and one copy of the picture on screen is made
// once the frames stop for `settle_ms`.

const PREFIX = "IPY_MODEL_";

async function initialize({ model }) {
  const ref = model.get("canvas");
  if (typeof ref !== "string" || !ref.startsWith(PREFIX) || !model.widget_manager) return;
  let canvas;
  try {
    canvas = await model.widget_manager.get_model(ref.slice(PREFIX.length));
  } catch {
    return; // the figure is gone: nothing to lighten
  }
  // another ipympl, or already wrapped (one model, several helpers): leave it as it is
  if (typeof canvas.handle_binary !== "function" || !canvas.offscreen_canvas || !canvas.image) {
    return;
  }
  if (canvas.companionDeferredSnapshot) return;
  canvas.companionDeferredSnapshot = true;
  const receive = canvas.handle_binary;
  let timer = null;

  const snapshot = () => {
    timer = null;
    canvas.set("_data_url", canvas.offscreen_canvas.toDataURL());
    model.set("snapshots", model.get("snapshots") + 1);
    model.save_changes();
  };
  // after ipympl's own load handler (registered first) has drawn the frame offscreen
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(snapshot, model.get("settle_ms"));
  };

  canvas.handle_binary = (msg, buffers) => {
    const offscreen = canvas.offscreen_canvas;
    // for this one call, ipympl's copy keeps the last snapshot instead of encoding the canvas
    offscreen.toDataURL = () => canvas.get("_data_url");
    try {
      receive.call(canvas, msg, buffers);
    } finally {
      delete offscreen.toDataURL; // saving the figure from the toolbar encodes it as before
    }
    clearTimeout(timer);
    canvas.image.addEventListener("load", schedule, { once: true });
  };

  return () => { // this helper is closed: ipympl handles its frames as it did
    clearTimeout(timer);
    delete canvas.handle_binary; // the prototype's again
    delete canvas.companionDeferredSnapshot;
  };
}

function render({ el }) {
  el.style.height = "0";
  el.style.overflow = "hidden";
}

export default { initialize, render };

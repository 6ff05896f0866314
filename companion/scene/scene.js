// The companion's scene: keyframes sent once by the kernel, played here at display rate.
//
// A plain ES module for anywidget, with no dependency: a small Canvas 2D renderer
// (orthographic camera, painter's algorithm, Lambert shading) is enough for boxes, disks,
// rods, spheres, trails and arrows, keeps the module a few kilobytes (anywidget stores it
// in every scene's widget state, so exported pages carry it once per scene) and works in
// every browser, with or without WebGL.  companion/scene/keyframes.py writes the format.

const SPEEDS = [0.25, 0.5, 1, 2, 4];
// The kernel hears the time for its explorer's time cursor: at most 10 times a second while
// the reader scrubs, once a second while playing, and always where playback or scrubbing
// stopped.  Each update costs three kernel round trips (ours, then ipympl's draw request and
// its image) and the page a decoded image and, in JupyterLab, a busy/idle flip of the status
// bar (a layout and a style pass each): four a second cost a live page 12 layouts a second.
const SYNC_INTERVAL_MS = 100;
const PLAY_SYNC_INTERVAL_MS = 1000;
// While playing, the canvas shows the time every frame; the scrubber and the readout under it
// move 4 times a second (as a media element's timeupdate does): each write lays the controls
// out again, and the readout's text is one Text node rewritten in place, so that no
// MutationObserver watching the page's children (JupyterLab's, responsive.js's) wakes for it.
const CONTROLS_INTERVAL_MS = 250;
// The caption while a prediction is open (the same text is PREDICT_CAPTION in widget.py).
const PREDICT_CAPTION = "Predict first, then press play: what happens is described here once the motion has played.";

function registry() {
  // Browser tests and benchmarks read playback statistics from here.
  if (!globalThis.__companionScenes) globalThis.__companionScenes = [];
  return globalThis.__companionScenes;
}

function floats(value) {
  if (!value) return new Float32Array(0);
  if (value instanceof DataView) {
    return new Float32Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  if (value instanceof ArrayBuffer) return new Float32Array(value.slice(0));
  if (ArrayBuffer.isView(value)) {
    return new Float32Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  throw new Error("scene: keyframes must be binary");
}

function hexToRgb(hex) {
  const h = hex.replace("#", "");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}

// ------------------------------------------------------------------ keyframe access
class Motion {
  constructor(spec, data) {
    this.spec = spec;
    this.data = data;
    this.n = spec.n_frames;
    const [off] = spec.channels[spec.time];
    this.t = data.subarray(off, off + this.n);
    this.t0 = this.t[0];
    this.t1 = this.t[this.n - 1];
    // Neutral while a prediction is open and the reader has not played: only what the start
    // shows (bodies at t0 in their own colours, framed by the start), nothing of the outcome
    // (modes' colours, arrows, cones, paths, the grid fitted to the motion, the end time).
    this.neutral = false;
  }

  get bounds() { return (this.neutral && this.spec.start_bounds) || this.spec.bounds; }

  // Index i and weight a with t between keyframes i and i + 1.
  locate(time) {
    const t = this.t;
    if (time <= t[0]) return [0, 0];
    if (time >= t[this.n - 1]) return [Math.max(this.n - 2, 0), this.n > 1 ? 1 : 0];
    let lo = 0, hi = this.n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (t[mid] <= time) lo = mid; else hi = mid;
    }
    const span = t[hi] - t[lo];
    return [lo, span > 0 ? (time - t[lo]) / span : 0];
  }

  // A channel's value at (i, a): a literal array passes through; quaternions are nlerped.
  value(ref, i, a) {
    if (ref === null || ref === undefined) return null;
    if (Array.isArray(ref)) return ref;
    const [off, width, kind] = this.spec.channels[ref];
    const d = this.data;
    const p = off + i * width;
    const j = Math.min(i + 1, this.n - 1);
    const q = off + j * width;
    const out = new Array(width);
    if (kind === "step") {
      for (let k = 0; k < width; k++) out[k] = d[a < 1 ? p + k : q + k];
      return out;
    }
    let sign = 1;
    if (kind === "quat") {
      let dot = 0;
      for (let k = 0; k < 4; k++) dot += d[p + k] * d[q + k];
      if (dot < 0) sign = -1;
    }
    for (let k = 0; k < width; k++) out[k] = d[p + k] * (1 - a) + sign * d[q + k] * a;
    if (kind === "quat") {
      const norm = Math.hypot(out[0], out[1], out[2], out[3]) || 1;
      for (let k = 0; k < 4; k++) out[k] /= norm;
    }
    return out;
  }

  // Points of a channel from keyframe `from` to keyframe i, then the interpolated point.
  path(ref, from, i, a) {
    const [off, width] = this.spec.channels[ref];
    const d = this.data;
    const pts = [];
    for (let k = from; k <= i; k++) pts.push([d[off + k * width], d[off + k * width + 1], d[off + k * width + 2]]);
    pts.push(this.value(ref, i, a));
    return pts;
  }
}

function rotate(q, v) {
  // v rotated by the unit quaternion q = (w, x, y, z).
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

// ------------------------------------------------------------------ camera
class Camera {
  constructor(spec) {
    this.planar = spec.view === "2d";
    this.azimuth = spec.camera ? spec.camera[0] : -60;
    this.elevation = spec.camera ? spec.camera[1] : 25;
    this.bounds = spec.bounds;
    this.reach = spec.follow ? spec.follow.reach : 0; // a followed point: this much around it
    this.orient();
  }

  orient() {
    if (this.planar) {
      this.right = [1, 0, 0]; this.up = [0, 1, 0]; this.toward = [0, 0, 1];
    } else {
      const az = (this.azimuth * Math.PI) / 180, el = (this.elevation * Math.PI) / 180;
      this.toward = [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
      this.right = [-Math.sin(az), Math.cos(az), 0];
      const d = this.toward, r = this.right;
      this.up = [d[1] * r[2] - d[2] * r[1], d[2] * r[0] - d[0] * r[2], d[0] * r[1] - d[1] * r[0]];
    }
    const light = [0.35, 0.65, 0.7];
    this.light = [0, 1, 2].map((k) => light[0] * this.right[k] + light[1] * this.up[k] + light[2] * this.toward[k]);
    const norm = Math.hypot(...this.light);
    this.light = this.light.map((c) => c / norm);
  }

  // The scale and centre that show the whole motion (or the followed reach) in width × height
  // less `margin` all round, moved left of a legend `right` pixels wide at the right edge as
  // far as the room beside the motion allows (centred without a legend).
  fit(width, height, margin, right = 0) {
    const [lo, hi] = this.bounds;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const cx of [lo[0], hi[0]]) for (const cy of [lo[1], hi[1]]) for (const cz of [lo[2], hi[2]]) {
      const p = [cx, cy, cz];
      const sx = dot(p, this.right), sy = dot(p, this.up);
      x0 = Math.min(x0, sx); x1 = Math.max(x1, sx); y0 = Math.min(y0, sy); y1 = Math.max(y1, sy);
    }
    const w = this.reach ? 2 * this.reach : Math.max(x1 - x0, 1e-9);
    const h = this.reach ? 2 * this.reach : Math.max(y1 - y0, 1e-9);
    this.scale = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h);
    const half = w * this.scale / 2;
    this.ox = Math.min(width / 2, Math.max(margin + half, width - right - margin - half));
    this.cx = (x0 + x1) / 2; this.cy = (y0 + y1) / 2;
    this.width = width; this.height = height;
  }

  // Centre the view on p (a followed point).
  centre(p) { this.cx = dot(p, this.right); this.cy = dot(p, this.up); }

  project(p) {
    return [this.ox + (dot(p, this.right) - this.cx) * this.scale,
      this.height / 2 - (dot(p, this.up) - this.cy) * this.scale, dot(p, this.toward)];
  }
}

function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }

// ------------------------------------------------------------------ drawing one frame
function shade(rgb, intensity, alpha) {
  const c = rgb.map((v) => Math.round(Math.min(255, v * intensity)));
  return alpha < 1 ? `rgba(${c[0]},${c[1]},${c[2]},${alpha})` : `rgb(${c[0]},${c[1]},${c[2]})`;
}

// A quantity is fixed when the spec gives it as a literal (keyframes.py), not a channel.
function fixed(...refs) { return refs.every((r) => r === null || r === undefined || Array.isArray(r)); }

// The meshes' faces, rods, cones and points at (i, a), each with its depth, draw order and
// screen box; only those fixed along the motion (still = true) or only those that move.
function primitives(spec, cam, motion, i, a, px, still) {
  const prims = []; // order: declaration order (layer), then face by face
  for (const m of spec.meshes || []) {
    if ((fixed(m.position, m.attitude) && !m.mode) !== still) continue;
    const pos = motion.value(m.position, i, a) || [0, 0, 0];
    const att = motion.value(m.attitude, i, a);
    let rgb = hexToRgb(m.color);
    if (m.mode && !motion.neutral) {
      const idx = motion.value(m.mode, i, a)[0];
      rgb = hexToRgb(m.palette[Math.max(0, Math.min(m.palette.length - 1, Math.round(idx)))]);
    }
    const verts = m.vertices.map((v) => { const r = att ? rotate(att, v) : v; return [r[0] + pos[0], r[1] + pos[1], r[2] + pos[2]]; });
    const alpha = m.opacity === undefined ? 1 : m.opacity;
    m.faces.forEach((f, k) => {
      const w = f.map((j) => verts[j]);
      const n = cross(sub(w[1], w[0]), sub(w[2], w[0]));
      const len = Math.hypot(...n) || 1;
      const facing = dot(n, cam.toward) / len;
      if (alpha === 1 && facing <= 1e-6 && !cam.planar) return; // back face
      const faceRgb = m.face_colors ? hexToRgb(m.face_colors[k]) : rgb;
      const lit = cam.planar ? 1 : 0.42 + 0.58 * Math.max(0, Math.abs(dot(n, cam.light) / len));
      const s = w.map((p) => cam.project(p));
      const depth = s.reduce((acc, p) => acc + p[2], 0) / s.length;
      prims.push({ depth, order: m.layer * 1e4 + k, kind: "face", s, fill: shade(faceRgb, lit, alpha), edge: m.edges ? shade(faceRgb, 0.55, alpha) : null, box: extent(s, px) });
    });
  }
  for (const r of spec.rods || []) {
    if (fixed(r.a, r.b) !== still) continue;
    const p = motion.value(r.a, i, a), q = motion.value(r.b, i, a);
    const s = cam.project(p), e = cam.project(q);
    prims.push({ depth: (s[2] + e[2]) / 2, order: r.layer * 1e4, kind: "rod", s, e, color: r.color, width: r.width * px, box: extent([s, e], r.width * px) });
  }
  for (const c of motion.neutral ? [] : spec.cones || []) {
    if (fixed(c.apex, c.axis) !== still) continue;
    const apex = motion.value(c.apex, i, a), axis = motion.value(c.axis, i, a);
    const len = Math.hypot(...axis);
    if (!(len > 0)) continue;
    const s = cam.project(apex);
    const tip = cam.project([apex[0] + axis[0], apex[1] + axis[1], apex[2] + axis[2]]);
    const r = Math.hypot(tip[0] - s[0], tip[1] - s[1]);
    prims.push({ depth: s[2] + 1e-3, order: c.layer * 1e4, kind: "cone", s, tip, half: c.half_angle, color: c.color, box: extent([s], 2 * r) });
  }
  for (const pt of spec.points || []) {
    if (fixed(pt.point) !== still) continue;
    const s = cam.project(motion.value(pt.point, i, a));
    prims.push({ depth: s[2] + 1e-3, order: pt.layer * 1e4, kind: "point", s, color: pt.color, radius: pt.radius * px, box: extent([s], 2 * pt.radius * px) });
  }
  return prims;
}

// 3D: far to near (painter's algorithm); 2D: in the order declared.  Depth and order are the
// same whether a primitive is drawn into the still layer or over it, so the merged order of
// still and moving primitives is the order of drawing them all at once.
function sortPrims(prims, planar) {
  return prims.sort(planar ? (u, v) => u.order - v.order : (u, v) => u.depth - v.depth || u.order - v.order);
}

// Screen box [x0, y0, x1, y1] of points, grown by a stroke of `width` and antialiasing.
function extent(pts, width) {
  const pad = width / 2 + 2;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of pts) { x0 = Math.min(x0, p[0]); y0 = Math.min(y0, p[1]); x1 = Math.max(x1, p[0]); y1 = Math.max(y1, p[1]); }
  return [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
}

function union(b, c) { return b ? [Math.min(b[0], c[0]), Math.min(b[1], c[1]), Math.max(b[2], c[2]), Math.max(b[3], c[3])] : c; }
function meets(b, c) { return b[0] < c[2] && c[0] < b[2] && b[1] < c[3] && c[1] < b[3]; }

function paintPrims(ctx, prims, px) {
  for (const p of prims) {
    if (p.kind === "face") {
      ctx.beginPath();
      p.s.forEach((q, k) => (k ? ctx.lineTo(q[0], q[1]) : ctx.moveTo(q[0], q[1])));
      ctx.closePath();
      ctx.fillStyle = p.fill; ctx.fill();
      ctx.strokeStyle = p.edge || p.fill; ctx.lineWidth = p.edge ? px : 0.6; ctx.stroke();
    } else if (p.kind === "rod") {
      ctx.strokeStyle = p.color; ctx.lineWidth = p.width;
      ctx.beginPath(); ctx.moveTo(p.s[0], p.s[1]); ctx.lineTo(p.e[0], p.e[1]); ctx.stroke();
    } else if (p.kind === "cone") {
      const dx = p.tip[0] - p.s[0], dy = p.tip[1] - p.s[1];
      const base = Math.atan2(dy, dx), r = Math.hypot(dx, dy);
      ctx.beginPath(); ctx.moveTo(p.s[0], p.s[1]);
      ctx.arc(p.s[0], p.s[1], r, base - p.half, base + p.half); ctx.closePath();
      ctx.fillStyle = p.color; ctx.globalAlpha = 0.22; ctx.fill(); ctx.globalAlpha = 1;
    } else {
      ctx.fillStyle = p.color; ctx.beginPath(); ctx.arc(p.s[0], p.s[1], p.radius, 0, 2 * Math.PI); ctx.fill();
    }
  }
}

// What lies under the bodies: the white ground, grids and static lines, then the trails up to
// keyframe i and weight a (a = null: exactly to keyframe i).
function paintUnder(ctx, cam, motion, i, a, px) {
  const spec = motion.spec;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, cam.width, cam.height);
  ctx.lineCap = "round"; ctx.lineJoin = "round";
  if (motion.neutral) return;
  for (const g of spec.grids || []) {
    ctx.strokeStyle = g.color || "#d0d0d0"; ctx.lineWidth = px;
    ctx.beginPath();
    for (const [p, q] of g.segments) {
      const s = cam.project(p), e = cam.project(q);
      ctx.moveTo(s[0], s[1]); ctx.lineTo(e[0], e[1]);
    }
    ctx.stroke();
  }
  for (const tr of spec.trails || []) {
    const from = tr.keep ? Math.max(0, i - tr.keep) : 0;
    const pts = motion.path(tr.point, from, i, a === null ? 0 : a);
    ctx.strokeStyle = tr.color; ctx.lineWidth = (tr.width || 1.5) * px; ctx.globalAlpha = 0.85;
    ctx.beginPath();
    pts.forEach((p, k) => { const s = cam.project(p); if (k) ctx.lineTo(s[0], s[1]); else ctx.moveTo(s[0], s[1]); });
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
}

// Screen box of the trails' points from keyframe `from` to (i, a): what changes in them.
function trailBox(cam, motion, from, i, a, px) {
  let box = null;
  for (const tr of motion.spec.trails || []) {
    const first = tr.keep ? Math.max(0, Math.min(from, i) - tr.keep - 1) : Math.max(0, from - 1);
    const pts = motion.path(tr.point, first, i, a === null ? 0 : a).map((p) => cam.project(p));
    box = union(box, extent(pts, (tr.width || 1.5) * px));
  }
  return box;
}

// Paint (i, a) into `box` only: what is under the bodies, then the still primitives that meet
// the box and the moving ones, in the order of drawing them all at once.
function paintBox(ctx, cam, motion, i, a, px, dpr, box, still, moving) {
  const x0 = Math.max(0, Math.floor(box[0] * dpr)), y0 = Math.max(0, Math.floor(box[1] * dpr));
  const x1 = Math.min(ctx.canvas.width, Math.ceil(box[2] * dpr)), y1 = Math.min(ctx.canvas.height, Math.ceil(box[3] * dpr));
  if (x1 <= x0 || y1 <= y0) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath(); ctx.rect(x0, y0, x1 - x0, y1 - y0); ctx.clip(); // whole device pixels
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  paintUnder(ctx, cam, motion, i, a, px);
  paintPrims(ctx, sortPrims(still.filter((p) => meets(p.box, box)).concat(moving), cam.planar), px);
  ctx.restore();
}

// The still layer: the ground, grids, trails up to a keyframe and every primitive fixed along
// the motion, drawn once into an offscreen canvas and copied under each frame.  It is redrawn
// when the view changes (its key: size, orbit, lecture mode) or the time goes back, and patched
// box by box where the trails grew.  A view following a point moves every frame: none then.
class StillLayer {
  constructor() { this.canvas = document.createElement("canvas"); this.key = null; }

  // Bring the layer to keyframe i; false when there is none (a followed point).
  update(cam, motion, i, dpr, px) {
    if (motion.spec.follow) return false;
    const key = [cam.width, cam.height, cam.scale, cam.ox, cam.cx, cam.cy, cam.azimuth, cam.elevation, dpr, px, motion.neutral].join();
    const ctx = this.canvas.getContext("2d");
    if (this.motion !== motion || this.key !== key || i < this.upTo) {
      this.motion = motion; this.key = key; this.upTo = i;
      this.canvas.width = Math.round(cam.width * dpr); this.canvas.height = Math.round(cam.height * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.prims = sortPrims(primitives(motion.spec, cam, motion, 0, 0, px, true), cam.planar);
      paintUnder(ctx, cam, motion, i, null, px);
      paintPrims(ctx, this.prims, px);
    } else if (i > this.upTo) {
      const box = trailBox(cam, motion, this.upTo, i, null, px);
      if (box) paintBox(ctx, cam, motion, i, null, px, dpr, box, this.prims, []);
      this.upTo = i;
    }
    return true;
  }
}

function drawFrame(ctx, cam, motion, time, dpr, lecture, layer) {
  const spec = motion.spec;
  const [i, a] = motion.locate(time);
  if (spec.follow) cam.centre(motion.value(spec.follow.point, i, a));
  const px = lecture ? 1.5 : 1;
  ctx.lineCap = "round"; ctx.lineJoin = "round";
  const moving = primitives(spec, cam, motion, i, a, px, false);
  if (layer.update(cam, motion, i, dpr, px)) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer.canvas, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    let box = trailBox(cam, motion, layer.upTo, i, a, px);
    for (const p of moving) box = union(box, p.box);
    if (box) paintBox(ctx, cam, motion, i, a, px, dpr, box, layer.prims, moving);
  } else { // the view moves with a followed point: everything, every frame
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    paintUnder(ctx, cam, motion, i, a, px);
    paintPrims(ctx, sortPrims(primitives(spec, cam, motion, i, a, px, true).concat(moving), cam.planar), px);
  }
  return paintOver(ctx, cam, motion, time, i, a, px);
}

// Arrows, on top so that forces and ω/H never hide behind a body, and the heads-up text;
// returns where the legend ends (CSS pixels from the top; browser tests read it).
function paintOver(ctx, cam, motion, time, i, a, px) {
  const spec = motion.spec, W = cam.width, H = cam.height;
  ctx.font = `${Math.round(13 * px)}px sans-serif`;
  const labels = []; // boxes of the labels placed so far, kept apart
  for (const ar of motion.neutral ? [] : spec.arrows || []) {
    const o = motion.value(ar.origin, i, a), v = motion.value(ar.vector, i, a);
    if (!(Math.hypot(...v) > 1e-9)) continue;
    const s = cam.project(o), e = cam.project([o[0] + v[0], o[1] + v[1], o[2] + v[2]]);
    const dx = e[0] - s[0], dy = e[1] - s[1], len = Math.hypot(dx, dy);
    ctx.strokeStyle = ar.color; ctx.fillStyle = ar.color; ctx.lineWidth = (ar.width || 2.5) * px;
    ctx.beginPath(); ctx.moveTo(s[0], s[1]); ctx.lineTo(e[0], e[1]); ctx.stroke();
    if (len > 2) {
      const head = Math.min(12 * px, 0.45 * len), ux = dx / len, uy = dy / len;
      ctx.beginPath(); ctx.moveTo(e[0] + ux * 2, e[1] + uy * 2);
      ctx.lineTo(e[0] - ux * head - uy * head * 0.45, e[1] - uy * head + ux * head * 0.45);
      ctx.lineTo(e[0] - ux * head + uy * head * 0.45, e[1] - uy * head - ux * head * 0.45);
      ctx.closePath(); ctx.fill();
    }
    if (ar.label) label(ctx, ar.label, e, len > 0 ? [dx / len, dy / len] : [1, 0], px, labels);
  }

  // heads-up text: time, mode, legend (on white halos: the mechanism may pass below them)
  ctx.fillStyle = "#222";
  // the heads-up line shares its row with the legend's first label; sized for the longest
  // time of the motion, so that its font does not change while it plays
  const hud = hudText(spec, motion, time, i, a), first = (spec.legend || [])[0];
  ctx.font = `${Math.round(13 * px)}px sans-serif`;
  const firstRow = first ? ctx.measureText(first[1]).width + 42 * px : 0;
  fitFont(ctx, 14 * px, W - firstRow - 20 * px,
    [motion.neutral ? hud : hud.replace(/t = [\d.-]+ s/, `t = ${motion.t1.toFixed(2)} s`)]);
  haloText(ctx, hud, 10 * px, 20 * px, px);
  if (spec.title) {
    ctx.fillStyle = "#555";
    fitFont(ctx, 14 * px, W - 20 * px, [spec.title]);  // a narrow scene keeps its whole title
    haloText(ctx, spec.title, 10 * px, H - 10 * px, px);
  }
  let y = 20 * px;
  fitFont(ctx, 13 * px, 0.45 * W, (spec.legend || []).map(([, text]) => text));
  for (const [color, label] of spec.legend || []) {
    const w = ctx.measureText(label).width;
    ctx.fillStyle = color; ctx.fillRect(W - w - 30 * px, y - 9 * px, 12 * px, 4 * px);
    ctx.fillStyle = "#222"; haloText(ctx, label, W - w - 12 * px, y, px);
    y += 18 * px;
  }
  return y - 13 * px;
}

// The width (CSS pixels) paintOver's legend takes at the right edge, 0 without one.
function legendWidth(ctx, spec, px) {
  const labels = (spec.legend || []).map(([, text]) => text);
  if (!labels.length) return 0;
  ctx.save();
  ctx.font = `${Math.round(13 * px)}px sans-serif`;
  const widest = Math.max(...labels.map((t) => ctx.measureText(t).width));
  ctx.restore();
  return widest + 36 * px;
}

function hudText(spec, motion, time, i, a) {
  const text = `t = ${time.toFixed(2)} s`;
  return spec.hud && !motion.neutral
    ? text + " · " + spec.hud.names[Math.round(motion.value(spec.hud.mode, i, a)[0])] : text;
}

// The font at `size` pixels, or smaller (down to 60 %) where the widest of `texts` would be
// wider than `room`.
function fitFont(ctx, size, room, texts) {
  ctx.font = `${Math.round(size)}px sans-serif`;
  const widest = Math.max(0, ...texts.map((t) => ctx.measureText(t).width));
  if (widest > room) ctx.font = `${Math.round(Math.max(0.6, room / widest) * size)}px sans-serif`;
}

// Text on a white halo, readable over whatever is drawn below it.
function haloText(ctx, text, x, y, px) {
  ctx.save();
  ctx.lineWidth = 3 * px; ctx.strokeStyle = "rgba(255, 255, 255, 0.9)"; ctx.lineJoin = "round";
  ctx.strokeText(text, x, y);
  ctx.restore();
  ctx.fillText(text, x, y);
}

// An arrow's label beyond its tip, along the arrow (so off the body it starts from), on a
// white halo, moved down a line while it would cover a label placed before it.
function label(ctx, text, tip, [ux, uy], px, placed) {
  const w = ctx.measureText(text).width, h = 13 * px, gap = 7 * px;
  const x = tip[0] + ux * gap - (ux < -0.3 ? w : ux > 0.3 ? 0 : w / 2);
  let y = tip[1] + uy * gap + (uy > 0.3 ? h : uy < -0.3 ? 0 : h / 2);
  const hits = (b) => x < b[2] && x + w > b[0] && y - h < b[3] && y > b[1];
  for (let k = 0; k < 6 && placed.some(hits); k++) y += h + 2 * px;
  haloText(ctx, text, x, y, px);
  placed.push([x, y - h, x + w, y]);
}

// ------------------------------------------------------------------ explorers and their scenes
// An explorer (class companion-explorer, companion/widgets/explorer.py) and the scene after
// it, before the next explorer, show one motion.  Looked up in the page (Voilà) or in the
// notebook that holds them (JupyterLab), in document order.
const EXPLORER = ".companion-explorer";
const PRESET = ".companion-preset";
const KEYS_HELP = "space play/pause · ←/→ scrub";
// A 3D scene turns by dragging, and without it (WCAG 2.5.7): buttons, and keys A/D (turn) and
// W/S (tilt), TURN_STEP degrees a press.
const TURN_HELP = " · A/D/W/S turn";
const TURN_STEP = 15;
const TURNS = { a: [-1, 0], d: [1, 0], w: [0, 1], s: [0, -1] };

function follows(a, b) { return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING); }

function explorerBefore(sceneEl) {
  const scope = sceneEl.closest(".jp-Notebook") || document;
  let found = null;
  for (const ex of scope.querySelectorAll(EXPLORER)) if (follows(ex, sceneEl)) found = ex;
  return found;
}

function sceneOf(explorerEl) {
  const scope = explorerEl.closest(".jp-Notebook") || document;
  for (const s of scope.querySelectorAll(".companion-scene")) {
    if (follows(explorerEl, s)) return explorerBefore(s) === explorerEl ? s : null;
  }
  return null;
}

// After a preset click, the scene of that explorer takes the keyboard focus (so Space plays
// it instead of pressing the preset again); installed once per page.
function focusScenesAfterPresets() {
  if (globalThis.__companionPresetFocus) return;
  globalThis.__companionPresetFocus = true;
  document.addEventListener("click", (event) => {
    const preset = event.target.closest && event.target.closest(PRESET);
    const explorer = preset && preset.closest(EXPLORER);
    const scene = explorer && sceneOf(explorer);
    if (scene) setTimeout(() => scene.focus({ preventScroll: true }), 0);
  }, true);
}

// ------------------------------------------------------------------ the widget view
function button(label, title) {
  const b = document.createElement("button");
  b.textContent = label; b.title = title; b.setAttribute("aria-label", title);
  b.className = "companion-scene-button";
  return b;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "companion-scene";
  root.tabIndex = 0;
  root.setAttribute("role", "group");
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  const bar = document.createElement("div");
  bar.className = "companion-scene-controls";
  const play = button("▶ play", "play / pause (space)");
  const scrub = document.createElement("input");
  scrub.type = "range"; scrub.min = 0; scrub.max = 1000; scrub.step = 1; scrub.value = 0;
  scrub.className = "companion-scene-scrubber";
  scrub.setAttribute("aria-label", "time (arrow keys)");
  const clock = document.createElement("span");
  clock.className = "companion-scene-clock";
  const clockText = clock.appendChild(document.createTextNode(""));
  const speed = document.createElement("select");
  speed.setAttribute("aria-label", "playback speed");
  for (const s of SPEEDS) {
    const o = document.createElement("option");
    o.value = s; o.textContent = { 0.25: "¼×", 0.5: "½×" }[s] || `${s}×`;
    speed.appendChild(o);
  }
  speed.value = model.get("speed") || 1;  // a preset's speed (a fast motion at ¼×)
  model.on("change:speed", () => { speed.value = model.get("speed"); });
  speed.addEventListener("change", () => { model.set("speed", Number(speed.value)); model.save_changes(); });
  const loopBox = document.createElement("label");
  const loop = document.createElement("input");
  loop.type = "checkbox"; loop.checked = model.get("loop");
  loopBox.append(loop, " loop");
  const full = button("full screen", "full screen");
  const turns = document.createElement("span");
  turns.className = "companion-scene-turns";
  turns.setAttribute("role", "group");
  turns.setAttribute("aria-label", "turn the view");
  for (const [key, glyph, title] of [["a", "⟲", "turn the view left (A)"],
                                     ["d", "⟳", "turn the view right (D)"],
                                     ["w", "⤒", "tilt the view up (W)"],
                                     ["s", "⤓", "tilt the view down (S)"]]) {
    const b = button(glyph, title);
    b.addEventListener("click", () => turn(key));
    turns.appendChild(b);
  }
  const keys = document.createElement("span");
  keys.className = "companion-scene-keys";
  keys.textContent = KEYS_HELP;
  bar.append(play, scrub, clock, speed, loopBox, turns, full, keys);
  const caption = document.createElement("p");
  caption.className = "companion-scene-description";
  caption.setAttribute("aria-live", "polite");  // what the motion did, announced (WCAG 4.1.3)
  root.append(canvas, bar, caption);
  el.appendChild(root);

  const ctx = canvas.getContext("2d");
  const still = new StillLayer();
  const stats = { frames: 0, generation: 0, shownAt: [], playing: false, time: 0, el: root };
  registry().push(stats);
  // a reader who asked for reduced motion starts every scene paused, autoplay or not
  const reduced = globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  let motion = null, cam = null, time = 0, playing = model.get("autoplay") && !reduced;
  let last = null, raf = null, lastSync = 0, sentTime = null, drag = null;
  // The furthest time reached by playing (a seek, the scrubber, Home/End do not count): the
  // kernel reveals a prediction's outcome only once the motion has been played.
  let played = -Infinity, sentPlayed = null;
  let lastControls = -Infinity, shownClock = null;
  // The reader played or scrubbed during this prediction: the motion is shown.
  let watched = false;

  // The motion neutral (Motion.neutral) while a prediction is open and not watched; the
  // camera frames what is drawn.
  function neutralize() {
    if (!motion) return;
    motion.neutral = !!model.get("predict") && !watched;
    size(); draw();
  }

  function watch() { if (!watched) { watched = true; neutralize(); } }

  function size() {
    const w = Math.max(root.clientWidth || 640, 200);
    const aspect = (motion && motion.spec.aspect) || 0.6;
    let h = document.fullscreenElement === root ? Math.max(window.innerHeight - bar.offsetHeight - 20, 200) : Math.round(Math.min(w * aspect, 720));
    // On a projector the scene, its controls and its caption fit the screen's height, above
    // the room the page keeps at the bottom (lecture mode's key button: the CSS variable
    // --companion-bottom-reserve): below the explorer's sliders when it sits beside its
    // explorer's figure (that explorer scrolled to the top of the screen); on its own when it
    // went below the figure (a narrow screen: it is then scrolled to by itself).
    if (model.get("lecture") && document.fullscreenElement !== root) {
      const explorer = root.closest(".companion-explorer");
      const box = root.getBoundingClientRect(), within = explorer && explorer.getBoundingClientRect();
      const beside = within && box.left - within.left > within.width / 4;
      const above = beside ? box.top - within.top : 0;
      const reserve = parseFloat(getComputedStyle(root).getPropertyValue("--companion-bottom-reserve")) || 16;
      const room = window.innerHeight - above - bar.offsetHeight - caption.offsetHeight - reserve - 16;
      h = Math.min(h, Math.max(room, 160));
    }
    const dpr = window.devicePixelRatio || 1;
    canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    if (cam) cam.bounds = motion.bounds;
    if (cam) cam.fit(w, h, 24, legendWidth(canvas.getContext("2d"), motion.spec, model.get("lecture") ? 1.5 : 1));
    return dpr;
  }

  // The frame at `time`; the scrubber and the readout too unless `controls` is false.
  function draw(controls = true) {
    if (!motion) return;
    const dpr = window.devicePixelRatio || 1;
    if (!cam.width) size();
    const shown = motion.neutral ? motion.t0 : time;
    stats.legendBottom = drawFrame(ctx, cam, motion, shown, dpr, model.get("lecture"), still);
    stats.frames += 1; stats.time = shown;
    if (controls) showTime();
  }

  // The scrubber and the readout at `time`, each written only when what it shows changes.
  function showTime() {
    const span = motion.t1 - motion.t0;
    const position = span > 0 && !motion.neutral ? Math.round((1000 * (time - motion.t0)) / span) : 0;
    if (scrub.value !== String(position)) scrub.value = position;
    const text = motion.neutral ? `t = ${motion.t0.toFixed(2)} s`  // no end time: the outcome
      : `t = ${time.toFixed(2)} s / ${motion.t1.toFixed(2)} s`;
    if (text !== shownClock) { clockText.data = text; shownClock = text; }
  }

  function sync(force) {
    const now = performance.now();
    if (!force && now - lastSync < (playing ? PLAY_SYNC_INTERVAL_MS : SYNC_INTERVAL_MS)) return;
    lastSync = now; sentTime = time;
    model.set("time", time);
    if (Number.isFinite(played) && played !== sentPlayed) {
      sentPlayed = played; model.set("played", played);
    }
    model.save_changes();
  }

  function tick(now) {
    raf = null;
    if (!playing || !motion) return;
    if (last !== null) time += ((now - last) / 1000) * Number(speed.value);
    last = now;
    played = Math.max(played, Math.min(time, motion.t1));
    if (time >= motion.t1) {
      const passed = time;
      time = motion.t1; sync(true); time = passed; // the kernel hears that the end was reached
      if (loop.checked) time = motion.t0 + ((time - motion.t0) % Math.max(motion.t1 - motion.t0, 1e-9));
      else { time = motion.t1; setPlaying(false); }
    }
    const controls = !playing || now - lastControls >= CONTROLS_INTERVAL_MS;
    if (controls) lastControls = now;
    draw(controls);
    sync(false);
    if (playing) raf = requestAnimationFrame(tick);
  }

  function setPlaying(on) {
    if (on) watch();
    const wasPlaying = playing;
    playing = on; stats.playing = on;
    play.textContent = on ? "❚❚ pause" : "▶ play";
    last = null;
    if (on && motion && time >= motion.t1) time = motion.t0;
    if (on && raf === null) raf = requestAnimationFrame(tick);
    if (!on && wasPlaying) { // the controls and the kernel show where playback stopped
      if (motion) showTime();
      sync(true);
    }
  }

  function seek(t) {
    if (!motion) return;
    time = Math.min(Math.max(t, motion.t0), motion.t1);
    last = null;
    draw();
  }

  function load() {
    const spec = model.get("spec");
    if (!spec || !spec.channels) return;
    motion = new Motion(spec, floats(model.get("frames")));
    const previous = cam;
    cam = new Camera(spec);
    if (previous && !cam.planar && previous.planar === cam.planar) {
      cam.azimuth = previous.azimuth; cam.elevation = previous.elevation; cam.orient();
    }
    showCaption();
    turns.hidden = cam.planar;
    // "1–9 presets" only where the explorer above has presets to press.
    const explorer = explorerBefore(root);
    keys.textContent = KEYS_HELP + (explorer && explorer.querySelector(PRESET) ? " · 1–9 presets" : "")
      + (cam.planar ? "" : TURN_HELP);
    root.classList.toggle("companion-scene-lecture", !!model.get("lecture"));
    time = motion.t0; last = null; played = -Infinity; sentPlayed = null;
    watched = false;
    motion.neutral = !!model.get("predict");
    if (motion.neutral && playing) setPlaying(false); // an open prediction waits for play
    size();
    draw();
    stats.generation += 1;
    stats.shownAt.push(performance.now());
    if (playing && raf === null) raf = requestAnimationFrame(tick);
  }

  let pending = false;
  function reload() { // spec and frames arrive in one message: load once for both
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; load(); });
  }

  model.on("change:spec", reload);
  model.on("change:frames", reload);
  function showCaption() {
    const spec = model.get("spec") || {};
    // written only when it changes: each write is announced (aria-live) and laid out again
    const text = model.get("predict") ? PREDICT_CAPTION : spec.description || "";
    if (caption.textContent !== text) caption.textContent = text;
    if (canvas.getAttribute("aria-label") !== (text || "scene")) canvas.setAttribute("aria-label", text || "scene");
  }
  model.on("change:predict", () => {
    if (model.get("predict")) watched = false; // a new question
    showCaption(); neutralize();
  });
  model.on("change:lecture", () => { // a larger legend: the camera makes room for it again
    root.classList.toggle("companion-scene-lecture", !!model.get("lecture")); size(); draw();
  });
  model.on("change:time", () => {
    const t = model.get("time");
    if (t === sentTime) return; // our own echo
    seek(t);
  });
  play.addEventListener("click", () => setPlaying(!playing));
  scrub.addEventListener("input", () => {
    if (!motion) return;
    watch();
    seek(motion.t0 + (Number(scrub.value) / 1000) * (motion.t1 - motion.t0));
    sync(false);
  });
  scrub.addEventListener("change", () => sync(true));
  function turn(key) {
    if (!cam || cam.planar) return;
    const [across, up] = TURNS[key];
    cam.azimuth += across * TURN_STEP;
    cam.elevation = Math.max(-89, Math.min(89, cam.elevation + up * TURN_STEP));
    cam.orient(); size(); draw();
  }

  loop.addEventListener("change", () => { model.set("loop", loop.checked); model.save_changes(); });
  full.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (root.requestFullscreen) root.requestFullscreen();
  });
  const onFullscreen = () => { size(); draw(); };
  document.addEventListener("fullscreenchange", onFullscreen);
  root.addEventListener("keydown", (event) => {
    if (!motion || event.target === speed) return;
    const stepSize = (motion.t1 - motion.t0) / (event.shiftKey ? 10 : 50);
    if (event.key === " " || event.key === "k") { setPlaying(!playing); }
    else if (event.key === "ArrowRight") { watch(); seek(time + stepSize); sync(true); }
    else if (event.key === "ArrowLeft") { watch(); seek(time - stepSize); sync(true); }
    else if (event.key === "Home") { seek(motion.t0); sync(true); }
    else if (event.key === "End") { seek(motion.t1); sync(true); } // no play: a prediction stays open
    else if (event.key in TURNS && cam && !cam.planar && !event.ctrlKey && !event.metaKey
             && !event.altKey) { turn(event.key); }
    else if (/^[1-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const explorer = explorerBefore(root);
      const preset = explorer && explorer.querySelectorAll(PRESET)[Number(event.key) - 1];
      if (!preset) return;
      preset.click();
    }
    else return;
    event.preventDefault(); event.stopPropagation();
  });
  canvas.addEventListener("pointerdown", (event) => {
    if (!cam || cam.planar) return;
    drag = [event.clientX, event.clientY, cam.azimuth, cam.elevation];
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!drag) return;
    cam.azimuth = drag[2] - (event.clientX - drag[0]) * 0.4;
    cam.elevation = Math.max(-89, Math.min(89, drag[3] + (event.clientY - drag[1]) * 0.4));
    cam.orient(); size(); draw();
  });
  canvas.addEventListener("pointerup", () => { drag = null; });
  const resized = () => { if (motion) { size(); draw(); } };
  const observer = new ResizeObserver(resized);
  observer.observe(root);
  window.addEventListener("resize", resized);  // the screen's height bounds a lecture scene

  focusScenesAfterPresets();
  setPlaying(playing);
  load();
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", resized);
    document.removeEventListener("fullscreenchange", onFullscreen);
    if (raf !== null) cancelAnimationFrame(raf);
    playing = false;
    const list = registry();
    list.splice(list.indexOf(stats), 1);
  };
}

// Share of a predict preset's motion to play before its outcome is told (PLAYED_SHARE in
// widgets/explorer.py).
const PLAYED_SHARE = 0.9;

// A scene without a widget manager (an exported page, opened from file:// without a kernel):
// the same view on a stand-in model holding the state the kernel would have sent.  It
// answers a prediction as the kernel does: the caption tells the motion once it has played.
export function play(el, state) {
  const attrs = { ...state };
  const handlers = {};
  const { t0, t1 } = new Motion(state.spec, floats(state.frames));
  const model = {
    get: (key) => attrs[key],
    set: (key, value) => {
      attrs[key] = value; (handlers[`change:${key}`] || []).forEach((f) => f());
      if (key === "played" && attrs.predict && value >= t0 + PLAYED_SHARE * (t1 - t0)) model.set("predict", false);
    },
    save_changes() {},
    on(event, callback) { (handlers[event] = handlers[event] || []).push(callback); },
  };
  return render({ model, el });
}

// The drawing itself, for tests comparing a frame drawn on its still layer with one drawn whole.
export { Camera, Motion, StillLayer, drawFrame };

export default { render };

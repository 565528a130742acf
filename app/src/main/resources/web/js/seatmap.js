// The interactive seat map: one <canvas>, sections laid out in rank order below the stage.
//
// Far out, each section is drawn from a small bitmap with one pixel per seat (so 60,000 seats cost
// 24 image draws per frame and a change costs one pixel); close in, only the seats in view are drawn,
// one rectangle each, batched into one path per colour. Pan by dragging, zoom with the wheel, a pinch,
// the buttons or the keyboard; a click or tap on a section zooms into it, on a seat toggles it.
//
// Keyboard: arrows move between sections, Enter opens one; inside a section arrows move between seats,
// Space or Enter selects, Home/End go to the ends of the row, Escape goes back to the whole venue,
// + and - zoom. Every move is read out through the page's live region.

import {AVAILABLE, HELD, SOLD} from './seats.js';

const GAP = 6;            // world units (seats) between sections
const LABEL = 4;          // room above a section for its name
const STAGE_H = 9;
const SEAT_LOD = 6;       // css px per seat from which seats are drawn one by one
const MAX_SCALE = 48;
const CELL = 3;           // bitmap pixels per seat: a 2x2 seat and a 1-pixel aisle, so far out still looks seated
const COLORS = {
  held: '#c5cad3',
  sold: '#8e96a4',
  blocked: '#e4e6eb',
  selected: '#14122b',
  focus: '#ff6b4a',
  hover: '#14122b',
  background: '#fbfbfe',
  backdrop: '#efeef6',
  stage: '#14122b',
  text: '#2b2942',
};

function rgba(hex) {
  const n = parseInt(hex.slice(1), 16);
  // little-endian RGBA in one 32-bit word
  return (255 << 24) | ((n & 0xff) << 16) | (n & 0xff00) | ((n >> 16) & 0xff);
}

const PIXEL = {
  held: rgba(COLORS.held),
  sold: rgba(COLORS.sold),
  blocked: rgba(COLORS.blocked),
  selected: rgba(COLORS.selected),
};

const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export class SeatMap {
  /**
   * @param container element the canvas fills
   * @param model a ShowModel
   * @param options isSelected(i), onSeat(i) (toggle), onSectionChange(section|null), announce(text)
   */
  constructor(container, model, options) {
    this.container = container;
    this.model = model;
    this.isSelected = options.isSelected;
    this.onSeat = options.onSeat;
    this.onSectionChange = options.onSectionChange || (() => {});
    this.announce = options.announce || (() => {});
    this.describe = options.describe || (i => model.describe(i));
    this.sectionLabel = options.describeSection || (section => `Section ${section.name}`);

    this.canvas = document.createElement('canvas');
    this.canvas.className = 'seatmap__canvas';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'application');
    this.canvas.setAttribute('aria-roledescription', 'seat map');
    this.canvas.setAttribute('aria-label', options.label || 'Seat map');
    if (options.describedBy) this.canvas.setAttribute('aria-describedby', options.describedBy);
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'seatmap__tooltip';
    this.tooltip.hidden = true;
    container.append(this.canvas, this.tooltip);
    this.ctx = this.canvas.getContext('2d');

    this.width = 0;
    this.height = 0;
    this.camera = {s: 1, tx: 0, ty: 0};
    this.pointers = new Map();
    this.hoverSeat = -1;
    this.hoverSection = null;
    this.focusSection = model.sections[0] || null;
    this.cursor = -1;           // keyboard seat, or -1 on the whole-venue level
    this.openSection = null;    // the section zoomed into, if any
    this.hasFocus = false;
    this.keyboard = false;      // the cursor shows only while the keyboard drives the map
    this.frame = 0;
    this.animation = 0;
    this.animating = false;

    this.measure();
    this.layout();
    this.buildBitmaps();
    this.fit(false);
    this.listen();
  }

  // ---- layout -----------------------------------------------------------------------------------

  /** Sections in rank order, in rows under the stage, as many per row as suits the map's shape. */
  layout() {
    const sections = this.model.sections;
    const target = Math.min(2, Math.max(0.75, this.width / Math.max(1, this.height)));
    let best = null;
    const candidates = sections.length <= 4 ? [1] : sections.map((_, i) => i + 1);
    for (const perRow of candidates) {
      const plan = this.plan(sections, perRow);
      const score = Math.abs(Math.log((plan.width / plan.height) / target));
      if (!best || score < best.score - 1e-9) best = {...plan, score, perRow};
    }
    for (const p of best.placed) Object.assign(p.section, {x: p.x, y: p.y, w: p.w, h: p.h, gridRow: p.gridRow, gridCol: p.gridCol});
    this.world = {x: -GAP, y: -GAP, w: best.width + 2 * GAP, h: best.height + 2 * GAP};
    const stageW = Math.min(best.width * 0.6, Math.max(40, best.width * 0.35));
    this.stage = {x: (best.width - stageW) / 2, y: 0, w: stageW, h: STAGE_H};
  }

  plan(sections, perRow) {
    const rows = [];
    for (let i = 0; i < sections.length; i += perRow) rows.push(sections.slice(i, i + perRow));
    const widths = rows.map(r => r.reduce((w, s) => w + s.width, 0) + GAP * (r.length - 1));
    const width = Math.max(...widths);
    const placed = [];
    let y = STAGE_H + GAP * 1.5;
    rows.forEach((r, gridRow) => {
      let x = (width - widths[gridRow]) / 2;
      const height = Math.max(...r.map(s => s.rows.length));
      r.forEach((s, gridCol) => {
        placed.push({section: s, x, y: y + LABEL, w: s.width, h: s.rows.length, gridRow, gridCol});
        x += s.width + GAP;
      });
      y += LABEL + height + GAP;
    });
    return {placed, width, height: y - GAP};
  }

  /** World position (top-left corner) of seat i. */
  seatXY(i) {
    const row = this.model.row(i);
    const s = row.section;
    return {x: s.x + (s.w - row.count) / 2 + (i - row.start), y: s.y + row.ordinal};
  }

  seatAtWorld(wx, wy) {
    const section = this.sectionAtWorld(wx, wy, 0);
    if (!section) return -1;
    const row = section.rows[Math.floor(wy - section.y)];
    if (!row) return -1;
    const n = Math.floor(wx - section.x - (section.w - row.count) / 2);
    return n >= 0 && n < row.count ? row.start + n : -1;
  }

  sectionAtWorld(wx, wy, margin = LABEL) {
    return this.model.sections.find(s => wx >= s.x - margin && wx < s.x + s.w + margin
      && wy >= s.y - LABEL - margin && wy < s.y + s.h + margin) || null;
  }

  // ---- bitmaps: one pixel per seat --------------------------------------------------------------

  buildBitmaps() {
    for (const s of this.model.sections) {
      const canvas = document.createElement('canvas');
      canvas.width = s.w * CELL;
      canvas.height = s.h * CELL;
      s.bitmap = canvas;
      s.image = new ImageData(s.w * CELL, s.h * CELL);
      s.pixels = new Uint32Array(s.image.data.buffer);
      s.available32 = rgba(s.color);
      // the bitmap can stand in for the seats only where its cells line up with them: rows
      // centred on whole seats
      s.aligned = s.rows.every(row => (s.w - row.count) % 2 === 0);
      for (const row of s.rows) {
        for (let n = 0; n < row.count; n++) this.paintPixel(row.start + n);
      }
      s.dirty = true;
    }
  }

  paintPixel(i) {
    const row = this.model.row(i);
    const s = row.section;
    const x = (Math.floor((s.w - row.count) / 2) + (i - row.start)) * CELL;
    const stride = s.w * CELL;
    const at = row.ordinal * CELL * stride + x;
    const color = this.pixelColor(i, s);
    s.pixels[at] = color;
    s.pixels[at + 1] = color;
    s.pixels[at + stride] = color;
    s.pixels[at + stride + 1] = color;
    s.dirty = true;
  }

  pixelColor(i, s) {
    if (this.isSelected(i)) return PIXEL.selected;
    switch (this.model.status[i]) {
      case AVAILABLE: return s.available32;
      case HELD: return PIXEL.held;
      case SOLD: return PIXEL.sold;
      default: return PIXEL.blocked;
    }
  }

  /** Redraws the given seats (their status or selection changed). */
  updateSeats(indexes) {
    if (indexes.length > this.model.seatCount / 4) {
      this.buildBitmaps();
    } else {
      for (const i of indexes) this.paintPixel(i);
    }
    if (!this.tooltip.hidden && this.hoverSeat >= 0) this.tooltip.textContent = this.describe(this.hoverSeat);
    this.invalidate();
  }

  // ---- camera -----------------------------------------------------------------------------------

  measure() {
    const r = this.container.getBoundingClientRect();
    this.width = Math.max(1, Math.round(r.width));
    this.height = Math.max(1, Math.round(r.height));
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${this.height}px`;
    this.dpr = dpr;
  }

  cameraFor(rect, padding = 16) {
    const s = Math.min((this.width - 2 * padding) / rect.w, (this.height - 2 * padding) / rect.h);
    return {s, tx: (this.width - rect.w * s) / 2 - rect.x * s, ty: (this.height - rect.h * s) / 2 - rect.y * s};
  }

  get minScale() {
    return this.cameraFor(this.world).s * 0.7;
  }

  fit(animate = true) {
    this.openSection = null;
    this.cursor = -1;
    this.moveCamera(this.cameraFor(this.world, 12), animate);
    this.onSectionChange(null);
  }

  zoomToSection(section, animate = true) {
    this.openSection = section;
    this.focusSection = section;
    const rect = {x: section.x - 2, y: section.y - LABEL - 1, w: section.w + 4, h: section.h + LABEL + 2};
    const target = this.cameraFor(rect, 12);
    if (target.s > MAX_SCALE) {
      // a small section: centre it at the largest zoom
      target.tx += (rect.x + rect.w / 2) * (target.s - MAX_SCALE);
      target.ty += (rect.y + rect.h / 2) * (target.s - MAX_SCALE);
      target.s = MAX_SCALE;
    } else if (target.s < SEAT_LOD) {
      // a narrow screen (a 320 px phone): close enough to tap seats, centred on the section
      target.tx = this.width / 2 - (rect.x + rect.w / 2) * SEAT_LOD;
      target.ty = this.height / 2 - (rect.y + rect.h / 2) * SEAT_LOD;
      target.s = SEAT_LOD;
    }
    this.moveCamera(target, animate);
    this.onSectionChange(section);
  }

  zoomAt(px, py, factor, animate = false) {
    const c = this.camera;
    const s = Math.min(MAX_SCALE, Math.max(this.minScale, c.s * factor));
    const k = s / c.s;
    this.moveCamera({s, tx: px - (px - c.tx) * k, ty: py - (py - c.ty) * k}, animate);
    this.syncOpenSection();
  }

  zoomBy(factor) {
    this.zoomAt(this.width / 2, this.height / 2, factor, true);
  }

  moveCamera(target, animate) {
    cancelAnimationFrame(this.animation);
    if (!animate || reducedMotion()) {
      this.animating = false;
      this.camera = this.clamp(target);
      this.invalidate();
      return;
    }
    this.animating = true;
    const from = {...this.camera};
    const to = this.clamp(target);
    const start = performance.now();
    const duration = 260;
    const step = now => {
      const t = Math.min(1, (now - start) / duration);
      const e = 1 - Math.pow(1 - t, 3);
      // interpolate the scale geometrically, the offsets so that the motion looks straight
      const s = from.s * Math.pow(to.s / from.s, e);
      const f = (to.s === from.s) ? e : (s - from.s) / (to.s - from.s);
      this.camera = {s, tx: from.tx + (to.tx - from.tx) * f, ty: from.ty + (to.ty - from.ty) * f};
      this.animating = t < 1;
      this.draw();
      if (t < 1) this.animation = requestAnimationFrame(step);
    };
    this.animation = requestAnimationFrame(step);
  }

  /** Keeps some of the venue on screen whatever the pan. */
  clamp(c) {
    const w = this.world;
    const margin = 60;
    const minTx = margin - (w.x + w.w) * c.s;
    const maxTx = this.width - margin - w.x * c.s;
    const minTy = margin - (w.y + w.h) * c.s;
    const maxTy = this.height - margin - w.y * c.s;
    return {s: c.s, tx: Math.min(maxTx, Math.max(minTx, c.tx)), ty: Math.min(maxTy, Math.max(minTy, c.ty))};
  }

  /** After free zooming: the section filling the view counts as open, none when zoomed out. */
  syncOpenSection() {
    const c = this.camera;
    let open = null;
    if (c.s >= SEAT_LOD) {
      const wx = (this.width / 2 - c.tx) / c.s;
      const wy = (this.height / 2 - c.ty) / c.s;
      open = this.sectionAtWorld(wx, wy, GAP / 2) || this.openSection;
    }
    if (open !== this.openSection) {
      this.openSection = open;
      if (open) this.focusSection = open;
      if (!open) this.cursor = -1;
      this.onSectionChange(open);
    }
  }

  toScreen(wx, wy) {
    const c = this.camera;
    return {x: wx * c.s + c.tx, y: wy * c.s + c.ty};
  }

  toWorld(px, py) {
    const c = this.camera;
    return {x: (px - c.tx) / c.s, y: (py - c.ty) / c.s};
  }

  // ---- drawing ----------------------------------------------------------------------------------

  invalidate() {
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.draw();
      });
    }
  }

  draw() {
    const ctx = this.ctx;
    const {s, tx, ty} = this.camera;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, this.width, this.height);

    this.drawStage();
    const seats = s >= SEAT_LOD;
    // While the map moves, the cheapest filter that still looks right keeps a slow phone's frames
    // short: none when the bitmaps are enlarged (each seat a sharp block), a plain one when they
    // are shrunk. At rest the map is drawn once more with the finest.
    const moving = this.animating || this.pointers.size > 0;
    const smoothing = !moving || (s * this.dpr) / CELL < 1;
    const view = {x0: -tx / s, y0: -ty / s, x1: (this.width - tx) / s, y1: (this.height - ty) / s};
    for (const section of this.model.sections) {
      if (section.x > view.x1 || section.x + section.w < view.x0
        || section.y - LABEL > view.y1 || section.y + section.h < view.y0) continue;
      const p = this.toScreen(section.x, section.y);
      const pad = Math.max(3, s * 0.8);
      ctx.fillStyle = COLORS.backdrop;
      roundRect(ctx, p.x - pad, p.y - pad, section.w * s + 2 * pad, section.h * s + 2 * pad, Math.min(10, pad * 2));
      ctx.fill();
      const focused = this.hasFocus && this.keyboard && this.cursor < 0 && section === this.focusSection;
      if ((!seats && section === this.hoverSection) || focused) {
        ctx.lineWidth = 2;
        ctx.strokeStyle = focused ? COLORS.focus : COLORS.hover;
        ctx.stroke();
      }
      if (seats) {
        this.drawSeats(section, view);
      } else {
        if (section.dirty) {
          section.bitmap.getContext('2d').putImageData(section.image, 0, 0);
          section.dirty = false;
        }
        ctx.imageSmoothingEnabled = smoothing;
        ctx.imageSmoothingQuality = moving ? 'low' : 'high';
        ctx.drawImage(section.bitmap, p.x, p.y, section.w * s, section.h * s);
      }
      this.drawLabel(section, p, seats);
    }
    if (seats) this.drawCursor();
  }

  drawStage() {
    const ctx = this.ctx;
    const p = this.toScreen(this.stage.x, this.stage.y);
    const w = this.stage.w * this.camera.s;
    const h = this.stage.h * this.camera.s;
    if (p.y + h < 0) return;
    ctx.fillStyle = COLORS.stage;
    roundRect(ctx, p.x, p.y, w, h, Math.min(12, h / 2));
    ctx.fill();
    const size = Math.min(14, Math.max(9, h * 0.38));
    if (w > 50) {
      ctx.fillStyle = '#ffffff';
      ctx.font = `600 ${size}px Inter, system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText('STAGE', p.x + w / 2, p.y + h / 2 + 0.5);
    }
  }

  drawSeats(section, view) {
    const ctx = this.ctx;
    const {s} = this.camera;
    const model = this.model;
    const inset = s >= 10 ? 0.14 : 0.1;
    const size = s * (1 - 2 * inset);
    const rounded = s >= 12;
    const radius = Math.min(4, size * 0.28);
    if (!rounded && section.aligned) {
      this.blitSeats(section, view);
      return;
    }
    const paths = new Map();
    const path = key => {
      let p = paths.get(key);
      if (!p) paths.set(key, p = new Path2D());
      return p;
    };
    const r0 = Math.max(0, Math.floor(view.y0 - section.y));
    const r1 = Math.min(section.h - 1, Math.floor(view.y1 - section.y));
    const selected = [];
    for (let r = r0; r <= r1; r++) {
      const row = section.rows[r];
      const offset = section.x + (section.w - row.count) / 2;
      const n0 = Math.max(0, Math.floor(view.x0 - offset));
      const n1 = Math.min(row.count - 1, Math.floor(view.x1 - offset));
      const y = (section.y + r) * s + this.camera.ty + s * inset;
      for (let n = n0; n <= n1; n++) {
        const i = row.start + n;
        let key;
        if (this.isSelected(i)) {
          key = 'selected';
          selected.push(i);
        } else {
          const st = model.status[i];
          key = st === AVAILABLE ? 'available' : st === HELD ? 'held' : st === SOLD ? 'sold' : 'blocked';
        }
        const x = (offset + n) * s + this.camera.tx + s * inset;
        const p = path(key);
        if (rounded) p.roundRect(x, y, size, size, radius);
        else p.rect(x, y, size, size);
      }
    }
    const fills = {available: section.color, held: COLORS.held, sold: COLORS.sold, blocked: COLORS.blocked, selected: COLORS.selected};
    for (const [key, p] of paths) {
      ctx.fillStyle = fills[key];
      ctx.fill(p);
    }
    if (selected.length) {
      // a ring in the accent colour, so a selection stands out against every price colour
      ctx.lineWidth = Math.max(1.5, Math.min(3, s * 0.14));
      ctx.strokeStyle = COLORS.focus;
      ctx.beginPath();
      for (const i of selected) {
        const w = this.seatXY(i);
        const p = this.toScreen(w.x, w.y);
        const o = s * inset - ctx.lineWidth / 2 - 0.5;
        if (rounded) ctx.roundRect(p.x + o, p.y + o, size + 2 * (ctx.lineWidth / 2 + 0.5), size + 2 * (ctx.lineWidth / 2 + 0.5), radius + 1);
        else ctx.rect(p.x + o, p.y + o, size + 2 * (ctx.lineWidth / 2 + 0.5), size + 2 * (ctx.lineWidth / 2 + 0.5));
      }
      ctx.stroke();
    }
    if (s >= 14 && selected.length) {
      // a check mark on selected seats, so selection does not rely on colour alone
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = Math.max(1.5, s * 0.1);
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.beginPath();
      for (const i of selected) {
        const w = this.seatXY(i);
        const p = this.toScreen(w.x, w.y);
        ctx.moveTo(p.x + s * 0.3, p.y + s * 0.52);
        ctx.lineTo(p.x + s * 0.45, p.y + s * 0.66);
        ctx.lineTo(p.x + s * 0.7, p.y + s * 0.36);
      }
      ctx.stroke();
    }
    if (s >= 30) {
      // close enough to read: seat numbers on the free seats
      ctx.font = `500 ${Math.round(s * 0.36)}px Inter, system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let r = r0; r <= r1; r++) {
        const row = section.rows[r];
        const offset = section.x + (section.w - row.count) / 2;
        const n0 = Math.max(0, Math.floor(view.x0 - offset));
        const n1 = Math.min(row.count - 1, Math.floor(view.x1 - offset));
        for (let n = n0; n <= n1; n++) {
          const i = row.start + n;
          if (model.status[i] !== AVAILABLE || this.isSelected(i)) continue;
          const p = this.toScreen(offset + n + 0.5, section.y + r + 0.5);
          ctx.fillStyle = 'rgba(255,255,255,0.9)';
          ctx.fillText(String(n + 1), p.x, p.y + 0.5);
        }
      }
    }
    if (s >= 12) {
      // row labels at both ends
      ctx.fillStyle = COLORS.text;
      ctx.font = `500 ${Math.min(13, Math.round(s * 0.6))}px Inter, system-ui, sans-serif`;
      ctx.textBaseline = 'middle';
      for (let r = r0; r <= r1; r++) {
        const row = section.rows[r];
        const offset = section.x + (section.w - row.count) / 2;
        const left = this.toScreen(offset - 0.6, section.y + r + 0.5);
        const right = this.toScreen(offset + row.count + 0.6, section.y + r + 0.5);
        ctx.textAlign = 'right';
        ctx.fillText(row.label, left.x, left.y);
        ctx.textAlign = 'left';
        ctx.fillText(row.label, right.x, right.y);
      }
    }
    this.drawHover(section);
  }

  /** A ring around the seat under the mouse. */
  drawHover(section) {
    if (this.hoverSeat < 0 || this.model.section(this.hoverSeat) !== section) return;
    const ctx = this.ctx;
    const {s} = this.camera;
    const w = this.seatXY(this.hoverSeat);
    const p = this.toScreen(w.x, w.y);
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLORS.hover;
    roundRect(ctx, p.x + 0.5, p.y + 0.5, s - 1, s - 1, Math.min(5, s * 0.3));
    ctx.stroke();
  }

  /**
   * Seats too small for rounded corners or labels (the most of them on screen at once): the
   * section's bitmap, scaled without smoothing so each seat stays a sharp block of its colour,
   * shifted so that each seat sits in the middle of its place. One image instead of a path per
   * seat keeps a frame short on a slow phone whatever the number of seats in view; the selection's
   * rings and the hover are drawn over it.
   */
  blitSeats(section, view) {
    const ctx = this.ctx;
    const {s} = this.camera;
    if (section.dirty) {
      section.bitmap.getContext('2d').putImageData(section.image, 0, 0);
      section.dirty = false;
    }
    const p = this.toScreen(section.x, section.y);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(section.bitmap, p.x + s / (2 * CELL), p.y + s / (2 * CELL), section.w * s, section.h * s);
    ctx.imageSmoothingEnabled = true;
    const r0 = Math.max(0, Math.floor(view.y0 - section.y));
    const r1 = Math.min(section.h - 1, Math.floor(view.y1 - section.y));
    const size = s * (CELL - 1) / CELL;
    ctx.lineWidth = Math.max(1.5, Math.min(3, s * 0.14));
    ctx.strokeStyle = COLORS.focus;
    ctx.beginPath();
    for (let r = r0; r <= r1; r++) {
      const row = section.rows[r];
      const offset = section.x + (section.w - row.count) / 2;
      const n0 = Math.max(0, Math.floor(view.x0 - offset));
      const n1 = Math.min(row.count - 1, Math.floor(view.x1 - offset));
      for (let n = n0; n <= n1; n++) {
        if (!this.isSelected(row.start + n)) continue;
        const q = this.toScreen(offset + n, section.y + r);
        const o = (s - size) / 2 - ctx.lineWidth / 2 - 0.5;
        ctx.rect(q.x + o, q.y + o, size + ctx.lineWidth + 1, size + ctx.lineWidth + 1);
      }
    }
    ctx.stroke();
    this.drawHover(section);
  }

  drawCursor() {
    if (!this.hasFocus || !this.keyboard || this.cursor < 0) return;
    const {s} = this.camera;
    const w = this.seatXY(this.cursor);
    const p = this.toScreen(w.x, w.y);
    const ctx = this.ctx;
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLORS.focus;
    roundRect(ctx, p.x - 1.5, p.y - 1.5, s + 3, s + 3, Math.min(6, s * 0.35));
    ctx.stroke();
  }

  drawLabel(section, p, seats) {
    const ctx = this.ctx;
    const {s} = this.camera;
    const w = section.w * s;
    if (seats) {
      const size = Math.min(16, Math.max(11, LABEL * s * 0.45));
      ctx.font = `650 ${size}px Inter, system-ui, sans-serif`;
      ctx.fillStyle = COLORS.text;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(`Section ${section.name}`, p.x, p.y - Math.max(6, s * 0.9));
      return;
    }
    if (w < 22) return;
    const size = Math.max(10, Math.min(15, w / 7));
    ctx.font = `700 ${size}px Inter, system-ui, sans-serif`;
    const text = section.name;
    const tw = ctx.measureText(text).width;
    const cx = p.x + w / 2;
    const cy = p.y + section.h * s / 2;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    roundRect(ctx, cx - tw / 2 - 6, cy - size * 0.75, tw + 12, size * 1.5, size * 0.75);
    ctx.fill();
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx, cy + 0.5);
  }

  // ---- input ------------------------------------------------------------------------------------

  listen() {
    const c = this.canvas;
    c.addEventListener('pointerdown', e => this.pointerDown(e));
    c.addEventListener('pointermove', e => this.pointerMove(e));
    c.addEventListener('pointerup', e => this.pointerUp(e));
    c.addEventListener('pointercancel', e => {
      this.pointers.delete(e.pointerId);
      this.invalidate();
    });
    c.addEventListener('pointerleave', () => this.hover(-1, null));
    c.addEventListener('wheel', e => this.wheel(e), {passive: false});
    c.addEventListener('keydown', e => this.key(e));
    c.addEventListener('focus', () => {
      this.hasFocus = true;
      this.keyboard = c.matches(':focus-visible');
      this.invalidate();
    });
    c.addEventListener('blur', () => {
      this.hasFocus = false;
      this.invalidate();
    });
    this.resizeObserver = new ResizeObserver(() => {
      const before = this.toWorld(this.width / 2, this.height / 2);
      const scale = this.camera.s;
      this.measure();
      this.camera = this.clamp({s: scale, tx: this.width / 2 - before.x * scale, ty: this.height / 2 - before.y * scale});
      if (!this.openSection) this.camera = this.clamp(this.cameraFor(this.world, 12));
      this.draw();
    });
    this.resizeObserver.observe(this.container);
  }

  local(e) {
    const r = this.canvas.getBoundingClientRect();
    return {x: e.clientX - r.left, y: e.clientY - r.top};
  }

  pointerDown(e) {
    this.keyboard = false;
    this.canvas.setPointerCapture(e.pointerId);
    const p = this.local(e);
    this.pointers.set(e.pointerId, {...p, startX: p.x, startY: p.y});
    this.moved = false;
    if (this.pointers.size === 2) this.pinch = this.pinchState();
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    return {d: Math.hypot(a.x - b.x, a.y - b.y), cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2};
  }

  pointerMove(e) {
    const p = this.local(e);
    const down = this.pointers.get(e.pointerId);
    if (!down) {
      if (e.pointerType === 'mouse') this.hoverAt(p.x, p.y, e);
      return;
    }
    const dx = p.x - down.x;
    const dy = p.y - down.y;
    down.x = p.x;
    down.y = p.y;
    if (Math.hypot(p.x - down.startX, p.y - down.startY) > 4) this.moved = true;
    if (this.pointers.size >= 2 && this.pinch) {
      const now = this.pinchState();
      const factor = now.d / Math.max(1, this.pinch.d);
      const c = this.camera;
      const s = Math.min(MAX_SCALE, Math.max(this.minScale, c.s * factor));
      const k = s / c.s;
      this.camera = this.clamp({s, tx: now.cx - (this.pinch.cx - c.tx) * k, ty: now.cy - (this.pinch.cy - c.ty) * k});
      this.pinch = now;
      this.invalidate();
      return;
    }
    if (this.moved) {
      this.canvas.classList.add('is-panning');
      this.camera = this.clamp({...this.camera, tx: this.camera.tx + dx, ty: this.camera.ty + dy});
      this.tooltip.hidden = true;
      this.invalidate();
    }
  }

  pointerUp(e) {
    const p = this.local(e);
    const wasPinch = this.pointers.size >= 2;
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    this.canvas.classList.remove('is-panning');
    if (wasPinch || this.moved) {
      this.syncOpenSection();
      this.invalidate(); // at rest again: drawn with the finer filter
      return;
    }
    this.tap(p.x, p.y);
  }

  tap(px, py) {
    const w = this.toWorld(px, py);
    if (this.camera.s >= SEAT_LOD) {
      const seat = this.seatAtWorld(w.x, w.y);
      if (seat >= 0) {
        this.cursor = seat;
        this.openSection = this.model.section(seat);
        this.focusSection = this.openSection;
        this.onSeat(seat);
        return;
      }
    }
    const section = this.sectionAtWorld(w.x, w.y);
    if (section && (this.camera.s < SEAT_LOD || section !== this.openSection)) {
      this.zoomToSection(section);
      this.announce(this.sectionText(section));
    }
  }

  wheel(e) {
    e.preventDefault();
    const p = this.local(e);
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    this.zoomAt(p.x, p.y, Math.exp(-delta * 0.0016));
  }

  hoverAt(px, py, e) {
    const w = this.toWorld(px, py);
    const seat = this.camera.s >= SEAT_LOD ? this.seatAtWorld(w.x, w.y) : -1;
    const section = seat >= 0 ? this.model.section(seat) : this.sectionAtWorld(w.x, w.y);
    this.hover(seat, section);
    if (seat >= 0 || section) {
      this.tooltip.textContent = seat >= 0 ? this.describe(seat) : this.sectionText(section);
      this.tooltip.hidden = false;
      const tx = Math.min(px + 14, this.width - this.tooltip.offsetWidth - 8);
      const ty = py + 18 + this.tooltip.offsetHeight > this.height ? py - this.tooltip.offsetHeight - 12 : py + 18;
      this.tooltip.style.transform = `translate(${Math.max(8, tx)}px, ${ty}px)`;
      this.canvas.style.cursor = 'pointer';
    } else {
      this.tooltip.hidden = true;
      this.canvas.style.cursor = '';
    }
  }

  hover(seat, section) {
    if (seat !== this.hoverSeat || section !== this.hoverSection) {
      this.hoverSeat = seat;
      this.hoverSection = section;
      this.invalidate();
    }
    if (seat < 0 && !section) this.tooltip.hidden = true;
  }

  sectionText(section) {
    return this.sectionLabel(section);
  }

  key(e) {
    const k = e.key;
    if (k === 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
    this.keyboard = true;
    if (k === '+' || k === '=') {
      this.zoomBy(1.4);
    } else if (k === '-' || k === '_') {
      this.zoomBy(1 / 1.4);
    } else if (k === '0') {
      this.fit();
      this.announce('Whole venue');
    } else if (this.cursor < 0) {
      if (!this.keyOverview(k)) return;
    } else if (!this.keySeats(k)) {
      return;
    }
    e.preventDefault();
  }

  keyOverview(k) {
    const current = this.focusSection || this.model.sections[0];
    const dir = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[k];
    if (dir) {
      const next = this.neighbour(current, dir);
      if (next) {
        this.focusSection = next;
        this.invalidate();
        this.announce(this.sectionText(next));
      }
      return true;
    }
    if (k === 'Enter' || k === ' ') {
      this.zoomToSection(current);
      this.cursor = this.firstSeat(current);
      this.announce(`${this.sectionText(current)}. ${this.describeCursor()}`);
      return true;
    }
    return false;
  }

  keySeats(k) {
    const model = this.model;
    const row = model.row(this.cursor);
    const section = row.section;
    const n = this.cursor - row.start;
    let next = this.cursor;
    switch (k) {
      case 'ArrowLeft': next = row.start + Math.max(0, n - 1); break;
      case 'ArrowRight': next = row.start + Math.min(row.count - 1, n + 1); break;
      case 'Home': next = row.start; break;
      case 'End': next = row.start + row.count - 1; break;
      case 'ArrowUp': case 'ArrowDown': case 'PageUp': case 'PageDown': {
        const step = {ArrowUp: -1, ArrowDown: 1, PageUp: -5, PageDown: 5}[k];
        const target = section.rows[Math.min(section.rows.length - 1, Math.max(0, row.ordinal + step))];
        const x = (section.w - row.count) / 2 + n;
        const m = Math.round(x - (section.w - target.count) / 2);
        next = target.start + Math.min(target.count - 1, Math.max(0, m));
        break;
      }
      case 'Enter': case ' ':
        this.onSeat(this.cursor);
        return true;
      case 'Escape':
        this.focusSection = section;
        this.fit();
        this.announce(`Whole venue. ${this.sectionText(section)}`);
        return true;
      default:
        return false;
    }
    this.cursor = next;
    this.ensureVisible(next);
    this.invalidate();
    this.announce(this.describeCursor());
    return true;
  }

  describeCursor() {
    return this.cursor >= 0 ? this.describe(this.cursor) : '';
  }

  /** The first available seat of the section's front row nearest its middle, else its first seat. */
  firstSeat(section) {
    for (const row of section.rows) {
      const mid = Math.floor(row.count / 2);
      for (let d = 0; d <= mid + 1; d++) {
        for (const n of [mid - d, mid + d]) {
          if (n >= 0 && n < row.count && this.model.status[row.start + n] === AVAILABLE) return row.start + n;
        }
      }
    }
    return section.rows[0].start;
  }

  neighbour(from, [dx, dy]) {
    const cx = from.x + from.w / 2;
    const cy = from.y + from.h / 2;
    let best = null;
    let bestScore = Infinity;
    for (const s of this.model.sections) {
      if (s === from) continue;
      const ox = s.x + s.w / 2 - cx;
      const oy = s.y + s.h / 2 - cy;
      const along = ox * dx + oy * dy;
      if (along <= 0) continue;
      const across = Math.abs(ox * dy) + Math.abs(oy * dx);
      const score = along + across * 2;
      if (score < bestScore) {
        best = s;
        bestScore = score;
      }
    }
    return best;
  }

  ensureVisible(i) {
    const w = this.seatXY(i);
    const p = this.toScreen(w.x, w.y);
    const s = this.camera.s;
    const m = 40;
    let {tx, ty} = this.camera;
    if (p.x < m) tx += m - p.x;
    if (p.x + s > this.width - m) tx -= p.x + s - (this.width - m);
    if (p.y < m) ty += m - p.y;
    if (p.y + s > this.height - m) ty -= p.y + s - (this.height - m);
    if (tx !== this.camera.tx || ty !== this.camera.ty) this.moveCamera({s, tx, ty}, true);
  }

  /** Where seat i is drawn, in client (viewport) coordinates: its centre. */
  clientPoint(i) {
    const w = this.seatXY(i);
    const p = this.toScreen(w.x + 0.5, w.y + 0.5);
    const r = this.canvas.getBoundingClientRect();
    return {x: r.left + p.x, y: r.top + p.y};
  }

  /** Where a section's name is drawn (above its seats), in client coordinates: clicking there opens it. */
  sectionClientPoint(section) {
    const p = this.toScreen(section.x + section.w / 2, section.y - LABEL / 2);
    const r = this.canvas.getBoundingClientRect();
    return {x: r.left + p.x, y: r.top + p.y};
  }

  /** The colour drawn at the centre of seat i, as [r, g, b] (for tests and diagnostics). */
  sampleSeat(i) {
    this.draw();
    const w = this.seatXY(i);
    const p = this.toScreen(w.x + 0.5, w.y + 0.5);
    const d = this.ctx.getImageData(Math.round(p.x * this.dpr), Math.round(p.y * this.dpr), 1, 1).data;
    return [d[0], d[1], d[2]];
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    cancelAnimationFrame(this.animation);
    this.resizeObserver.disconnect();
    this.canvas.remove();
    this.tooltip.remove();
  }
}

export const SEAT_COLORS = COLORS;

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.max(0, Math.min(r, w / 2, h / 2)));
}

// An SVG Go board of any size (up to 25x25) with stones, marks drawn on
// points (continuation statistics, the last move, cycle moves), area
// shading, a shift+drag rectangle selection, and a small rules model
// (captures by liberties) for positions the pages build themselves.
'use strict';

class GoBoard {
  // container: an element; opts.onClick(x, y), opts.onSelect(rect|null).
  constructor(container, width, height, opts) {
    this.container = container;
    this.opts = opts || {};
    this.cell = 30;
    this.resize(width, height);
  }

  resize(width, height) {
    this.width = width;
    this.height = height;
    this.stones = new Map();   // "x,y" -> 'B' | 'W'
    this.marks = [];
    this.areas = [];
    this.selection = null;
    this.render();
  }

  // A position from setup stones and moves: [{colour, x, y}] (x < 0 for a
  // pass). Captures stones left without liberties; returns the prisoners.
  static play(width, height, stones, colour, x, y) {
    if (x < 0) return [];
    const key = (a, b) => `${a},${b}`;
    stones.set(key(x, y), colour);
    const other = colour === 'B' ? 'W' : 'B';
    const captured = [];
    const chain = (sx, sy) => {
      const c = stones.get(key(sx, sy));
      const seen = new Set([key(sx, sy)]);
      const todo = [[sx, sy]];
      let libs = 0;
      while (todo.length) {
        const [cx, cy] = todo.pop();
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const nx = cx + dx, ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const k = key(nx, ny);
          const s = stones.get(k);
          if (!s) libs++;
          else if (s === c && !seen.has(k)) { seen.add(k); todo.push([nx, ny]); }
        }
      }
      return {libs, points: [...seen]};
    };
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy;
      if (stones.get(key(nx, ny)) !== other) continue;
      const g = chain(nx, ny);
      if (g.libs === 0) {
        for (const k of g.points) { stones.delete(k); captured.push(k); }
      }
    }
    const own = chain(x, y);
    if (own.libs === 0) for (const k of own.points) stones.delete(k);
    return captured;
  }

  setStones(stones) { this.stones = stones; this.render(); }
  // marks: [{x, y, label, fill, text, ring, cls, data}].
  setMarks(marks) { this.marks = marks || []; this.render(); }
  // areas: [{x, y, colour}] small squares on owned points.
  setAreas(areas) { this.areas = areas || []; this.render(); }
  setSelection(sel) { this.selection = sel; this.render(); }

  // The point under a mouse event, or null.
  pointAt(ev) {
    const svg = this.svg;
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const x = Math.round((p.x - this.cell) / this.cell);
    const y = Math.round((p.y - this.cell) / this.cell);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    return {x, y};
  }

  render() {
    const c = this.cell, w = this.width, h = this.height;
    const W = (w + 1) * c, H = (h + 1) * c;
    const ns = 'http://www.w3.org/2000/svg';
    const parts = [];
    parts.push(`<rect class="wood" x="0" y="0" width="${W}" height="${H}"/>`);
    for (let x = 0; x < w; x++) {
      parts.push(`<line class="grid" x1="${c + x * c}" y1="${c}" x2="${c + x * c}" y2="${h * c}"/>`);
      parts.push(`<text class="coord" x="${c + x * c}" y="${c * 0.45}">${qipu.COLUMNS[x]}</text>`);
    }
    for (let y = 0; y < h; y++) {
      parts.push(`<line class="grid" x1="${c}" y1="${c + y * c}" x2="${w * c}" y2="${c + y * c}"/>`);
      parts.push(`<text class="coord" x="${c * 0.4}" y="${c + y * c + 4}">${h - y}</text>`);
    }
    for (const [sx, sy] of GoBoard.starPoints(w, h)) {
      parts.push(`<circle class="star" cx="${c + sx * c}" cy="${c + sy * c}" r="3"/>`);
    }
    for (const a of this.areas) {
      parts.push(`<rect class="area area-${a.colour}" x="${c + a.x * c - c / 6}" y="${c + a.y * c - c / 6}" width="${c / 3}" height="${c / 3}"/>`);
    }
    for (const [k, colour] of this.stones) {
      const [x, y] = k.split(',').map(Number);
      parts.push(`<circle class="stone stone-${colour}" data-vertex="${qipu.vertex(x, y, h)}" cx="${c + x * c}" cy="${c + y * c}" r="${c * 0.47}"/>`);
    }
    for (const m of this.marks) {
      const cx = c + m.x * c, cy = c + m.y * c;
      const cls = m.cls ? ` ${m.cls}` : '';
      const data = m.data ? ` data-vertex="${m.data}"` : '';
      if (m.fill) {
        parts.push(`<circle class="mark${cls}"${data} cx="${cx}" cy="${cy}" r="${c * 0.42}" fill="${m.fill}"/>`);
      }
      if (m.ring) {
        parts.push(`<circle class="ring${cls}" cx="${cx}" cy="${cy}" r="${c * 0.25}" stroke="${m.ring}"/>`);
      }
      if (m.label !== undefined) {
        const size = String(m.label).length > 3 ? 9 : 11;
        parts.push(`<text class="mark-label${cls}" x="${cx}" y="${cy + size / 3}" font-size="${size}" fill="${m.text || '#000'}">${qipu.esc(m.label)}</text>`);
      }
    }
    if (this.selection) {
      const s = this.selection;
      parts.push(`<rect class="selection" x="${c + s.x0 * c - c / 2}" y="${c + s.y0 * c - c / 2}" width="${(s.x1 - s.x0 + 1) * c}" height="${(s.y1 - s.y0 + 1) * c}"/>`);
    }
    // One svg element for the board's life (its listeners, and the
    // references scripts hold, stay valid); its content is redrawn.
    if (!this.svg || this.svg.parentNode !== this.container) {
      this.container.innerHTML = `<svg xmlns="${ns}" class="board"></svg>`;
      this.svg = this.container.querySelector('svg');
      this.attach();
    }
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this.svg.setAttribute('width', W);
    this.svg.setAttribute('height', H);
    this.svg.innerHTML = parts.join('');
  }

  // Mouse handling (once per svg element); the drag state lives on the
  // board.
  attach() {
    const svg = this.svg;
    svg.addEventListener('mousedown', (ev) => {
      const p = this.pointAt(ev);
      if (!p || !ev.shiftKey || !this.opts.onSelect) return;
      this.dragStart = p;
      this.selection = GoBoard.rect(p, p);
      ev.preventDefault();
      this.render();
    });
    svg.addEventListener('mousemove', (ev) => {
      if (!this.dragStart) return;
      const p = this.pointAt(ev);
      if (!p) return;
      const r = GoBoard.rect(this.dragStart, p);
      if (JSON.stringify(r) !== JSON.stringify(this.selection)) {
        this.selection = r;
        this.render();
      }
    });
    svg.addEventListener('mouseup', (ev) => {
      const p = this.pointAt(ev);
      if (this.dragStart) {
        this.selection = GoBoard.rect(this.dragStart, p || this.dragStart);
        this.dragStart = null;
        this.render();
        this.opts.onSelect(this.selection);
        return;
      }
      if (p && !ev.shiftKey && this.opts.onClick) this.opts.onClick(p.x, p.y);
    });
  }

  static rect(a, b) {
    return {x0: Math.min(a.x, b.x), y0: Math.min(a.y, b.y),
            x1: Math.max(a.x, b.x), y1: Math.max(a.y, b.y)};
  }

  static starPoints(w, h) {
    if (w !== h || w < 7) return [];
    const e = w >= 13 ? 3 : 2;
    const pts = [[e, e], [w - 1 - e, e], [e, h - 1 - e], [w - 1 - e, h - 1 - e]];
    if (w % 2 === 1) {
      const m = (w - 1) / 2;
      pts.push([m, m]);
      if (w >= 15) pts.push([m, e], [m, h - 1 - e], [e, m], [w - 1 - e, m]);
    }
    return pts;
  }
}

// The game viewer: steps through a stored game with /api/v1/game/ID/replay
// -- the game's JSON (the shape of /api/v1/game/ID) plus the replay's
// extras: captures per move, prisoners, the final area count drawn on the
// board -- with the cycles marked on the moves that made them, and the
// notes of a record kept against its rules (record_notes: a move its
// rules forbid, played as recorded, or where the record was cut); SGF
// download. The hash holds the game and the move: #id=s1-42&move=30.
'use strict';

(() => {
  const boardEl = document.getElementById('board');
  const errorEl = document.getElementById('game-error');
  let replay = null;
  let colours = [];     // colours[k]: 'B' or 'W', who played move k + 1
  let id = '';
  let current = 0;      // moves played on the board
  let board = null;
  let positions = [];   // positions[k]: stones after k moves

  // The colour of each move: first_color, then alternating but at the
  // indices in same_color_moves (the game's JSON).
  function moveColours(g) {
    const same = new Set(g.same_color_moves);
    let c = g.first_color;
    return g.moves.map((m, i) => {
      if (i > 0 && !same.has(i)) c = c === 'B' ? 'W' : 'B';
      return c;
    });
  }

  // The last move of a cycle: its first move plus the period, less one.
  const lastMove = (c) => c.first_move + c.period - 1;

  function buildPositions() {
    const w = replay.width, h = replay.height;
    const stones = new Map();
    const setupAt = (k) => {
      for (const s of replay.setup.filter((s) => s.before_move === k)) {
        for (const [list, colour] of [[s.black, 'B'], [s.white, 'W'], [s.empty, null]]) {
          for (const v of list) {
            const p = qipu.parseVertex(v, w, h);
            if (!p) continue;
            if (colour) stones.set(`${p.x},${p.y}`, colour);
            else stones.delete(`${p.x},${p.y}`);
          }
        }
      }
    };
    positions = [];
    setupAt(0);
    positions.push(new Map(stones));
    replay.replayed.forEach((m, i) => {
      const p = qipu.parseVertex(replay.moves[i], w, h);
      if (p) stones.set(`${p.x},${p.y}`, colours[i]);
      for (const v of m.captured) {
        const c = qipu.parseVertex(v, w, h);
        if (c) stones.delete(`${c.x},${c.y}`);
      }
      setupAt(i + 1);
      positions.push(new Map(stones));
    });
  }

  function show() {
    const w = replay.width, h = replay.height;
    const played = replay.replayed.length;
    current = Math.max(0, Math.min(current, played));
    board.setStones(positions[current]);
    const marks = [];
    const last = replay.replayed[current - 1];
    const lastVertex = replay.moves[current - 1];
    const lastColour = colours[current - 1];
    if (last) {
      const p = qipu.parseVertex(lastVertex, w, h);
      if (p) marks.push({x: p.x, y: p.y, ring: lastColour === 'B' ? '#fff' : '#000'});
    }
    // Moves of a cycle in progress at this move, marked in red.
    const active = replay.cycles.filter(
        (c) => current >= c.first_move && current <= lastMove(c));
    for (const c of active) {
      for (let k = c.first_move; k <= Math.min(current, lastMove(c)); k++) {
        const p = k <= played && qipu.parseVertex(replay.moves[k - 1], w, h);
        if (p) marks.push({x: p.x, y: p.y, ring: '#d00000', cls: 'cycle'});
      }
    }
    board.setMarks(marks);
    const showArea = document.getElementById('show-area').checked &&
                     current === played;
    const areas = [];
    if (showArea) {
      for (const [list, colour] of [[replay.territory.black, 'B'],
                                    [replay.territory.white, 'W'],
                                    [replay.territory.dame, 'D']]) {
        for (const v of list) {
          const p = qipu.parseVertex(v, w, h);
          if (p) areas.push({x: p.x, y: p.y, colour});
        }
      }
    }
    board.setAreas(areas);
    const txt = last ? `move ${current}: ${lastColour} ${lastVertex}` +
                       (last.captured.length ? ` captures ${last.captured.join(' ')}` : '')
                     : 'start';
    // A move the record played against its rules: its note.
    const noted = (replay.record_notes || []).filter((n) => !n.cut && n.move === current);
    document.getElementById('move-text').textContent =
      `${txt} (of ${played})` +
      (active.length ? ` -- in a ${active.map((c) => c.class).join(', ')} cycle` : '') +
      (noted.length ? ` -- kept as played: ${noted.map((n) => n.rule).join(', ')}` : '');
    boardEl.dataset.noted = noted.length ? noted.map((n) => n.rule).join(',') : '';
    document.getElementById('prisoners').textContent = last
      ? `Prisoners: Black took ${last.black_prisoners}, White took ${last.white_prisoners}`
      : 'Prisoners: none yet';
    qipu.writeHash({id, move: current});
    boardEl.dataset.move = String(current);
  }

  function info() {
    const meta = replay.meta || {};
    const rows = [
      ['size', `${replay.width}x${replay.height}`],
      ['rules', replay.rules],
      ['komi', replay.komi],
      ['handicap', replay.handicap],
      ['Black', meta.black_player || ''],
      ['White', meta.white_player || ''],
      ['date', meta.date || ''],
      ['result', replay.result],
      ['moves', `${replay.played}${replay.ended_at ? ` (rules ended it at ${replay.ended_at})` : ''}`],
      ['ko captures', replay.ko_captures],
    ];
    document.getElementById('title').textContent = `Game ${id}`;
    document.getElementById('game-info').innerHTML = rows.map(([k, v]) =>
      `<tr><th class="left">${k}</th><td class="left">${qipu.esc(v)}</td></tr>`).join('');
    const notes = replay.record_notes || [];
    document.getElementById('record-notes-box').hidden = notes.length === 0;
    document.getElementById('record-notes').innerHTML = notes.map((n, i) =>
      `<li class="record-note" data-rule="${qipu.esc(n.rule)}">${qipu.esc(n.text)}` +
      (n.cut ? '' : ` <button data-note="${i}">show</button>`) + '</li>').join('');
    for (const b of document.querySelectorAll('[data-note]')) {
      b.onclick = () => { current = notes[+b.dataset.note].move; show(); };
    }
    document.getElementById('cycle-list').innerHTML = replay.cycles.length
      ? '<table id="cycles"><thead><tr><th class="left">class</th><th class="left">outcome</th>' +
        '<th>moves</th><th></th></tr></thead><tbody>' +
        replay.cycles.map((c, i) =>
          `<tr><td class="left">${qipu.esc(c.class)}</td><td class="left">${qipu.esc(c.outcome)}</td>` +
          `<td>${c.first_move}-${lastMove(c)}</td><td><button data-cycle="${i}">show</button></td></tr>`).join('') +
        '</tbody></table>'
      : '<p class="muted">none</p>';
    for (const b of document.querySelectorAll('[data-cycle]')) {
      b.onclick = () => { current = lastMove(replay.cycles[+b.dataset.cycle]); show(); };
    }
    const a = replay.area;
    document.getElementById('area-text').textContent =
      `Black ${a.black} (stones ${a.black_stones}, territory ${a.black_territory}), ` +
      `White ${a.white} (stones ${a.white_stones}, territory ${a.white_territory}), ` +
      `dame ${a.dame}: ${replay.area_result}`;
  }

  async function open(state) {
    id = state.id || '';
    document.getElementById('game-id').value = id;
    qipu.clearError(errorEl);
    if (!id) return;
    try {
      replay = await qipu.api(`/api/v1/game/${encodeURIComponent(id)}/replay`);
    } catch (e) {
      qipu.showError(errorEl, e);
      return;
    }
    colours = moveColours(replay);
    board = new GoBoard(boardEl, replay.width, replay.height, {});
    buildPositions();
    current = state.move !== undefined ? parseInt(state.move, 10) || 0 : 0;
    info();
    show();
  }

  const step = (d) => () => { if (replay) { current += d; show(); } };
  document.getElementById('start').onclick = () => { current = 0; if (replay) show(); };
  document.getElementById('prev10').onclick = step(-10);
  document.getElementById('prev').onclick = step(-1);
  document.getElementById('next').onclick = step(1);
  document.getElementById('next10').onclick = step(10);
  document.getElementById('end').onclick = () => {
    if (replay) { current = replay.replayed.length; show(); }
  };
  document.getElementById('show-area').onchange = () => { if (replay) show(); };
  document.addEventListener('keydown', (ev) => {
    if (!replay || ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowLeft') step(-1)();
    if (ev.key === 'ArrowRight') step(1)();
  });
  document.getElementById('sgf').onclick = async () => {
    if (!id) return;
    try {
      await qipu.download(`/api/v1/game/${encodeURIComponent(id)}.sgf`, `qipu-${id}.sgf`);
    } catch (e) {
      qipu.showError(errorEl, e);
    }
  };
  document.getElementById('pick').addEventListener('submit', (ev) => {
    ev.preventDefault();
    open({id: document.getElementById('game-id').value.trim()});
  });
  window.addEventListener('popstate', () => {
    const s = qipu.readHash();
    if (s.id !== id) open(s);
    else if (replay) { current = parseInt(s.move, 10) || 0; show(); }
  });
  open(qipu.readHash());
})();

// The openings page: a board, the moves played on it (in the URL's hash
// with the filters, so a position can be shared), the continuations of
// /api/v1/openings drawn on their points and listed in a table, and the
// region search through /api/v1/pattern.
'use strict';

(() => {
  const boardEl = document.getElementById('board');
  const tbody = document.querySelector('#continuations tbody');
  const summary = document.getElementById('summary');
  const errorEl = document.getElementById('openings-error');
  const patternError = document.getElementById('pattern-error');
  const patternResult = document.getElementById('pattern-result');
  const searchButton = document.getElementById('search-pattern');
  let moves = [];       // as in the URL: "Q16", "pass", "B:Q16"
  let future = [];      // moves taken back, for "forward"
  let filters = {};
  let selection = null;
  let board = null;
  let lastAnswer = null;
  let patternMarks = null;

  function boardSize() {
    const s = (filters.size || '19').toLowerCase().split(/[x:]/);
    const w = parseInt(s[0], 10);
    const h = parseInt(s[s.length - 1], 10);
    const ok = (n) => n >= 2 && n <= 25;
    return ok(w) && ok(h) ? {w, h} : {w: 19, h: 19};
  }

  // Stones after the moves (uncoloured moves alternate from Black).
  function position() {
    const {w, h} = boardSize();
    const stones = new Map();
    let colour = 'B';
    for (const m of moves) {
      let c = colour, v = m;
      const colon = m.indexOf(':');
      if (colon > 0) {
        c = m[0].toUpperCase() === 'W' ? 'W' : 'B';
        v = m.slice(colon + 1);
      }
      const p = qipu.parseVertex(v, w, h);
      if (p) GoBoard.play(w, h, stones, c, p.x, p.y);
      colour = c === 'B' ? 'W' : 'B';
    }
    return stones;
  }

  function abbreviate(n) {
    if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
    if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
    if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
    return String(n);
  }

  // Marks of continuation rows ({move, games, black_win_rate}).
  function marksOf(rows, cls) {
    const {w, h} = boardSize();
    const out = [];
    for (const r of rows) {
      const p = qipu.parseVertex(r.move, w, h);
      if (!p) continue;
      out.push({x: p.x, y: p.y, label: abbreviate(r.games),
                fill: qipu.rateColour(r.black_win_rate),
                text: qipu.textColourFor(r.black_win_rate), cls,
                data: r.move});
    }
    return out;
  }

  function saveState() {
    qipu.writeHash({...filters, moves: moves.join(' '),
                    placement: document.getElementById('placement').value});
  }

  async function refresh() {
    const {w, h} = boardSize();
    if (!board || board.width !== w || board.height !== h) {
      board = new GoBoard(boardEl, w, h, {onClick: clicked, onSelect: selected});
      selection = null;
    }
    board.setStones(position());
    board.setSelection(selection);
    document.getElementById('line').textContent =
      moves.length ? moves.join(' ') : '(empty board)';
    saveState();
    qipu.clearError(errorEl);
    try {
      const r = await qipu.api('/api/v1/openings',
                               {...filters, moves: moves.join(' '), examples: 3});
      lastAnswer = r;
      render(r);
    } catch (e) {
      lastAnswer = null;
      tbody.innerHTML = '';
      board.setMarks([]);
      qipu.showError(errorEl, e);
      document.getElementById('continuations').dataset.moves = moves.join(' ');
    }
  }

  function render(r) {
    const side = r.to_play === 'W' ? 'White' : 'Black';
    summary.textContent =
      `${r.games} games reached this position; ${side} to play ` +
      `(Black ${r.black_wins}, White ${r.white_wins}, draws ${r.draws}, void ${r.void})`;
    tbody.innerHTML = r.continuations.map((c) =>
      `<tr class="clickable" data-move="${qipu.esc(c.move)}" data-games="${c.games}" ` +
      `data-black-wins="${c.black_wins}" data-white-wins="${c.white_wins}" ` +
      `data-draws="${c.draws}" data-void="${c.void}">` +
      `<td class="left">${qipu.esc(c.move)}</td><td>${c.games}</td>` +
      `<td>${c.black_wins}</td><td>${c.white_wins}</td><td>${c.draws}</td>` +
      `<td>${c.void}</td><td>${qipu.pct(c.black_win_rate)}</td>` +
      `<td class="left">${c.examples.map((id) =>
          qipu.gameLink(id, moves.length + 1)).join(' ')}</td></tr>`).join('');
    for (const tr of tbody.querySelectorAll('tr')) {
      tr.addEventListener('click', (ev) => {
        if (ev.target.tagName === 'A') return;
        play(tr.dataset.move);
      });
    }
    board.setMarks(patternMarks || marksOf(r.continuations, 'continuation'));
    // What the table shows (for scripts and tests): the moves it answers.
    document.getElementById('continuations').dataset.moves = moves.join(' ');
  }

  function play(move) {
    moves.push(move);
    future = [];
    patternMarks = null;
    refresh();
  }

  function clicked(x, y) {
    const {h} = boardSize();
    if (board.stones.has(`${x},${y}`)) return;
    play(qipu.vertex(x, y, h));
  }

  function selected(rect) {
    selection = rect;
    const {h} = boardSize();
    const text = `${qipu.vertex(rect.x0, rect.y0, h)}-${qipu.vertex(rect.x1, rect.y1, h)}`;
    document.getElementById('selection-text').textContent =
      `Region ${text} (${rect.x1 - rect.x0 + 1}x${rect.y1 - rect.y0 + 1}), ` +
      `pattern ${patternRows().join('/')}`;
    searchButton.disabled = false;
  }

  // The selected region of the current position as pattern rows.
  function patternRows() {
    const rows = [];
    for (let y = selection.y0; y <= selection.y1; y++) {
      let row = '';
      for (let x = selection.x0; x <= selection.x1; x++) {
        const s = board.stones.get(`${x},${y}`);
        row += s === 'B' ? 'X' : s === 'W' ? 'O' : '.';
      }
      rows.push(row);
    }
    return rows;
  }

  // Searches the selected region; `pageToken` asks for a later page of
  // the matching games (the counts and continuations cover every page).
  async function searchPattern(pageToken) {
    if (!selection) return;
    const {h} = boardSize();
    qipu.clearError(patternError);
    patternResult.innerHTML = '<p class="muted">searching...</p>';
    try {
      const r = await qipu.api('/api/v1/pattern', {
        ...filters,
        pattern: patternRows().join('/'),
        placement: document.getElementById('placement').value,
        anchor: qipu.vertex(selection.x0, selection.y0, h),
        'colour-swap': document.getElementById('colour-swap').checked ? 1 : 0,
        'page-token': typeof pageToken === 'string' ? pageToken : '',
      });
      patternMarks = marksOf(r.continuations.filter(
          (c) => c.move !== 'pass' && c.move !== 'tenuki'), 'pattern');
      board.setMarks(patternMarks);
      patternResult.innerHTML =
        `<p>${r.games} games (Black ${r.black_wins}, White ${r.white_wins}, ` +
        `draws ${r.draws}, void ${r.void})</p>` +
        '<table id="pattern-continuations"><thead><tr><th class="left">next</th>' +
        '<th>colour</th><th>games</th><th>Black %</th></tr></thead><tbody>' +
        r.continuations.map((c) =>
          `<tr><td class="left">${qipu.esc(c.move)}</td><td>${qipu.esc(c.colour)}</td>` +
          `<td>${c.games}</td><td>${qipu.pct(c.black_win_rate)}</td></tr>`).join('') +
        '</tbody></table><table id="pattern-matches"><thead><tr><th class="left">game</th>' +
        '<th>move</th><th class="left">next</th><th class="left">result</th></tr></thead><tbody>' +
        r.matches.map((m) =>
          `<tr><td class="left">${qipu.gameLink(m.id, m.move_number)}</td>` +
          `<td>${m.move_number}</td><td class="left">${qipu.esc(m.next || '')}</td>` +
          `<td class="left">${qipu.esc(m.result || '')}</td></tr>`).join('') +
        '</tbody></table>' +
        (r.next_page_token ?
          '<button id="pattern-next">next games</button>' : '');
      const next = document.getElementById('pattern-next');
      if (next) next.onclick = () => searchPattern(r.next_page_token);
    } catch (e) {
      patternResult.innerHTML = '';
      qipu.showError(patternError, e);
    }
  }

  function load() {
    const state = qipu.readHash();
    qipu.fillFilters(state);
    filters = qipu.readFilters();
    moves = (state.moves || '').split(/[\s,;]+/).filter((m) => m);
    if (state.placement) document.getElementById('placement').value = state.placement;
    future = [];
    patternMarks = null;
    refresh();
  }

  document.getElementById('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    filters = qipu.readFilters();
    refresh();
  });
  document.getElementById('first').onclick = () => {
    future = moves.concat(future);
    moves = [];
    patternMarks = null;
    refresh();
  };
  document.getElementById('back').onclick = () => {
    if (!moves.length) return;
    future.unshift(moves.pop());
    patternMarks = null;
    refresh();
  };
  document.getElementById('forward').onclick = () => {
    if (!future.length) return;
    moves.push(future.shift());
    patternMarks = null;
    refresh();
  };
  document.getElementById('pass').onclick = () => play('pass');
  searchButton.onclick = () => searchPattern('');
  document.getElementById('clear-pattern').onclick = () => {
    selection = null;
    patternMarks = null;
    searchButton.disabled = true;
    patternResult.innerHTML = '';
    qipu.clearError(patternError);
    document.getElementById('selection-text').textContent =
      'No region selected (shift+drag on the board).';
    refresh();
  };
  window.addEventListener('popstate', load);
  load();
})();

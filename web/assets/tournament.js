// The tournaments page: the list of the database's tournaments, and one
// tournament (#id=N) read-only -- its crosstable (every round of every
// entrant) and its standings with the tie-breaks they are ranked by, as
// /api/v1/tournaments/N answers them (the JSON of `qipu tournament
// crosstable|standings --json`). Names show as registered, with the name
// in the other script beside them.
'use strict';

(() => {
  const err = document.getElementById('tournament-error');

  // "3+/b", "bye", "absent", or for team events "2+5:1".
  function cellText(cell, teams) {
    if (!cell.opponent_rank) return cell.result;
    if (teams) {
      return `${cell.opponent_rank}${cell.result}` +
             `${cell.board_points}:${cell.opponent_board_points}`;
    }
    return `${cell.opponent_rank}${cell.result}` +
           (cell.colour ? `/${cell.colour}` : '');
  }

  function cellClass(cell) {
    const r = cell.result || '';
    if (r.startsWith('+') || r === 'bye') return 'won';
    if (r.startsWith('-') || r === 'x') return 'lost';
    if (r === '=') return 'drawn';
    return '';
  }

  async function showList() {
    const list = await qipu.api('/api/v1/tournaments');
    const rows = list.tournaments.map((t) =>
      `<tr data-id="${qipu.esc(t.tournament)}">` +
      `<td>${qipu.esc(t.tournament)}</td>` +
      `<td class="left"><a href="#id=${encodeURIComponent(t.tournament)}">` +
      `${qipu.esc(t.name)}</a></td><td class="left">${qipu.esc(t.system)}</td>` +
      `<td>${t.players}</td><td>${t.rounds_paired}/${t.rounds}</td></tr>`);
    document.getElementById('tournament-list').innerHTML =
      '<tr><th>id</th><th class="left">name</th><th class="left">system</th>' +
      '<th>players</th><th>rounds</th></tr>' +
      (rows.join('') ||
       '<tr><td colspan="5" class="muted">no tournaments</td></tr>');
  }

  async function showTournament(id) {
    const j = await qipu.api(`/api/v1/tournaments/${encodeURIComponent(id)}`);
    const t = j.tournament;
    const alt = {};
    for (const p of t.players) alt[p.name] = p.alt_name;
    const full = (name) => alt[name] ? `${name} ${alt[name]}` : name;
    document.getElementById('tournament-title').textContent = t.name;
    document.getElementById('tournament-summary').textContent =
      `${t.system}, ${t.rounds_paired} of ${t.rounds} rounds paired` +
      (j.finished ? ', finished' : '');
    const cross = document.getElementById('crosstable');
    const standings = document.getElementById('standings');
    if (!j.crosstable) {
      cross.innerHTML = '';
      standings.innerHTML =
        `<tr><td class="muted">${qipu.esc(j.standings_error || '')}</td></tr>`;
      return;
    }
    const x = j.crosstable;
    let head = '<tr><th>rank</th><th class="left">name</th><th>points</th>';
    if (x.teams) head += '<th>board points</th>';
    for (let r = 1; r <= x.rounds; r++) head += `<th>R${r}</th>`;
    cross.innerHTML = head + '</tr>' + x.rows.map((row) =>
      `<tr><td>${row.rank || ''}</td>` +
      `<td class="left name">${qipu.esc(full(row.name))}</td>` +
      `<td>${row.points}</td>` +
      (x.teams ? `<td>${row.board_points}</td>` : '') +
      row.cells.map((c) =>
        `<td class="cell ${cellClass(c)}">${qipu.esc(cellText(c, x.teams))}</td>`)
        .join('') + '</tr>').join('');
    const s = j.standings;
    document.getElementById('standings-order').textContent =
      `ranked by ${s.order.join(', ')}`;
    const tie = s.order.includes('sodos') ? 'sodos' : 'sos';
    standings.innerHTML =
      '<tr><th>rank</th><th class="left">name</th><th>points</th>' +
      (x.teams ? '<th>board points</th>'
               : `<th>${tie.toUpperCase()}</th><th>warnings</th>`) +
      '<th>won-drawn-lost</th><th class="left"></th></tr>' +
      s.rows.map((r) =>
        `<tr><td>${r.rank}</td><td class="left name">` +
        `${qipu.esc(full(r.name))}</td><td>${r.points}</td>` +
        (x.teams ? `<td>${r.board_points}</td>`
                 : `<td>${r[tie]}</td><td>${r.warnings}</td>`) +
        `<td>${r.wins}-${r.draws}-${r.losses}</td>` +
        `<td class="left muted">${r.withdrawn ? 'withdrawn' : ''}</td></tr>`)
        .join('');
  }

  async function route() {
    qipu.clearError(err);
    const id = qipu.readHash().id;
    document.getElementById('tournament-view').hidden = !id;
    document.getElementById('tournament-list-panel').hidden = !!id;
    try {
      if (id) {
        await showTournament(id);
      } else {
        await showList();
      }
    } catch (e) {
      qipu.showError(err, e);
    }
  }

  window.addEventListener('hashchange', route);
  window.addEventListener('popstate', route);
  route();
})();

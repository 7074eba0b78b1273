// The players page: a player box whose suggestions come from
// /api/v1/players as one types; a player's page: the names their games
// are filed under, results by colour, games by year, their first moves as
// Black and what Black opened against them as White (/api/v1/openings
// with the player filter, linked to the openings page on that position and
// filter), and their games newest first (/api/v1/games, paged), each
// linked to the viewer. The player is in the hash (#player=<key>), so a
// player's page can be shared.
'use strict';

(() => {
  const errorEl = document.getElementById('players-error');
  const input = document.getElementById('player');
  const suggestions = document.getElementById('suggestions');
  const page = document.getElementById('player-page');
  let typing = null;
  let asked = 0;            // the latest suggestion request
  let nextToken = '';       // the games list's next page
  let player = null;        // the PlayerSummary shown

  function ymd(n) {
    if (!n) return '?';
    const s = String(n);
    return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  }

  // Players whose name starts with what was typed, as a list to click.
  async function suggest() {
    const prefix = input.value.trim();
    const mine = ++asked;
    try {
      const r = await qipu.api('/api/v1/players', {prefix, limit: 10});
      if (mine !== asked) return;  // a later keystroke asked again
      suggestions.innerHTML = r.players.map((p) =>
        `<li><a href="#player=${encodeURIComponent(p.key)}" data-key="${qipu.esc(p.key)}" ` +
        `data-games="${p.games}">${qipu.esc(p.display)}</a> ` +
        `<span class="muted">${p.games} games${p.rank ? ', ' + qipu.esc(p.rank) : ''}` +
        `${p.first ? ', ' + String(p.first).slice(0, 4) + '\u2013' + String(p.last).slice(0, 4) : ''}` +
        `</span></li>`).join('') ||
        `<li class="muted">no player starts with \u201c${qipu.esc(prefix)}\u201d</li>`;
      suggestions.dataset.prefix = prefix;
      qipu.clearError(errorEl);
    } catch (e) {
      qipu.showError(errorEl, e);
    }
  }

  // Wins, losses, draws and void of the player in `o`, an Outcomes of the
  // games they played as `colour` ('B' or 'W').
  function colourRow(label, colour, o) {
    const wins = colour === 'B' ? o.black_wins : o.white_wins;
    const losses = colour === 'B' ? o.white_wins : o.black_wins;
    const decided = Math.max(1, wins + losses + o.draws);
    return `<tr data-colour="${colour}" data-games="${o.games}" data-wins="${wins}" ` +
      `data-losses="${losses}"><td class="left">${label}</td><td>${o.games}</td>` +
      `<td>${wins}</td><td>${losses}</td><td>${o.draws}</td><td>${o.void}</td>` +
      `<td>${o.games ? qipu.pct(wins / decided) : '\u2013'}</td></tr>`;
  }

  // Bars of games per year, the player's wins in the darker part.
  function yearsChart(years) {
    if (!years.length) return '<p class="muted">no dated games</p>';
    const top = Math.max(1, ...years.map((y) => y.games));
    const bw = Math.max(14, Math.min(40, Math.floor(600 / years.length)));
    const H = 140, left = 36, W = left + years.length * bw + 10;
    const parts = [`<line class="axis" x1="${left}" y1="${H}" x2="${W}" y2="${H}"/>`,
                   `<text x="2" y="14">${top}</text><text x="2" y="${H}">0</text>`];
    years.forEach((y, i) => {
      const h = Math.round((H - 10) * y.games / top);
      const hw = Math.round((H - 10) * y.wins / top);
      const x = left + i * bw + 2;
      parts.push(`<g class="year" data-year="${y.year}" data-games="${y.games}" data-wins="${y.wins}" ` +
                 `data-losses="${y.losses}"><title>${y.year}: ${y.games} games, ${y.wins} won, ` +
                 `${y.losses} lost</title>` +
                 `<rect class="bar" x="${x}" y="${H - h}" width="${bw - 4}" height="${h}"/>` +
                 `<rect x="${x}" y="${H - hw}" width="${bw - 4}" height="${hw}" fill="#1d3f6e"/></g>`);
      if (years.length <= 16 || i % 2 === 0) {
        parts.push(`<text x="${x + (bw - 4) / 2}" y="${H + 12}" text-anchor="middle">${y.year}</text>`);
      }
    });
    return `<svg class="chart" id="years-chart" width="${W}" height="${H + 20}">${parts.join('')}</svg>` +
      '<p class="muted">games a year; the darker part: games won</p>';
  }

  // The first moves of the player's games where they played `as`, linked
  // to the openings page on that position with the player filter.
  async function openings(as, tableId) {
    const table = document.getElementById(tableId);
    const size = player.size || '19';
    const r = await qipu.api('/api/v1/openings',
                             {size, player: player.key, as, limit: 10, examples: 1});
    const me = as === 'black' ? 'black_wins' : 'white_wins';
    table.dataset.games = String(r.games);
    table.innerHTML = r.continuations.length === 0
      ? `<tr data-empty="1"><td class="muted">no ${size}x${size} games as ${as}</td></tr>`
      : '<thead><tr><th class="left">move</th><th>games</th><th>won</th><th>won %</th></tr></thead><tbody>' +
        r.continuations.map((c) => {
          const href = 'openings.html#' + new URLSearchParams(
              {size, player: player.key, as, moves: c.move}).toString();
          return `<tr data-move="${qipu.esc(c.move)}" data-games="${c.games}" data-won="${c[me]}">` +
            `<td class="left"><a href="${href}">${qipu.esc(c.move)}</a></td><td>${c.games}</td>` +
            `<td>${c[me]}</td><td>${qipu.pct(c[me] / Math.max(1, c.games))}</td></tr>`;
        }).join('') + '</tbody>';
  }

  function side(p) {
    const rank = p.rank && !p.name.includes(p.rank) ? ` ${p.rank}` : '';
    return `${qipu.esc(p.name || '?')}${qipu.esc(rank)}`;
  }

  // One more page of the player's games, newest first.
  async function moreGames(first) {
    const table = document.getElementById('games');
    const params = {player: player.key, newest: 1, 'page-size': 50};
    if (!first) params['page-token'] = nextToken;
    const r = await qipu.api('/api/v1/games', params);
    if (first) {
      table.innerHTML = '<thead><tr><th class="left">date</th><th class="left">Black</th>' +
        '<th class="left">White</th><th class="left">result</th><th>moves</th>' +
        '<th class="left">event</th><th class="left">game</th></tr></thead><tbody></tbody>';
      document.getElementById('games-title').textContent = `Games (${r.total})`;
      table.dataset.total = String(r.total);
    }
    table.tBodies[0].insertAdjacentHTML('beforeend', r.games.map((g) =>
      `<tr data-id="${qipu.esc(g.id)}" data-date="${g.date_ymd}"><td class="left">${qipu.esc(g.date || '?')}</td>` +
      `<td class="left">${side(g.black)}</td><td class="left">${side(g.white)}</td>` +
      `<td class="left">${qipu.esc(g.result)}</td><td>${g.moves}</td>` +
      `<td class="left">${qipu.esc(g.event)}</td><td class="left">${qipu.gameLink(g.id)}</td></tr>`).join(''));
    table.dataset.shown = String(table.tBodies[0].rows.length);
    nextToken = r.next_page_token;
    document.getElementById('more-games').hidden = !nextToken;
  }

  async function show(key) {
    qipu.clearError(errorEl);
    page.hidden = true;
    document.body.dataset.player = '';
    try {
      const r = await qipu.api('/api/v1/players', {prefix: key, limit: 1000});
      // The key itself, a name as written, or the one player it starts.
      player = r.players.find((p) => p.key === key) ||
               r.players.find((p) => p.display === key || p.names.includes(key)) ||
               (r.players.length === 1 ? r.players[0] : null);
      if (!player) {
        throw new Error(`no player named \u201c${key}\u201d` + (r.players.length
          ? `; players whose name starts so: ${r.players.slice(0, 5).map((p) => p.display).join(', ')}`
          : ''));
      }
      document.getElementById('player-name').textContent = player.display;
      document.getElementById('player-summary').textContent =
        `${player.games} games, ${ymd(player.first)} to ${ymd(player.last)}` +
        (player.rank ? `, rank ${player.rank}` : '');
      document.getElementById('player-names').textContent = player.names.length
        ? `Also written: ${player.names.join(', ')}` : '';
      document.getElementById('by-colour').innerHTML =
        '<thead><tr><th class="left">as</th><th>games</th><th>won</th><th>lost</th>' +
        '<th>drawn</th><th>void</th><th>won %</th></tr></thead><tbody>' +
        colourRow('Black', 'B', player.as_black) + colourRow('White', 'W', player.as_white) +
        '</tbody>';
      document.getElementById('years').innerHTML = yearsChart(player.years);
      page.hidden = false;
      await openings('black', 'openings-black');
      await openings('white', 'openings-white');
      await moreGames(true);
      document.body.dataset.player = player.key;
    } catch (e) {
      qipu.showError(errorEl, e);
    }
    document.body.dataset.loaded = String(Date.now());
  }

  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(suggest, 150);
  });
  document.getElementById('player-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    suggest();
  });
  document.getElementById('more-games').addEventListener('click', () => {
    moreGames(false).catch((e) => qipu.showError(errorEl, e));
  });
  window.addEventListener('hashchange', () => {
    const key = qipu.readHash().player;
    if (key) show(key);
  });
  const key = qipu.readHash().player;
  if (key) {
    input.value = key;
    show(key);
  } else {
    suggest();
  }
})();

// The ko and cycles page: a histogram of ko captures per game
// (/api/v1/ko), the cycle classes and outcomes with the results of their
// games (/api/v1/cycles), once for the filter and once per rule set, with
// example games linked to the viewer.
'use strict';

(() => {
  const PRESETS = ['chinese', 'chinese-superko', 'tromp-taylor', 'aga',
                   'new-zealand'];
  const errorEl = document.getElementById('stats-error');

  // A bar chart of counts[i] (label i), `max` bars at most (the rest
  // folded into the last one, labelled "n+").
  function histogram(counts, max) {
    let bars = counts.slice(0, max);
    if (counts.length > max) {
      bars[max - 1] = counts.slice(max - 1).reduce((a, b) => a + b, 0);
    }
    const top = Math.max(1, ...bars);
    const bw = 18, H = 160, left = 40, W = left + bars.length * bw + 10;
    const parts = [`<line class="axis" x1="${left}" y1="${H}" x2="${W}" y2="${H}"/>`,
                   `<line class="axis" x1="${left}" y1="10" x2="${left}" y2="${H}"/>`,
                   `<text x="2" y="14">${top}</text><text x="2" y="${H}">0</text>`];
    bars.forEach((n, i) => {
      const h = Math.round((H - 10) * n / top);
      const label = counts.length > max && i === max - 1 ? `${i}+` : `${i}`;
      parts.push(`<rect class="bar" data-bucket="${i}" data-count="${n}" x="${left + i * bw + 2}" ` +
                 `y="${H - h}" width="${bw - 4}" height="${h}"><title>${label} ko captures: ${n} games</title></rect>`);
      if (i % 2 === 0 || bars.length <= 16) {
        parts.push(`<text x="${left + i * bw + bw / 2}" y="${H + 12}" text-anchor="middle">${label}</text>`);
      }
    });
    parts.push(`<text x="${left + (W - left) / 2}" y="${H + 26}" text-anchor="middle">ko captures in a game</text>`);
    return `<svg class="chart" id="ko-histogram" width="${W}" height="${H + 32}">${parts.join('')}</svg>`;
  }

  // A horizontal bar split into Black wins, White wins, draws, void.
  function resultBar(o) {
    const total = Math.max(1, o.black_wins + o.white_wins + o.draws + o.void);
    const W = 160;
    let x = 0;
    const parts = [];
    for (const [n, colour, what] of [[o.black_wins, '#222', 'Black wins'],
                                     [o.white_wins, '#eee', 'White wins'],
                                     [o.draws, '#6a6', 'draws'],
                                     [o.void, '#c66', 'void']]) {
      const w = W * n / total;
      if (w > 0) {
        parts.push(`<rect x="${x}" y="0" width="${w}" height="12" fill="${colour}" stroke="#888"><title>${what}: ${n}</title></rect>`);
      }
      x += w;
    }
    return `<svg class="chart results" width="${W}" height="12">${parts.join('')}</svg>`;
  }

  function cyclesTable(r, id) {
    if (!r.rows.length) return `<p class="muted">no cycles in ${r.games} games</p>`;
    return `<table${id ? ` id="${id}"` : ''}><thead><tr><th class="left">class</th><th class="left">outcome</th>` +
      '<th>cycles</th><th>games</th><th>per 10k</th><th class="left">results (B / W / draw / void)</th>' +
      '<th class="left">examples</th></tr></thead><tbody>' +
      r.rows.map((row) =>
        `<tr data-class="${qipu.esc(row.class)}" data-outcome="${qipu.esc(row.outcome)}">` +
        `<td class="left">${qipu.esc(row.class)}</td><td class="left">${qipu.esc(row.outcome)}</td>` +
        `<td>${row.cycles}</td><td>${row.games}</td><td>${row.per_10k.toFixed(2)}</td>` +
        `<td class="left">${resultBar(row.results)} ${row.results.black_wins} / ${row.results.white_wins} / ` +
        `${row.results.draws} / ${row.results.void}</td>` +
        `<td class="left">${row.examples.map((g) => qipu.gameLink(g)).join(' ')}</td></tr>`).join('') +
      '</tbody></table>';
  }

  async function refresh() {
    const filters = qipu.readFilters();
    qipu.writeHash(filters);
    qipu.clearError(errorEl);
    try {
      const ko = await qipu.api('/api/v1/ko', filters);
      document.getElementById('ko-summary').textContent =
        `${ko.games} games, ${ko.games_with_ko} with a ko capture ` +
        `(${qipu.pct(ko.share_with_ko)}); mean ${ko.mean.toFixed(2)}, ` +
        `p50 ${ko.p50}, p90 ${ko.p90}, p99 ${ko.p99}, max ${ko.max}`;
      document.getElementById('ko-chart').innerHTML = histogram(ko.histogram, 30);
      document.getElementById('ko-by-rules').innerHTML =
        '<thead><tr><th class="left">group</th><th>games</th><th>with ko</th><th>mean</th>' +
        '<th>p90</th><th>max</th></tr></thead><tbody>' +
        [...ko.by_size, ...ko.by_rules, ...ko.by_length].map((g) =>
          `<tr><td class="left">${qipu.esc(g.label)}</td><td>${g.games}</td>` +
          `<td>${g.games_with_ko}</td><td>${g.mean.toFixed(2)}</td><td>${g.p90}</td>` +
          `<td>${g.max}</td></tr>`).join('') + '</tbody>';
      const cycles = await qipu.api('/api/v1/cycles', {...filters, examples: 3});
      document.getElementById('cycles-summary').textContent =
        `${cycles.games} games; games with a cycle: Black ${cycles.results_with_cycle.black_wins}, ` +
        `White ${cycles.results_with_cycle.white_wins}, draws ${cycles.results_with_cycle.draws}, ` +
        `void ${cycles.results_with_cycle.void}`;
      document.getElementById('cycles-table').innerHTML =
        cyclesTable(cycles, 'cycles');
      // One table per rule set with games (unless the filter names rules).
      const presets = filters.rules ? [] : PRESETS;
      const parts = [];
      for (const rules of presets) {
        const r = await qipu.api('/api/v1/cycles', {...filters, rules, examples: 3});
        if (r.games === 0) continue;
        parts.push(`<h4 data-rules="${rules}">${rules}: ${r.games} games</h4>${cyclesTable(r)}`);
      }
      document.getElementById('cycles-by-rules').innerHTML =
        parts.join('') || '<p class="muted">(filter names the rules)</p>';
    } catch (e) {
      qipu.showError(errorEl, e);
    }
    document.body.dataset.loaded = String(Date.now());
  }

  document.getElementById('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    refresh();
  });
  qipu.fillFilters(qipu.readHash());
  refresh();
})();

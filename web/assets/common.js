// What every page of the qipu explorer shares: API calls (with the token
// dialog on 401), GTP vertices, HTML escaping, win-rate colours, the
// filter form and the page state kept in the URL's hash.
'use strict';

const qipu = (() => {
  const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';  // GTP: no I
  const TOKEN_KEY = 'qipuToken';

  // An error the API answered: its HTTP status and {"error"} message.
  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // Asks for a token in a modal dialog; resolves with it (or null when
  // cancelled). The token stays in sessionStorage for this tab.
  function askToken(message) {
    return new Promise((resolve) => {
      let dlg = document.getElementById('token-dialog');
      if (!dlg) {
        dlg = document.createElement('dialog');
        dlg.id = 'token-dialog';
        dlg.innerHTML =
          '<form method="dialog"><h3>Access token</h3>' +
          '<p id="token-why"></p>' +
          '<p>A reader or operator token (<code>qipu token create --role ' +
          'reader</code>); it is kept for this browser tab only.</p>' +
          '<input id="token-input" type="password" size="60" ' +
          'placeholder="qipu_..." autocomplete="off">' +
          '<menu><button id="token-ok" value="ok">Use token</button> ' +
          '<button id="token-cancel" value="cancel">Cancel</button></menu>' +
          '</form>';
        document.body.appendChild(dlg);
      }
      dlg.querySelector('#token-why').textContent = message || '';
      const input = dlg.querySelector('#token-input');
      input.value = '';
      dlg.onclose = () => {
        const t = input.value.trim();
        if (dlg.returnValue === 'ok' && t) {
          sessionStorage.setItem(TOKEN_KEY, t);
          resolve(t);
        } else {
          resolve(null);
        }
      };
      dlg.showModal();
      input.focus();
    });
  }

  // GET path?params as JSON; params: an object (empty values left out).
  // On 401 asks for a token and tries again. Throws ApiError.
  async function api(path, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== undefined && v !== null && String(v) !== '') q.set(k, v);
    }
    const url = q.toString() ? `${path}?${q}` : path;
    for (let attempt = 0; attempt < 4; attempt++) {
      const headers = {};
      const token = sessionStorage.getItem(TOKEN_KEY);
      if (token) headers.Authorization = `Bearer ${token}`;
      const resp = await fetch(url, {headers});
      const text = await resp.text();
      let body = null;
      try {
        body = JSON.parse(text);
      } catch (e) {
        body = null;
      }
      if (resp.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        const t = await askToken(body && body.error);
        if (t) continue;
      }
      if (!resp.ok) {
        throw new ApiError(resp.status,
                           (body && body.error) || `HTTP ${resp.status}`);
      }
      return body;
    }
    throw new ApiError(401, 'no valid token');
  }

  // A file from the API (with the token), saved as `name`.
  async function download(path, name) {
    const headers = {};
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
    const resp = await fetch(path, {headers});
    if (!resp.ok) throw new ApiError(resp.status, `HTTP ${resp.status}`);
    const blob = await resp.blob();
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  // "Q16" -> {x, y} with y = 0 the top row; null for pass or garbage.
  function parseVertex(v, width, height) {
    if (!v) return null;
    const s = v.toUpperCase();
    const x = COLUMNS.indexOf(s[0]);
    const row = parseInt(s.slice(1), 10);
    if (x < 0 || x >= width || !(row >= 1 && row <= height)) return null;
    return {x, y: height - row};
  }
  function vertex(x, y, height) { return COLUMNS[x] + (height - y); }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({
      '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'
    }[c]));
  }

  // Fill colour for a Black winning rate in [0, 1]: White's wins light,
  // Black's dark, through a red-blue scale that reads on the wood.
  function rateColour(rate) {
    const r = Math.max(0, Math.min(1, rate));
    const from = [235, 240, 255];   // White wins
    const to = [40, 20, 20];        // Black wins
    const c = from.map((f, i) => Math.round(f + (to[i] - f) * r));
    return `rgb(${c[0]},${c[1]},${c[2]})`;
  }
  function textColourFor(rate) { return rate > 0.5 ? '#fff' : '#000'; }

  function pct(x) { return `${(100 * x).toFixed(1)}%`; }

  // The page state in the hash: "#a=1&b=x" <-> {a: "1", b: "x"}.
  function readHash() {
    const out = {};
    new URLSearchParams(location.hash.slice(1)).forEach((v, k) => {
      out[k] = v;
    });
    return out;
  }
  function writeHash(state) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(state)) {
      if (v !== undefined && v !== null && String(v) !== '') q.set(k, v);
    }
    const h = '#' + q.toString();
    if (location.hash !== h) history.pushState(null, '', h);
  }

  // The filter fields every page has (inputs with data-filter="name").
  // Players and events (issue 32): `as` needs `player`, and is sent only
  // with it.
  const FILTERS = ['size', 'rules', 'komi', 'source', 'policy', 'from', 'to',
                   'player', 'as', 'opponent', 'event'];
  function readFilters() {
    const out = {};
    for (const name of FILTERS) {
      const el = document.querySelector(`[data-filter="${name}"]`);
      if (el && el.value.trim() !== '') out[name] = el.value.trim();
    }
    if (!out.player) delete out.as;
    return out;
  }
  function fillFilters(state) {
    for (const name of FILTERS) {
      const el = document.querySelector(`[data-filter="${name}"]`);
      if (el) el.value = state[name] || (el.dataset.default || '');
    }
  }

  function showError(el, err) {
    el.textContent = err.message || String(err);
    el.classList.add('error');
    el.hidden = false;
  }
  function clearError(el) {
    el.textContent = '';
    el.classList.remove('error');
    el.hidden = true;
  }

  function gameLink(id, move) {
    const m = move ? `&move=${move}` : '';
    const label = id.length > 12 ? `${id.slice(0, 9)}\u2026` : id;
    return `<a class="game-link" data-id="${esc(id)}" title="${esc(id)}" ` +
           `href="game.html#id=${encodeURIComponent(id)}${m}">${esc(label)}</a>`;
  }

  return {ApiError, api, download, askToken, parseVertex, vertex, esc,
          rateColour, textColourFor, pct, readHash, writeHash, readFilters,
          fillFilters, showError, clearError, gameLink, COLUMNS};
})();

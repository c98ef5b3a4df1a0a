// Tidings dashboard: makes server-rendered pages move. Every figure on a page carries the key its
// value arrives under (data-k: text, data-w: a bar's width); a page with data-live opens one
// EventSource and copies what arrives. No build step, no dependency; without it the pages still work.

keepZone();
const live = document.querySelector('[data-live]');
if (live) follow(live.dataset.live);
const minutes = document.querySelector('[data-minutes]');
if (minutes) drawMinutes(JSON.parse(minutes.textContent));

function follow(url) {
  const status = document.querySelector('[data-status]');
  const say = (text, on) => {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle('on', on);
  };
  const source = new EventSource(url);
  source.onopen = () => say('Live: updates as receipts arrive', true);
  source.onerror = () => say('Live: reconnecting…', false);
  source.onmessage = (event) => {
    const figures = JSON.parse(event.data);
    for (const [key, text] of Object.entries(figures.texts || {})) {
      for (const el of document.querySelectorAll(`[data-k="${CSS.escape(key)}"]`)) {
        if (el.textContent !== text) {
          el.textContent = text;
          el.classList.remove('changed');
          void el.offsetWidth; // restart the highlight
          el.classList.add('changed');
        }
      }
    }
    for (const [key, width] of Object.entries(figures.widths || {})) {
      for (const el of document.querySelectorAll(`[data-w="${CSS.escape(key)}"]`)) el.style.width = `${width.toFixed(1)}%`;
    }
    if (figures.minutes) drawMinutes(figures.minutes);
  };
}

// Opens, human opens and clicks per minute as lines; hand-written SVG (no chart library to ship).
function drawMinutes(rows) {
  const box = document.querySelector('[data-chart="minutes"]');
  if (!box) return;
  const svgNs = 'http://www.w3.org/2000/svg';
  const width = 600, height = 180, left = 36, bottom = 22, top = 8;
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  
  svg.setAttribute('aria-hidden', 'true');
  if (rows.length === 0) {
    const text = document.createElementNS(svgNs, 'text');
    text.setAttribute('x', width / 2); text.setAttribute('y', height / 2); text.setAttribute('text-anchor', 'middle');
    text.textContent = 'no opens or clicks in the last hour yet';
    svg.append(text);
    box.replaceChildren(svg);
    return;
  }
  const times = rows.map((r) => Date.parse(r.minute));
  // at least the last quarter of an hour, ending now: a new campaign's first minutes sit at the right
  const t1 = Math.max(Date.now() - (Date.now() % 60_000), ...times);
  const t0 = Math.min(t1 - 15 * 60_000, ...times);
  const max = Math.max(1, ...rows.map((r) => Math.max(r.opened, r.clicked, r.humanOpened)));
  const x = (t) => left + (width - left - 8) * (t - t0) / (t1 - t0);
  const y = (v) => top + (height - top - bottom) * (1 - v / max);
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(svgNs, 'line');
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => l.setAttribute(k, v));
    l.setAttribute('class', cls);
    svg.append(l);
  };
  const label = (x0, y0, text, anchor) => {
    const t = document.createElementNS(svgNs, 'text');
    t.setAttribute('x', x0); t.setAttribute('y', y0); t.setAttribute('text-anchor', anchor);
    t.textContent = text;
    svg.append(t);
  };
  line(left, y(0), width - 8, y(0), 'axis');
  line(left, y(max), width - 8, y(max), 'axis');
  label(left - 4, y(0) + 4, '0', 'end');
  label(left - 4, y(max) + 4, String(max), 'end');
  const clock = (t) => new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  label(left, height - 4, clock(t0), 'start');
  label(width - 8, height - 4, clock(t1), 'end');
  for (const [field, colour] of [['opened', '#4c78a8'], ['humanOpened', '#2f7d32'], ['clicked', '#b35c00']]) {
    const path = document.createElementNS(svgNs, 'polyline');
    path.setAttribute('points', rows.map((r, i) => `${x(times[i]).toFixed(1)},${y(r[field]).toFixed(1)}`).join(' '));
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', colour);
    path.setAttribute('stroke-width', '2.5');
    path.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.append(path);
    rows.forEach((r, i) => { // a dot per minute: a single minute is a point, not a line
      const dot = document.createElementNS(svgNs, 'circle');
      dot.setAttribute('cx', x(times[i]).toFixed(1)); dot.setAttribute('cy', y(r[field]).toFixed(1));
      dot.setAttribute('r', '3.5'); dot.setAttribute('fill', colour);
      svg.append(dot);
    });
    rows.forEach((r, i) => { // a dot per minute: a single minute is a point, not a line
      const dot = document.createElementNS(svgNs, 'circle');
      dot.setAttribute('cx', x(times[i]).toFixed(1)); dot.setAttribute('cy', y(r[field]).toFixed(1));
      dot.setAttribute('r', '3.5'); dot.setAttribute('fill', colour);
      svg.append(dot);
    });
  }
  box.replaceChildren(svg);
}

// The campaign editor: the audience's count follows the conditions as they are typed (the "Count"
// button does the same without a script), and a problem's "line N" link puts the cursor on that line.
const editor = document.querySelector('form[data-editor]');
if (editor) enhanceEditor(editor);

function enhanceEditor(form) {
  const output = form.querySelector('[data-count]');
  let timer = 0;
  let asked = 0;
  const recount = async () => {
    const mine = ++asked;
    output.textContent = 'Counting…';
    try {
      const answer = await fetch('/campaigns/audience-count', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form)),
        credentials: 'same-origin',
      });
      const body = await answer.json();
      if (mine !== asked) return; // a newer count is on its way
      output.textContent = body.text || (body.problems || []).join(' ');
      output.classList.toggle('problem', !answer.ok);
    } catch {
      if (mine === asked) output.textContent = 'Could not count now; the Count button still works.';
    }
  };
  for (const el of form.querySelectorAll('[data-condition]')) {
    el.addEventListener(el.tagName === 'SELECT' ? 'change' : 'input', () => {
      clearTimeout(timer);
      timer = setTimeout(recount, 400);
    });
  }
  for (const link of document.querySelectorAll('.problems a[data-line]')) {
    link.addEventListener('click', (event) => {
      const area = document.getElementById(link.getAttribute('href').slice(1));
      if (!area || area.tagName !== 'TEXTAREA') return;
      event.preventDefault();
      const lines = area.value.split('\n');
      const line = Math.min(Number(link.dataset.line), lines.length) - 1;
      const start = lines.slice(0, line).reduce((n, text) => n + text.length + 1, 0);
      area.focus();
      area.setSelectionRange(start, start + lines[line].length);
      const height = area.scrollHeight / Math.max(lines.length, 1);
      area.scrollTop = Math.max(0, line * height - area.clientHeight / 3);
    });
  }
  const problems = document.getElementById('problems');
  if (problems) problems.focus();
}

// Times are shown and typed in the person's zone, which the server reads from a cookie. The first
// visit sets it from the browser's zone and loads the page again, once, so that the times it shows
// are already in that zone; a zone chosen on a schedule form is kept by the server instead.
function keepZone() {
  if (document.cookie.split('; ').some((c) => c.startsWith('tidings_zone='))) return;
  let zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone) return;
  document.cookie = 'tidings_zone=' + encodeURIComponent(zone) + '; path=/; max-age=31536000; samesite=lax';
  const kept = document.cookie.split('; ').some((c) => c.startsWith('tidings_zone='));
  if (kept && zone !== 'UTC' && document.querySelector('[data-zone], [data-in-zone]')) location.reload();
}

// The journey editor: a row shows the fields of its type (and a wait those of how it ends), as its
// choices say; without the script every field shows, labelled, and the server reads only the type's.
for (const scope of document.querySelectorAll('[data-scope]')) showChosen(scope);

function showChosen(scope) {
  const update = () => {
    for (const el of scope.querySelectorAll('[data-when]')) {
      if (el.closest('[data-scope]') !== scope) continue;
      el.hidden = !el.dataset.when.split(' ').every((rule) => {
        const [name, values] = rule.split(':');
        const choice = scope.querySelector(`[data-switch="${CSS.escape(name)}"]`);
        return !choice || values.split('|').includes(choice.value);
      });
    }
  };
  scope.addEventListener('change', (event) => {
    if (event.target.matches('[data-switch]')) update();
  });
  update();
}

// A refused journey comes back with its problems on top: the keyboard starts there, as in the
// campaign editor.
if (document.querySelector('form.journey-editor')) document.getElementById('problems')?.focus();

// The dashboard of `dra serve`. Everything that comes from the cluster is
// put into text nodes (textContent), never parsed as markup.
'use strict';

const $ = (id) => document.getElementById(id);

// el('div', {class: 'x', title: 't'}, child, 'text', ...)
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    // Through the CSSOM: the policy forbids style attributes in markup.
    else if (k === 'style') e.style.cssText = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const fmt = new Intl.NumberFormat('en');
// Past this many rows, tables show the first (pools: the fullest) and say
// how many more there are: the search box finds the rest.
const kTableRows = 50;

// A note under a capped table; '' (nothing) when every row is shown, as
// replaceChildren would write null as text.
function moreNote(shown, all, what) {
  return all > shown ? el('p', {class: 'muted', text: `Showing ${shown} of ${fmt.format(all)} ${what}; search to find the others.`}) : '';
}
const pct = (part, whole) => (whole > 0 ? Math.round((100 * part) / whole) : 0);
const total = (t) => t.free + t.allocated + t.tainted;

// A stacked bar of allocated, tainted and free, with a tooltip.
function stack(t) {
  const n = total(t);
  const bar = el('div', {class: 'stack', role: 'img',
    'aria-label': `${t.allocated} allocated, ${t.tainted} tainted, ${t.free} free`,
    title: `${t.allocated} allocated, ${t.tainted} tainted, ${t.free} free`});
  for (const s of ['allocated', 'tainted', 'free']) {
    if (n > 0 && t[s] > 0) bar.append(el('span', {class: 's-' + s, style: `width:${(100 * t[s]) / n}%`}));
  }
  return bar;
}

function tallyText(t) {
  const n = total(t);
  let s = `${fmt.format(t.allocated)} of ${fmt.format(n)} allocated (${pct(t.allocated, n)}%)`;
  if (t.tainted) s += ` · ${fmt.format(t.tainted)} tainted`;
  if (t.partiallyConsumed) s += ` · ${fmt.format(t.partiallyConsumed)} partly consumed`;
  return s;
}

function legendItem(cls, text) {
  return el('span', {}, el('span', {class: 'dot ' + cls}), text);
}

function useRows(uses) {
  const box = el('div', {class: 'use'});
  for (const u of uses) {
    const w = u.totalValue > 0 ? Math.min(100, (100 * u.consumedValue) / u.totalValue) : 0;
    box.append(el('span', {text: u.name}),
      el('div', {class: 'stack'}, el('span', {class: 's-allocated', style: `width:${w}%`})),
      el('span', {class: 'figure', text: `${u.consumed} / ${u.total}`}));
  }
  return box;
}

let summary = null;
let openMap = null;  // {kind: 'node'|'pool'|'notNodeLocal', value}

function renderStatus(s) {
  $('origin').textContent = s.origin;
  const stale = $('stale');
  if (s.stale) {
    stale.hidden = false;
    stale.textContent = `Showing the state of ${s.stale.since}: the API server has not been reachable for ${s.stale.seconds} s (${s.stale.reason}).`;
    $('status').className = 'pill pill-stale';
    $('status').textContent = 'stale';
  } else {
    stale.hidden = true;
  }
  $('updated').textContent = `computed ${new Date(s.computedAt).toLocaleTimeString()} in ${Math.round(s.computeSeconds * 1000)} ms`;
}

function renderCards(s) {
  $('devices-total').textContent = fmt.format(total(s.total));
  $('devices-bar').replaceChildren(stack(s.total));
  $('devices-legend').replaceChildren(
    legendItem('s-allocated', `${fmt.format(s.total.allocated)} allocated`),
    legendItem('s-tainted', `${fmt.format(s.total.tainted)} tainted`),
    legendItem('s-free', `${fmt.format(s.total.free)} free`));
  const c = {pending: 0, allocated: 0, reserved: 0, deallocating: 0};
  for (const ns of s.claims) for (const k of Object.keys(c)) c[k] += ns[k];
  $('claims-total').textContent = fmt.format(c.pending + c.allocated + c.reserved + c.deallocating);
  $('claims-detail').replaceChildren(...Object.entries(c).map(([k, v]) => el('span', {text: `${fmt.format(v)} ${k}`})));
  $('pending-total').textContent = fmt.format(s.pending.length);
  const stages = {};
  for (const p of s.pending) stages[p.stage] = (stages[p.stage] || 0) + 1;
  $('pending-detail').replaceChildren(...Object.entries(stages).map(([k, v]) => el('span', {text: `${v} ${k}`})));
}

function renderClasses(s) {
  const box = $('classes');
  box.replaceChildren();
  if (s.classes.length === 0) box.append(el('span', {class: 'muted', text: 'No DeviceClasses.'}));
  for (const c of s.classes) {
    box.append(el('span', {class: 'label', text: c.name}), stack(c), el('span', {class: 'figure', text: tallyText(c)}));
  }
}

// Up to 48 nodes: a card each. More: a heat map, one square per node,
// shaded by the share of its devices allocated, fullest first.
function renderNodes(s) {
  const box = $('nodes');
  const nodes = s.nodes;
  let note = `${fmt.format(nodes.length)} with devices`;
  if (s.nodesWithoutDevices) note += `, ${fmt.format(s.nodesWithoutDevices)} without`;
  if (s.devicesNotNodeLocal) note += `; ${fmt.format(s.devicesNotNodeLocal)} devices not node-local`;
  $('nodes-note').textContent = note;
  box.replaceChildren();
  if (nodes.length <= 48) {
    const grid = el('div', {class: 'nodegrid'});
    for (const n of nodes) {
      grid.append(el('button', {class: 'node', type: 'button', 'data-node': n.name, onclick: () => showMap('node', n.name)},
        el('div', {class: 'name', text: n.name}), stack(n), el('div', {class: 'figure', text: tallyText(n)})));
    }
    box.append(grid);
  } else {
    box.append(el('div', {class: 'scale'}, el('span', {text: '0%'}), el('span', {class: 'ramp'}), el('span', {text: '100% allocated'}),
      el('span', {text: ' · outlined: has tainted devices'})));
    const heat = el('div', {class: 'heat'});
    const sorted = [...nodes].sort((a, b) => b.allocated / total(b) - a.allocated / total(a) || a.name.localeCompare(b.name));
    for (const n of sorted) {
      const f = total(n) ? n.allocated / total(n) : 0;
      const color = `rgb(${Math.round(215 - 156 * f)},${Math.round(239 - 128 * f)},${Math.round(224 - 12 * f)})`;
      heat.append(el('button', {type: 'button', 'data-node': n.name, title: `${n.name}: ${tallyText(n)}`,
        style: `background:${color};${n.tainted ? 'outline:2px solid var(--tainted);' : ''}`,
        'aria-label': `${n.name}: ${tallyText(n)}`, onclick: () => showMap('node', n.name)}));
    }
    box.append(heat);
  }
  if (s.devicesNotNodeLocal) {
    box.append(el('p', {}, el('button', {class: 'link', type: 'button', onclick: () => showMap('notNodeLocal', 'true'),
      text: `Show the ${s.devicesNotNodeLocal} devices that are not node-local`})));
  }
}

function explanationTable(x) {
  if (!x) return null;
  // Only the stages that removed something (or block): ten columns of
  // zeros would hide the one that matters.
  const stages = Object.keys(x.requests[0] ? x.requests[0].removed : {})
    .filter((st) => x.requests.some((r) => r.removed[st] > 0 || r.blockedBy === st));
  const head = el('tr', {}, el('th', {text: 'Request'}), el('th', {text: 'Devices'}),
    ...stages.map((st) => el('th', {text: st})), el('th', {text: 'Left'}), el('th', {text: 'Needed'}));
  const rows = x.requests.map((r) => el('tr', {}, el('td', {text: `${r.claim} ${r.request}`}), el('td', {class: 'num', text: r.candidates}),
    ...stages.map((st) => el('td', {class: 'num' + (r.blockedBy === st ? ' block' : ''), text: r.removed[st] ? `−${r.removed[st]}` : ''})),
    el('td', {class: 'num', text: r.remaining}), el('td', {class: 'num', text: r.allocationMode === 'All' ? 'all' : r.requested})));
  const notes = x.requests.filter((r) => r.absentHere || r.note).map((r) => el('div', {class: 'muted', text: r.absentHere || r.note}));
  return el('div', {class: 'explain'}, el('div', {class: 'summary', text: `On ${x.node}: ${x.summary}`}),
    el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)), ...notes);
}

function renderPending(s) {
  const box = $('pending');
  if (s.pending.length === 0) {
    box.replaceChildren(el('span', {class: 'muted', text: 'No pod waits for devices.'}));
    return;
  }
  const pending = s.pending.slice(0, 2 * kTableRows);
  const rows = pending.map((p) => el('tr', {'data-pod': `${p.namespace}/${p.name}`},
    el('td', {text: `${p.namespace}/${p.name}`}),
    el('td', {}, el('span', {class: 'badge ' + p.stage, text: p.stage})),
    el('td', {class: 'msg'}, el('div', {text: p.message}),
      p.explanation ? el('details', {}, el('summary', {text: 'why, device by device'}), explanationTable(p.explanation)) : null)));
  box.replaceChildren(el('table', {}, el('thead', {}, el('tr', {}, el('th', {text: 'Pod'}), el('th', {text: 'Blocked at'}), el('th', {text: 'Reason'}))),
    el('tbody', {}, ...rows)), moreNote(pending.length, s.pending.length, 'waiting pods'));
}

function renderPools(s) {
  const share = (p) => (total(p.devices) ? p.devices.allocated / total(p.devices) : 0);
  const pools = s.pools.length > kTableRows
    ? [...s.pools].sort((a, b) => share(b) - share(a)).slice(0, kTableRows) : s.pools;
  const rows = pools.map((p) => el('tr', {},
    el('td', {}, el('button', {class: 'link', type: 'button', text: `${p.driver} / ${p.pool}`, onclick: () => showMap('pool', `${p.driver}/${p.pool}`)}),
      p.complete ? null : el('div', {class: 'muted', text: 'incomplete: slices missing'})),
    el('td', {text: p.node || '(not node-local)'}),
    el('td', {}, stack(p.devices), el('div', {class: 'muted', text: tallyText(p.devices)})),
    el('td', {}, p.counters.length ? useRows(p.counters) : null, p.capacity.length ? useRows(p.capacity) : null)));
  $('pools').replaceChildren(el('table', {}, el('thead', {}, el('tr', {}, el('th', {text: 'Driver / pool'}), el('th', {text: 'Node'}),
    el('th', {text: 'Devices'}), el('th', {text: 'Shared counters and capacity (consumed / total)'}))), el('tbody', {}, ...rows)),
    moreNote(pools.length, s.pools.length, 'pools, the fullest first'));
}

function deviceCell(d) {
  const state = d.state === 'free' && d.blockedByCounters ? 'blocked' : d.state;
  const tip = [`${d.driver}/${d.pool}/${d.name}: ${d.state}`];
  if (d.blockedByCounters) tip.push('does not fit: its shared counters are used up');
  if (d.uuid) tip.push(`uuid ${d.uuid}`);
  if (d.taints.length) tip.push('taints: ' + d.taints.join(', '));
  if (d.claims.length) tip.push('claims: ' + d.claims.join(', '));
  const cell = el('div', {class: 'cell ' + state, title: tip.join('\n'), 'data-device': d.name},
    el('div', {class: 'dname', text: d.name}));
  if (d.product) cell.append(el('div', {class: 'sub', text: d.product}));
  if (d.pods.length) cell.append(el('div', {class: 'sub', text: d.pods.join(', ')}));
  else if (d.claims.length) cell.append(el('div', {class: 'sub', text: d.claims.join(', ')}));
  if (d.taints.length && d.state !== 'allocated') cell.append(el('div', {class: 'sub', text: d.taints[0]}));
  for (const u of d.capacity) {
    const w = u.totalValue > 0 ? Math.min(100, (100 * u.consumedValue) / u.totalValue) : 0;
    cell.append(el('div', {class: 'sub', text: `${u.name} ${u.consumed} / ${u.total}`}),
      el('div', {class: 'minibar'}, el('span', {style: `width:${w}%`})));
  }
  return cell;
}

// Devices drawing on one counter set are drawn inside it, as partitions of
// their physical device.
function renderMap(devices, truncated) {
  const map = $('map');
  map.replaceChildren();
  const groups = new Map();
  for (const d of devices) {
    const key = d.counterSet ? `${d.driver}/${d.pool}/${d.counterSet}` : '';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(d);
  }
  for (const [key, ds] of groups) {
    if (!key) {
      for (const d of ds) map.append(deviceCell(d));
      continue;
    }
    map.append(el('div', {class: 'parent'}, el('div', {class: 'title', text: `${ds[0].counterSet} (shared counters, ${ds.length} partitions)`}),
      el('div', {class: 'cells'}, ...ds.map(deviceCell))));
  }
  if (devices.length === 0) map.append(el('span', {class: 'muted', text: 'No devices.'}));
  else {
    map.prepend(el('div', {class: 'legend', style: 'flex-basis:100%'},
      legendItem('s-allocated', 'allocated'), legendItem('s-tainted', 'tainted'), legendItem('s-free', 'free'),
      legendItem('s-blocked', 'free, but its shared counters are used up (another partition holds them)')));
  }
  if (truncated) map.append(el('div', {class: 'muted', text: 'More devices than shown.'}));
}

async function loadMap() {
  if (!openMap) return;
  const q = new URLSearchParams({[openMap.kind]: openMap.value});
  const r = await fetch('/api/devices?' + q.toString());
  if (!r.ok) return;
  const body = await r.json();
  renderMap(body.devices, body.truncated);
}

function showMap(kind, value) {
  openMap = {kind, value};
  $('map-section').hidden = false;
  $('map-title').textContent = kind === 'node' ? `Devices of node ${value}` : kind === 'pool' ? `Devices of pool ${value}` : 'Devices that are not node-local';
  loadMap().then(() => $('map-section').scrollIntoView({block: 'nearest'}));
}

function render(s) {
  summary = s;
  renderStatus(s);
  renderCards(s);
  renderClasses(s);
  renderNodes(s);
  renderPending(s);
  renderPools(s);
  $('warnings-section').hidden = s.warnings.length === 0;
  $('warnings').replaceChildren(...s.warnings.map((w) => el('li', {text: w})));
  document.body.dataset.generation = s.generation;
}

let loading = false;
let again = false;
async function refresh() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    const r = await fetch('/api/summary');
    if (r.ok) render(await r.json());
    else if (r.status === 503) $('updated').textContent = 'reading the cluster: the first state is not computed yet';
    if (openMap) await loadMap();
  } finally {
    loading = false;
    if (again) { again = false; refresh(); }
  }
}

function connect() {
  const events = new EventSource('/api/events');
  events.addEventListener('state', refresh);
  events.onopen = () => {
    if (!summary || !summary.stale) { $('status').className = 'pill pill-live'; $('status').textContent = 'live'; }
  };
  events.onerror = () => { $('status').className = 'pill pill-wait'; $('status').textContent = 'reconnecting'; };
}

let searchTimer = null;
async function search() {
  const q = $('search').value.trim();
  const box = $('results');
  if (!q) { box.hidden = true; return; }
  const r = await fetch('/api/search?' + new URLSearchParams({q}).toString());
  if (!r.ok) return;
  const body = await r.json();
  box.replaceChildren(...body.results.map((x) => el('button', {type: 'button', onclick: () => {
    box.hidden = true;
    if (x.kind === 'pool') showMap('pool', x.name);
    else if (x.node) showMap('node', x.node);
    else { const row = document.querySelector(`tr[data-pod="${CSS.escape(x.name)}"]`); if (row) row.scrollIntoView({block: 'center'}); }
  }}, el('span', {class: 'kind', text: x.kind}), x.name, x.detail ? el('span', {class: 'muted', text: ` · ${x.detail}`}) : null)));
  if (body.results.length === 0) box.replaceChildren(el('div', {class: 'muted', style: 'padding:8px 12px', text: 'Nothing matches.'}));
  box.hidden = false;
}

document.addEventListener('DOMContentLoaded', () => {
  $('search').addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(search, 150); });
  $('search').addEventListener('keydown', (e) => { if (e.key === 'Escape') $('results').hidden = true; });
  $('map-close').addEventListener('click', () => { openMap = null; $('map-section').hidden = true; });
  refresh();
  connect();
});

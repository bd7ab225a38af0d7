// Drives the dashboard of `dra serve` in a real Chromium through the
// DevTools protocol (chrome-remote-interface), for tests/cluster/serve_test.sh:
//   node serve_browser.js MODULES DEVTOOLS_PORT URL SCREENSHOT CHANGE_COMMAND
// Loads the page, checks what it shows against the expectations in
// $DRA_SERVE_EXPECT (JSON, worked out by the shell test from the API server),
// runs CHANGE_COMMAND (which changes the cluster) and waits, without a
// reload, for the page to show the change; then saves a screenshot.
// Prints one line per check; exits 1 on the first failure.
'use strict';
const path = require('path');
const fs = require('fs');
const {execFileSync} = require('child_process');
const [modules, port, url, screenshot, change] = process.argv.slice(2);
const CDP = require(path.join(modules, 'chrome-remote-interface'));
const expect = JSON.parse(process.env.DRA_SERVE_EXPECT);

function fail(message) {
  console.log('FAIL: ' + message);
  process.exit(1);
}

async function main() {
  const target = await CDP.New({port: Number(port)});
  const client = await CDP({port: Number(port), target});
  const {Page, Runtime, Emulation} = client;
  await Page.enable();
  await Runtime.enable();
  const errors = [];
  Runtime.exceptionThrown(({exceptionDetails}) => errors.push(exceptionDetails.text + ' ' +
    (exceptionDetails.exception ? exceptionDetails.exception.description : '')));
  Runtime.consoleAPICalled(({type, args}) => {
    if (type === 'error') errors.push(args.map((a) => a.value || a.description).join(' '));
  });
  await Emulation.setDeviceMetricsOverride({width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false});

  const evaluate = async (expression) => {
    const r = await Runtime.evaluate({expression, returnByValue: true, awaitPromise: true});
    if (r.exceptionDetails) throw new Error(expression + ': ' + r.exceptionDetails.text);
    return r.result.value;
  };
  const waitFor = async (what, expression, seconds) => {
    const deadline = Date.now() + seconds * 1000;
    let last;
    while (Date.now() < deadline) {
      last = await evaluate(expression);
      if (last) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    fail(`${what}: not seen within ${seconds} s (last: ${JSON.stringify(last)})`);
  };
  const text = (selector) => `((document.querySelector(${JSON.stringify(selector)}) || {}).textContent || '')`;

  await Page.navigate({url});
  await Page.loadEventFired();
  await waitFor('first state', 'document.body.dataset.generation', 20);
  console.log('ok: the page loaded the state');
  await waitFor('live status', `${text('#status')} === 'live'`, 10);
  console.log('ok: the event stream is connected');

  for (const node of expect.nodes) {
    await waitFor(`node ${node}`, `!!document.querySelector('[data-node=${JSON.stringify(node)}]')`, 5);
  }
  console.log(`ok: nodes ${expect.nodes.join(', ')}`);
  const legend = await evaluate(text('#devices-legend'));
  if (!legend.includes(`${expect.allocated} allocated`) || !legend.includes(`${expect.free} free`) ||
      !legend.includes(`${expect.tainted} tainted`)) {
    fail(`device totals: "${legend}", want ${JSON.stringify(expect)}`);
  }
  console.log(`ok: device totals "${legend}"`);
  for (const pod of expect.pending) {
    const row = await waitFor(`pending pod ${pod.name}`,
      `(() => { const r = document.querySelector('tr[data-pod=${JSON.stringify(pod.name)}]'); return r && r.textContent; })()`, 5);
    const badge = await evaluate(`document.querySelector('tr[data-pod=${JSON.stringify(pod.name)}] .badge').textContent`);
    if (badge !== pod.stage) fail(`pending pod ${pod.name}: stage "${badge}", want ${pod.stage}`);
    if (!row.includes(pod.message)) fail(`pending pod ${pod.name}: "${row}" lacks kube-scheduler's message "${pod.message}"`);
  }
  console.log(`ok: waiting pods ${expect.pending.map((p) => p.name + ' (' + p.stage + ')').join(', ')}`);
  // Nothing the page means to leave out shows as a stray "null" or
  // "undefined" (no name or value in this cluster is either).
  const stray = await evaluate(`[...document.querySelectorAll('main *, body > *')].flatMap((e) => [...e.childNodes]).filter((n) => n.nodeType === 3 && /^(null|undefined)$/.test(n.textContent.trim())).length`);
  if (stray !== 0) fail(`${stray} stray "null" or "undefined" texts on the page`);

  // The device map of a node; the markup in an attribute value stays text.
  await evaluate(`document.querySelector('[data-node=${JSON.stringify(expect.mapNode)}]').click()`);
  await waitFor('device map', `document.querySelectorAll('#map .cell').length === ${expect.mapDevices}`, 5);
  const mapText = await evaluate(text('#map'));
  if (!mapText.includes(expect.markup)) fail(`the attribute with markup is not shown as text: "${mapText}"`);
  if (await evaluate('window.__pwned === 1')) fail('markup from the cluster ran');
  if (await evaluate('document.querySelectorAll("#map img").length') !== 0) fail('markup from the cluster became elements');
  console.log(`ok: device map of ${expect.mapNode}, markup shown as text`);

  // Search.
  await evaluate(`(() => { const s = document.getElementById('search'); s.value = ${JSON.stringify(expect.search)}; s.dispatchEvent(new Event('input')); })()`);
  await waitFor('search result', `!document.getElementById('results').hidden && ${text('#results')}.includes(${JSON.stringify(expect.search)})`, 5);
  console.log(`ok: search for ${expect.search}`);
  await evaluate(`document.getElementById('results').hidden = true`);

  // A change in the cluster shows without a reload.
  const generation = await evaluate('document.body.dataset.generation');
  await evaluate('window.__notReloaded = true');
  const started = Date.now();
  execFileSync('bash', ['-c', change], {stdio: 'inherit'});
  await waitFor('the change', `${text('#devices-legend')}.includes('${expect.allocatedAfter} allocated')`, 30);
  const seconds = (Date.now() - started) / 1000;
  if (!(await evaluate('window.__notReloaded === true'))) fail('the page was reloaded');
  if ((await evaluate('document.body.dataset.generation')) === generation) fail('no new state');
  console.log(`ok: the change showed without a reload after ${seconds.toFixed(2)} s`);

  if (errors.length) fail('errors in the page: ' + errors.join('; '));
  const {contentSize} = await Page.getLayoutMetrics();
  await Emulation.setDeviceMetricsOverride({width: 1400, height: Math.ceil(contentSize.height), deviceScaleFactor: 1, mobile: false});
  const shot = await Page.captureScreenshot({format: 'png'});
  fs.writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));
  console.log(`ok: screenshot ${screenshot}`);
  await client.close();
  await CDP.Close({port: Number(port), id: target.id});
}

main().catch((e) => fail(e.stack || String(e)));

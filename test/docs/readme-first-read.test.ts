// The README as a first read: what a user gets, the picture, install, a quick start that needs no collector before
// the Usage block (which says what it needs running), the docs index, the dashboard's file and how to import it,
// the two commands of a fresh clone, and install lines that cannot lead into ERESOLVE; at most 8 KB. The quick
// start itself runs in test/docs/doc-programs.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const front = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = readFileSync(join(root, 'packages/processor/README.md'), 'utf8');
const at = (text: string, what: string) => {
  const index = text.indexOf(what);
  if (index === -1) throw new Error(`the README has no ${JSON.stringify(what)}`);
  return index;
};

describe('README.md as a first read', () => {
  it('opens with what a user gets, then the picture, install, the quick start, Usage, the docs, the two commands', () => {
    const picture = at(front, '](docs/images/report.png)');
    const order = [
      picture,
      at(front, '## Install'),
      at(front, '## Quick start'),
      at(front, '## Usage'),
      at(front, '## Documentation'),
      at(front, '## Two commands'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const opening = front.slice(0, picture);
    // Internals come later (How it works), not before what the user gets.
    expect(opening).not.toMatch(/Map lookup|handle|allocation/i);
    expect(opening.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('<!--')).length).toBeLessThan(7);
    // One line says what the picture is.
    expect(front.slice(picture).split('\n')[2]).toMatch(/report the demo/);
  });

  it('names the Grafana dashboard by its file, which exists, and how to import it', () => {
    const dashboard = 'packages/examples/dashboards/backupstats.json';
    expect(existsSync(join(root, dashboard))).toBe(true);
    const named = at(front, `](${dashboard})`);
    expect(front.slice(named)).toMatch(/^[^\n]*\n[^\n]*Import[\s\S]{0,80}upload the file/);
  });

  it('is at most 8 KB, its prose lines at most 120 characters', () => {
    expect(Buffer.byteLength(front)).toBeLessThanOrEqual(8192);
    const prose = front.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '').split('\n');
    expect(prose.filter((line) => line.length > 120 && !line.startsWith('|'))).toEqual([]);
  });

  it('the Usage block says what it needs running and what happens without it', () => {
    const usage = front.slice(at(front, '## Usage'), at(front, '## Documentation'));
    expect(usage).toMatch(/Needs an OTLP collector/);
    expect(usage).toMatch(/OTEL_METRICS_EXPORTER=console/);
  });

  it('every npm install line that names @opentelemetry/api pins its minor (an unpinned API is 1.10, which SDK 2.x refuses)', () => {
    for (const text of [front, pkg]) {
      const lines = [...text.matchAll(/npm install backupstats[^`\n]*/g)].map((m) => m[0]);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const line of lines) {
        if (!line.includes('@opentelemetry/api')) continue;
        expect(line, line).toMatch(/@opentelemetry\/api@~1\.(9|10)\.0/);
      }
    }
  });
});

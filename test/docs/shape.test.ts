// The hand-written Markdown stays in the shape its readers need: at most 200 KB in all (README, CONTRIBUTING,
// ARCHITECTURE, docs/ and the packages' READMEs; the CHANGELOG and generated files aside), no page over 30 KB, the
// front README at most 8 KB, CONTRIBUTING at most 12 KB, and prose lines at most 120 characters (tables and code
// blocks aside).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  const packages = readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((file) => existsSync(join(root, file)));
  const top = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md'].filter((file) => existsSync(join(root, file)));
  return [...top, ...packages, ...docs];
}

const size = (page: string) => readFileSync(join(root, page)).length;

/** The most bytes a page may hold: the front README and CONTRIBUTING are read whole, so they are kept shorter. */
const LIMITS: Readonly<Record<string, number>> = { 'README.md': 8 * 1024, 'CONTRIBUTING.md': 12 * 1024 };
const limit = (page: string) => LIMITS[page] ?? 30 * 1024;

/** The lines of a page, outside fenced code blocks and tables, longer than 120 characters. */
function longLines(page: string): string[] {
  const prose = readFileSync(join(root, page), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
  // A link's target is not text to read, and a URL cannot be wrapped: it does not count.
  const length = (line: string) => line.replace(/\]\([^)\s]+\)/g, ']()').length;
  return prose.split('\n').filter((line) => length(line) > 120 && !line.startsWith('|'));
}

describe('the shape of the hand-written docs', () => {
  it('is at most 200 KB in all', () => {
    const total = pages().reduce((sum, page) => sum + size(page), 0);
    expect(
      total,
      pages()
        .map((page) => `${page}: ${size(page)}`)
        .join('\n'),
    ).toBeLessThanOrEqual(200 * 1024);
  });

  it.each(pages())(
    '%s is at most its limit (30 KB; README 8 KB, CONTRIBUTING 12 KB), its prose lines at most 120 characters',
    (page) => {
      expect(size(page)).toBeLessThanOrEqual(limit(page));
      expect(longLines(page)).toEqual([]);
    },
  );
});

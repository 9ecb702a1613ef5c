import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every relative link of the READMEs, docs/, CONTRIBUTING.md and ARCHITECTURE.md, and every link of the package
// README into this repository on GitHub, must name a file that exists and, after `#`, a heading of that file: the
// docs are split over several pages, and a heading renamed on one must not silently break the others.
const root = fileURLToPath(new URL('../..', import.meta.url));
const REPOSITORY = 'https://github.com/backupstats/backupstats/blob/main/';

function pages(): string[] {
  const markdownIn = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(dir, name));
  const packages = readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((file) => existsSync(join(root, file)));
  return ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...packages, ...markdownIn('docs')];
}

/** The text outside fenced code blocks, where a `[x](y)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
}

/** The anchors GitHub gives the headings of a page: lower case, punctuation dropped, spaces to `-`, `-1` for repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (heading ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The broken links of one page, as `page: target (why)`. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (target === undefined) continue;
    const local = target.startsWith(REPOSITORY)
      ? relative(dirname(join(root, page)), join(root, target.slice(REPOSITORY.length)))
      : target;
    if (/^[a-z]+:/i.test(local)) continue;
    const [path = '', anchor] = local.split('#');
    const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), path);
    if (!existsSync(file)) {
      broken.push(`${page}: ${target} (no such file)`);
    } else if (anchor !== undefined && !(statSync(file).isFile() && anchors(readFileSync(file, 'utf8')).has(anchor))) {
      broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  return broken;
}

describe('the links of the docs', () => {
  it('finds the headings the way GitHub names them', () => {
    expect([
      ...anchors('# A `b`\n## OpenTelemetry name → Prometheus series\n## A `b`\n```\n# not a heading\n```\n'),
    ]).toEqual(['a-b', 'opentelemetry-name--prometheus-series', 'a-b-1']);
  });

  it.each(pages())('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});

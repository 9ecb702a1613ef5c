// The relabel rule that docs/naming.md gives for Vitess dashboards, read from the doc itself, so that the tests
// scrape with exactly what users copy and the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NAMING_DOC = fileURLToPath(new URL('../../docs/naming.md', import.meta.url));

/**
 * The list items of the `metric_relabel_configs:` YAML block of docs/naming.md, indented by six spaces as
 * startPrometheus's `metricRelabelConfigs` wants them. Throws when the doc has no such block.
 */
export function vitessRelabelConfigs(): string {
  const doc = readFileSync(NAMING_DOC, 'utf8');
  const block = /^```yaml\nmetric_relabel_configs:\n([\s\S]*?)^```$/m.exec(doc)?.[1];
  if (block === undefined || !block.includes('regex:')) {
    throw new Error(`${NAMING_DOC} has no \`\`\`yaml block starting with metric_relabel_configs:`);
  }
  return block
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

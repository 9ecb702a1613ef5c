// @ts-nocheck
// Prometheus's text exposition format, read back: what the Pushgateway serves on /metrics for every group.

/** One sample line: metric name, labels, value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * Every sample of an exposition, comments skipped. Label values are unescaped (`\\`, `\"`, `\n`); a line that does
 * not parse throws, so that a format the tests do not understand is never read as "no such series".
 */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    samples.push(parseLine(line));
  }
  return samples;
}

function parseLine(line: string): Sample {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (name === undefined) throw new Error(`exposition: no metric name in ${JSON.stringify(line)}`);
  const labels: Record<string, string> = {};
  let at = name.length;
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
      if (label === null) throw new Error(`exposition: bad label at ${at} in ${JSON.stringify(line)}`);
      at += label[0].length;
      let value = '';
      for (; line[at] !== '"'; at++) {
        if (at >= line.length) throw new Error(`exposition: unterminated value in ${JSON.stringify(line)}`);
        if (line[at] === '\\') {
          at++;
          value += line[at] === 'n' ? '\n' : line[at];
        } else {
          value += line[at];
        }
      }
      labels[label[1] as string] = value;
      at++;
      if (line[at] === ',') at++;
    }
    at++;
  }
  const [value, timestamp, ...rest] = line.slice(at).trim().split(/\s+/);
  if (value === undefined || rest.length > 0) throw new Error(`exposition: bad value in ${JSON.stringify(line)}`);
  if (timestamp !== undefined) throw new Error(`exposition: a sample with a timestamp: ${JSON.stringify(line)}`);
  return { name, labels, value: parseValue(value) };
}

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  if (Number.isNaN(value) && text !== 'NaN') throw new Error(`exposition: ${JSON.stringify(text)} is not a number`);
  return value;
}

/** True when `sample` has every label of `labels` with that value (other labels allowed). */
export function hasLabels(sample: Sample, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
}

/** One metric family of a text exposition: its comment lines (HELP, UNIT, TYPE) and its sample lines, as written. */
export interface Family {
  readonly name: string;
  /** From its TYPE line; `untyped` without one. */
  readonly type: string;
  readonly comments: string[];
  readonly samples: string[];
}

const COMMENT = /^#\s+(HELP|TYPE|UNIT)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\s+(.*))?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * The families of a text exposition (format 0.0.4), in order. A family starts at a HELP, UNIT or TYPE line of a
 * new name; sample lines (a histogram's `_bucket`, `_sum` and `_count` included) belong to the family before them.
 */
export function parseFamilies(text: string): Family[] {
  const families: Family[] = [];
  let current: { name: string; type: string; comments: string[]; samples: string[] } | undefined;
  for (const line of text.split('\n')) {
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: a blank line read as a sample has no label of the job, so no family carries it, and the serializer writes none
    if (line.trim() === '') continue;
    const comment = COMMENT.exec(line);
    if (comment !== null) {
      // Stryker disable next-line StringLiteral: the name's group always matches when the line does
      const [, keyword, name = ''] = comment;
      if (current === undefined || current.name !== name) {
        // Stryker disable next-line StringLiteral: only 'gauge' is asked of a type: any other name reads the same
        current = { name, type: 'untyped', comments: [], samples: [] };
        families.push(current);
      }
      if (keyword === 'TYPE') current.type = (comment[3] ?? '').trim();
      current.comments.push(line);
    } else if (line.startsWith('#')) {
      current?.comments.push(line);
    } else {
      if (current === undefined) {
        // A sample before any family: its own family, which is untyped, so never carried.
        // Stryker disable next-line StringLiteral,ArrayDeclaration: see above
        current = { name: sampleName(line), type: 'untyped', comments: [], samples: [] };
        // Stryker disable next-line CallExpression: see above
        families.push(current);
      }
      current.samples.push(line);
    }
  }
  return families;
}

/** The exposition of `families`, one line each, ending in a newline. */
export function formatFamilies(families: readonly Family[]): string {
  const lines = families.flatMap((family) => [...family.comments, ...family.samples]);
  // Stryker disable next-line ConditionalExpression,StringLiteral: withCarried passes a carried family, with a line at least
  if (lines.length === 0) return '';
  return `${lines.join('\n')}\n`;
}

/** The metric name of a sample line. */
export function sampleName(line: string): string {
  // A sample line starts with its name. A name found further on, or a placeholder for none, is never the length of what
  // precedes a line's `{` (so no labels are read), and a family's name counts only with its TYPE line.
  // Stryker disable next-line Regex,StringLiteral: see above
  return /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? '';
}

/** The labels of a sample line, values unescaped. */
export function sampleLabels(line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const open = line.indexOf('{');
  // No `{` (-1) is no name's length either.
  if (sampleName(line).length !== open) return labels;
  const close = closingBrace(line, open);
  // Stryker disable next-line ArithmeticOperator: from the `{` or the character before, the same pairs match (no `=` in a name)
  for (const match of line.slice(open + 1, close).matchAll(LABEL)) {
    // Stryker disable next-line StringLiteral: both groups always match when LABEL does
    const [, name = '', value = ''] = match;
    labels[name] = value.replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char));
  }
  return labels;
}

/** The index of the `}` that closes the label set opened at `open`, skipping quoted values. */
function closingBrace(line: string, open: number): number {
  let quoted = false;
  // Starting at the `{` changes nothing; the character past the end is undefined, which matches no case.
  // Stryker disable next-line ArithmeticOperator,EqualityOperator: see above
  for (let i = open + 1; i < line.length; i++) {
    const char = line[i];
    // Stryker disable next-line LogicalOperator: outside quotes a label set holds names, `=` and `,` only: no `\\`
    if (char === '\\' && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === '}' && !quoted) return i;
  }
  return line.length;
}

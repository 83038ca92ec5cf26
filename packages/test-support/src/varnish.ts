import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './private-redis';
import { isListening } from './services';

/** A Varnish of the test's own (Debian's varnishd with the xkey vmod), on a loopback port. */
export interface PrivateVarnish {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * The edge VCL of docs/cdn.md: round-robin over the API replicas, `PURGE` with `xkey-purge` from loopback
 * only (a hard purge of every object tagged with one of the keys), and `x-cache: HIT|MISS` on answers.
 * Everything else is Varnish's built-in logic: `private` answers are never stored, `s-maxage` is the TTL,
 * `Vary` is honoured.
 */
export function edgeVcl(backends: readonly number[]): string {
  const declared = backends
    .map(
      (port, index) =>
        `backend api${index} { .host = "127.0.0.1"; .port = "${port}"; .connect_timeout = 2s; .first_byte_timeout = 10s; }`,
    )
    .join('\n');
  const added = backends.map((_, index) => `  apis.add_backend(api${index});`).join('\n');
  return `vcl 4.1;
import directors;
import xkey;
${declared}
acl purgers { "127.0.0.1"; }
sub vcl_init {
  new apis = directors.round_robin();
${added}
}
sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) { return (synth(403, "Forbidden")); }
    return (synth(200, "Purged " + xkey.purge(req.http.xkey-purge)));
  }
  set req.backend_hint = apis.backend();
}
sub vcl_deliver {
  if (obj.hits > 0) { set resp.http.x-cache = "HIT"; } else { set resp.http.x-cache = "MISS"; }
}
`;
}

/**
 * Starts varnishd in the foreground on a loopback port (free, or `onPort`: a Varnish coming back where a stopped one
 * was) in front of the given backends (ports on 127.0.0.1), with a 64 MB memory store (empty at each start).
 * Bounded: 20 s to listen (varnishd compiles the VCL with cc first).
 */
export async function startPrivateVarnish(
  backends: readonly number[],
  onPort?: number,
): Promise<PrivateVarnish> {
  const dir = await mkdtemp(join(tmpdir(), 'newsroom-varnish-'));
  // varnishd's worker runs as its own user: it must read the VCL and write its working directory.
  await chmod(dir, 0o755);
  const vcl = join(dir, 'edge.vcl');
  await writeFile(vcl, edgeVcl(backends), { mode: 0o644 });
  const port = onPort ?? (await freePort());
  const child: ChildProcess = spawn(
    'varnishd',
    ['-F', '-n', join(dir, 'work'), '-a', `127.0.0.1:${port}`, '-f', vcl, '-s', 'malloc,64m', '-T', 'none'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`varnishd exited with ${child.exitCode}: ${stderr.slice(-500)}`);
    }
    if (await isListening('127.0.0.1', port, 200)) return { url: `http://127.0.0.1:${port}`, port, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`varnishd did not listen on ${port} within 20 s: ${stderr.slice(-500)}`);
}

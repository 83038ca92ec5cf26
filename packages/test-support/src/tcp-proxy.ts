import net from 'node:net';

export interface TcpProxy {
  /** The loopback port clients connect to instead of the target's. */
  port: number;
  /** Stops forwarding bytes both ways without closing anything (a frozen server or a black-holed network). */
  pause(): void;
  /** Forwards again, starting with whatever was held back while paused. */
  resume(): void;
  /** Destroys every open connection (a server restart); new connections are accepted as usual. */
  cutAll(): void;
  /** While true, every new connection is closed at once (a server that is down or restarting). */
  refuse(refusing: boolean): void;
  /** How many client connections are open. */
  readonly openConnections: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `targetHost:targetPort`, for fault tests: put it between the code
 * under test and the shared Postgres or Redis, then pause or cut it, never the shared server itself.
 * While paused, new connections are accepted (as a frozen server's kernel would) but carry no bytes.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let paused = false;
  let refusing = false;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: targetHost, port: targetPort });
    const pair = { client, upstream };
    pairs.add(pair);
    // Manual forwarding rather than pipe(): pipe() resumes a source on 'drain', which would undo a pause.
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk) => {
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => {
            if (!paused) from.resume();
          });
        }
      });
      from.on('end', () => to.end());
    };
    forward(client, upstream);
    forward(upstream, client);
    if (paused) {
      client.pause();
      upstream.pause();
    }
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;

  const cutAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    pause() {
      paused = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      paused = false;
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    cutAll,
    refuse(value) {
      refusing = value;
    },
    get openConnections() {
      return pairs.size;
    },
    close() {
      cutAll();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** `url` with its host and port replaced by the proxy's (for postgres:// and redis:// URLs alike). */
export function throughProxy(url: string, proxy: Pick<TcpProxy, 'port'>): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}

/** Host and port of a postgres:// or redis:// URL (the proxy's target). */
export function hostAndPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : defaultPort };
}

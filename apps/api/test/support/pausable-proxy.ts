import { connect, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a server (Redis here) that can stop forwarding: while paused, what
 * clients send waits in the proxy unread, so the server looks hung (connected, never answering), which
 * is the failure a refused connection does not show. Resuming forwards what waited.
 */
export async function pausableProxy(target: URL) {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let paused = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    upstream.pipe(client);
    if (!paused) client.pipe(upstream);
    else client.pause();
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${target.protocol}//127.0.0.1:${port}`,
    pause() {
      paused = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        client.pause();
      }
    },
    resume() {
      if (!paused) return;
      paused = false;
      for (const { client, upstream } of pairs) client.pipe(upstream);
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

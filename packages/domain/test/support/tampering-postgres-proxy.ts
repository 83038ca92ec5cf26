import net from 'node:net';

/**
 * A loopback proxy in front of the shared Postgres that tampers with each new connection's first answer:
 * right after the startup's ReadyForQuery it appends `tail` in the same write, then closes the connection.
 * The client parses both in one read, so whatever `tail` makes it emit arrives in the very turn pg-pool
 * hands the new connection out, before any code awaiting the checkout can run.
 */
export async function startTamperingProxy(
  target: { host: string; port: number },
  tail: Buffer,
): Promise<{ port: number; tampered: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { tampered: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let done = false;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (done) return;
      pending = Buffer.concat([pending, chunk]);
      // Messages are a type byte and a length (itself included); the startup ends with 'Z' (ReadyForQuery).
      let offset = 0;
      while (offset + 5 <= pending.length) {
        const type = String.fromCharCode(pending[offset] as number);
        const end = offset + 1 + pending.readInt32BE(offset + 1);
        if (end > pending.length) break;
        offset = end;
        if (type === 'Z') {
          done = true;
          state.tampered++;
          client.end(Buffer.concat([pending.subarray(0, end), tail]));
          upstream.destroy();
          return;
        }
      }
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get tampered() {
      return state.tampered;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A backend ErrorResponse: severity FATAL, a SQLSTATE and a message, as Postgres sends before closing. */
export function fatalMessage(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...[`SFATAL`, `VFATAL`, `C${code}`, `M${message}`].map((field) => Buffer.from(`${field}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

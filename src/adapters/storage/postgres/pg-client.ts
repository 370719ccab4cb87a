import { connect, type Socket } from 'node:net';
import postgres from 'postgres';

/** A pool of connections to one Postgres database (the `postgres` driver's tagged-template client). */
export type Sql = postgres.Sql<Record<string, never>>;

/**
 * Opens a pool on `url`. Notices are dropped (migrations' IF NOT EXISTS chatter); numbers come
 * back as numbers (bigint counts and epoch seconds fit a double). `max` bounds the pool.
 *
 * @example
 * const sql = connectPostgres(process.env.HERMES_WEBUI_DATABASE_URL!, { max: 10 });
 */
export function connectPostgres(url: string, options: { max?: number; applicationName?: string } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'hermes-webui' },
    // int8 (counts, sequences) as plain numbers: every value here stays below 2^53.
    types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
    transform: { undefined: null },
    // Nagle's algorithm off: a pipelined query would otherwise wait up to 40 ms for the ACK of the one before.
    ...({ socket: openSocket } as object),
  }) as unknown as Sql;
}

/** A TCP (or Unix socket) connection with Nagle off, connected before the driver takes it. */
function openSocket(o: { host: string[]; port: number[]; path?: string | false }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = o.path ? connect(o.path) : connect({ host: o.host[0]!, port: o.port[0]!, noDelay: true });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

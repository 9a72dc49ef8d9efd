/**
 * Whether a target can be reached at all: a TCP connection (and a TLS handshake for https) to its
 * host and port. Nothing is requested, so a slow or hanging route cannot make the whole target look
 * unreachable; only a refused connection, an unknown host, a handshake failure or silence at the
 * connection level can.
 */
import net from 'node:net';
import tls from 'node:tls';

/** Why the target cannot be reached, or undefined when a connection was made. */
export function unreachable(url: URL, timeoutMs: number): Promise<string | undefined> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`no connection within ${timeoutMs} ms`), timeoutMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code ? `${err.code} (${err.message})` : err.message),
    );
  });
}

/**
 * An upgraded connection (a WebSocket, h2c) passed through untouched: the request's head goes to
 * the deployment as it came and, once the deployment answers 101, bytes flow both ways as they
 * are. Nothing in it is judged: past the upgrade it is no longer HTTP.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

export interface TunnelTarget {
  upstream: URL;
  /** The upstream URL's path, put before the request's. */
  prefix: string;
  /** The https deployment's trust settings (--ca, --insecure). */
  tls: { ca?: string | Buffer; rejectUnauthorized?: boolean };
}

/** A response head as bytes: the status line and the header pairs as they were received. */
function headOf(res: IncomingMessage, drop: (name: string) => boolean = () => false): string {
  const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}`];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    if (!drop(res.rawHeaders[i]!.toLowerCase()))
      lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function tunnel(req: IncomingMessage, socket: Duplex, head: Buffer, t: TunnelTarget): void {
  const headers = req.rawHeaders.slice();
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]!.toLowerCase() === 'host') headers[i + 1] = t.upstream.host;
  const secure = t.upstream.protocol === 'https:';
  const up = (secure ? https : http).request({
    hostname: t.upstream.hostname,
    port: t.upstream.port,
    method: req.method,
    path: `${t.prefix}${req.url ?? '/'}`,
    headers,
    ...(secure ? t.tls : {}),
  });
  up.on('upgrade', (res, upSocket, upHead) => {
    socket.write(headOf(res));
    if (upHead.length) socket.write(upHead);
    if (head.length) upSocket.write(head);
    upSocket.pipe(socket).on('error', () => upSocket.destroy());
    socket.pipe(upSocket).on('error', () => socket.destroy());
    upSocket.on('close', () => socket.destroy());
    socket.on('close', () => upSocket.destroy());
  });
  // The deployment refused the upgrade: its answer goes back, the connection closes after it.
  up.on('response', (res) => {
    // Its body is read decoded, so it is sent as it is and delimited by the close.
    const dropped = ['transfer-encoding', 'content-length', 'connection'];
    socket.write(
      headOf(res, (n) => dropped.includes(n)).replace(/\r\n\r\n$/, '\r\nConnection: close\r\n\r\n'),
    );
    res.pipe(socket);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
  up.end();
}

/**
 * A Content-Length header parameter on a request that came without one (peertube.local's DELETE
 * of an upload, `Content-Length` required): a request with neither Content-Length nor
 * Transfer-Encoding has a body of length 0 (RFC 9112 §6.3), and clients (fetch) write none for a
 * request without a body. So the header is read as "0" rather than refused as missing.
 */
import type { Operation } from 'dataapi/model';

type Bag = Record<string, unknown>;

/** The step that fills `content-length: 0` where the operation declares it, or undefined. */
export function bodylessLength(op: Operation): ((headers: Bag) => void) | undefined {
  if (!op.parameters.header.some((p) => p.name.toLowerCase() === 'content-length'))
    return undefined;
  return (headers) => {
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
      headers['content-length'] = '0';
  };
}

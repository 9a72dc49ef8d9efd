/** The proxy's flags and the contract's new ones: bad combinations refused with a clear message. */
import { describe, expect, it } from 'vitest';
import { parseContractFlags } from '../../scripts/commands/contract.ts';
import { parseProxyFlags } from '../../scripts/commands/proxy.ts';

const firstLine = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
  return 'accepted';
};

describe('flags', () => {
  it('dataapi proxy', () => {
    expect(firstLine(() => parseProxyFlags([]))).toBe('--upstream URL is required');
    expect(firstLine(() => parseProxyFlags(['--upstream', 'ftp://x']))).toMatch(
      /^--upstream must be an http/,
    );
    expect(firstLine(() => parseProxyFlags(['--upstream', 'http://x/?appkey=secret']))).toMatch(
      /^--upstream takes no query/,
    );
    expect(
      firstLine(() => parseProxyFlags(['--upstream', 'http://x', '--record', 'x.json'])),
    ).toMatch(/^--record takes a file name ending in .har/);
    expect(
      firstLine(() => parseProxyFlags(['--upstream', 'http://x', '--report-every', '0'])),
    ).toMatch(/^--report-every must be/);
    expect(
      firstLine(() => parseProxyFlags(['--upstream', 'http://x', '--reporter', 'dot'])),
    ).toMatch(/^--reporter: the proxy writes console, junit, json, html, sarif; not dot/);
    expect(
      firstLine(() => parseProxyFlags(['--upstream', 'http://x', '--timeout', '1.5'])),
    ).toMatch(/^--timeout must be a whole number of milliseconds/);
    expect(firstLine(() => parseProxyFlags(['--upstream', 'http://x', '--insecure']))).toMatch(
      /^--ca and --insecure are for an https:\/\/ --upstream/,
    );
    expect(
      parseProxyFlags(['--upstream', 'https://x', '--timeout', '250', '--ca', 'ca.pem']),
    ).toMatchObject({ timeoutMs: 250, ca: 'ca.pem' });
    expect(
      parseProxyFlags(['--upstream', 'http://x', '--port', '0', '--reporter', 'junit,html']),
    ).toMatchObject({
      upstream: 'http://x',
      port: 0,
      reporters: ['junit', 'html'],
    });
  });

  it('dataapi contract --from-har, --replay-to, --compare-mock', () => {
    expect(firstLine(() => parseContractFlags(['--replay-to', 'http://x']))).toMatch(
      /give --from-har FILE too/,
    );
    expect(
      firstLine(() => parseContractFlags(['--from-har', 'a.har', '--base-url', 'http://x'])),
    ).toMatch(/^--from-har judges recorded traffic: it takes no --base-url/);
    expect(firstLine(() => parseContractFlags(['--compare-mock']))).toMatch(/give --base-url URL/);
    expect(
      firstLine(() =>
        parseContractFlags(['--compare-mock', '--base-url', 'http://x', '--fuzz', '3']),
      ),
    ).toMatch(/^--compare-mock takes no --fuzz/);
    expect(
      parseContractFlags(['--from-har', 'a.har', '--replay-to', 'http://x', '--allow-writes']),
    ).toMatchObject({
      fromHar: 'a.har',
      replayTo: 'http://x',
      allowWrites: true,
    });
    expect(parseContractFlags(['--base-url', 'http://x', '--compare-mock'])).toMatchObject({
      compareMock: true,
    });
  });
});

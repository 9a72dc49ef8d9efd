/** `dataapi mock`: prints its address and keys (env key redacted), serves, and stops on SIGTERM. */
import { afterEach, describe, expect, it } from 'vitest';
import { killStarted, startCli } from './cli-process.ts';

afterEach(killStarted);

describe('dataapi mock', () => {
  it('serves on an ephemeral port, redacts DATAAPI_APPKEY, shuts down on SIGTERM', async () => {
    const cli = startCli(['--port', '0', '--no-rate-limit'], { DATAAPI_APPKEY: 'sk-live-abcdef' });
    const url = await cli.listening;
    expect(cli.output()).toContain('accepted key: *** (from DATAAPI_APPKEY)');
    expect(cli.output()).toContain('rate limits: off');
    expect(cli.output()).not.toContain('sk-live-abcdef');
    const res = await fetch(`${url}/Weather/AirQuality?appkey=sk-live-abcdef&city=x`);
    expect(res.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain('shutting down');
  });

  it('prints the default key when DATAAPI_APPKEY is unset; stops on SIGINT', async () => {
    const cli = startCli(['--port', '0']);
    const url = await cli.listening;
    expect(cli.output()).toContain('accepted key: mock-appkey');
    expect(cli.output()).toContain('rate limits: on');
    expect((await fetch(`${url}/__health`)).status).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('rejects a bad port with exit code 2', async () => {
    const cli = startCli(['--port', 'nope']);
    expect(await cli.exited).toBe(2);
    expect(cli.errors()).toContain('--port');
  });
});

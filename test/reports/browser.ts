/**
 * Finds a Chromium for the HTML report test and launches it headless with a fresh profile.
 * CI must have one (.ci/run installs Debian's package): there a missing browser is an error, not a skip.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export function findChromium(): string | undefined {
  // An explicit path wins, even a wrong one (it is how a missing browser is simulated).
  if (process.env.CHROMIUM_PATH)
    return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean))
    for (const name of CANDIDATES) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
  return undefined;
}

/** The Chromium to use, or undefined (a skip) locally; throws under CI when there is none. */
export function chromiumOrFail(): string | undefined {
  const found = findChromium();
  if (!found && process.env.CI && !/^(0|false)$/i.test(process.env.CI))
    throw new Error(
      'CI is set but no Chromium was found (/usr/bin/chromium, chromium, chromium-browser, google-chrome on PATH): .ci/run installs it with apt-get',
    );
  return found;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A headless browser context on a fresh user-data-dir, removed by `close()`. Offline by default
 * (a report file needs no network); `offline: false` for a page served from 127.0.0.1.
 */
export async function launch(
  executablePath: string,
  options: { offline?: boolean } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'dataapi-report-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    // Nothing the report does may need the network; fail loudly if it tries.
    offline: options.offline ?? true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

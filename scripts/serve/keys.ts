/**
 * The key source of `dataapi serve`: a keys file, else DATAAPI_KEYS, else --insecure-any-key (said
 * loudly). None is a usage error (exit 2) that says how to give keys. Keys are never printed.
 */
import {
  KeySourceError,
  keysFromEnv,
  keysVerifier,
  readKeysFile,
  type VerifyKey,
} from '../../runtime/server/index.ts';
import { UsageError } from '../args.ts';

export const HOW_TO_GIVE_KEYS = `Give the accepted keys one of these ways:
  --keys-file FILE        one key per line, or sha256:<64 hex> of it (printf %s "$KEY" | sha256sum)
  DATAAPI_KEYS=k1,k2      the same formats, separated by commas
  --insecure-any-key      accept any non-empty key (local work only)`;

export const INSECURE_BANNER = `
!!! dataapi serve: --insecure-any-key: ANY non-empty key is accepted.
!!! For local work only. Never expose this server: give keys with --keys-file or DATAAPI_KEYS.

`;

export type KeySource =
  { mode: 'verify'; verify: VerifyKey; describe: string } | { mode: 'any'; describe: string };

export async function resolveKeys(options: {
  keysFile?: string;
  insecureAnyKey: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<KeySource> {
  const { keysFile, insecureAnyKey, env } = options;
  const fromEnv = env.DATAAPI_KEYS !== undefined && env.DATAAPI_KEYS.trim() !== '';
  if (insecureAnyKey && (keysFile !== undefined || fromEnv)) {
    throw new UsageError(
      '--insecure-any-key cannot be combined with --keys-file or DATAAPI_KEYS: choose one key source',
    );
  }
  try {
    if (keysFile !== undefined) {
      const keys = await readKeysFile(keysFile);
      return {
        mode: 'verify',
        verify: keysVerifier(keys),
        describe: `${keys.length} from ${keysFile}`,
      };
    }
    const keys = keysFromEnv(env.DATAAPI_KEYS);
    if (keys)
      return {
        mode: 'verify',
        verify: keysVerifier(keys),
        describe: `${keys.length} from DATAAPI_KEYS`,
      };
  } catch (err) {
    if (err instanceof KeySourceError)
      throw new UsageError(`${err.message}\n\n${HOW_TO_GIVE_KEYS}`);
    throw err;
  }
  if (insecureAnyKey) return { mode: 'any', describe: 'ANY non-empty key (--insecure-any-key)' };
  throw new UsageError(
    `no key source: refusing to start a server anyone could use.\n\n${HOW_TO_GIVE_KEYS}`,
  );
}

/** The toolkit's version, from its package.json: above model/ in the sources, above dist/model/ when built. */
import { createRequire } from 'node:module';

const PACKAGE_JSON = import.meta.url.includes('/dist/model/')
  ? '../../package.json'
  : '../package.json';

let version: string | undefined;

export function toolkitVersion(): string {
  version ??= (createRequire(import.meta.url)(PACKAGE_JSON) as { version: string }).version;
  return version;
}

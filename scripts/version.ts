/** The toolkit's version, from its package.json: above scripts/ in the sources, above dist/scripts/ when built. */
import { createRequire } from 'node:module';

const PACKAGE_JSON = import.meta.url.includes('/dist/scripts/')
  ? '../../package.json'
  : '../package.json';

export function toolkitVersion(): string {
  return (createRequire(import.meta.url)(PACKAGE_JSON) as { version: string }).version;
}

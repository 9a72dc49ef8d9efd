/** The toolkit's version (model/version.ts: one place reads package.json). */
export { toolkitVersion } from '../model/version.ts';

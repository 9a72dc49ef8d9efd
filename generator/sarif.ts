/** SARIF for the generator's commands: the log writer (model/sarif.ts) and the toolkit's version. */
export {
  artifactUri,
  sarifLog,
  type SarifLevel,
  type SarifResultInput,
  type SarifRule,
} from '../model/sarif.ts';
export { toolkitVersion as toolVersion } from '../model/version.ts';

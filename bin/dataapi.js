#!/usr/bin/env node
// The toolkit is TypeScript run through tsx, so generated code and the toolkit share one source.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../scripts/cli.ts');
process.exitCode = await main(process.argv.slice(2));

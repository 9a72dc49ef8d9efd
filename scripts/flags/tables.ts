/** Every command's flag table, by command name: the configuration type and the tests read them. */
import { PROXY_FLAGS } from './proxy.ts';

export const FLAG_TABLES = {
  proxy: PROXY_FLAGS,
} as const;

import { afterAll } from 'vitest';
import { removePending } from './cleanup.ts';

// The suite must not depend on who runs it: a QA machine with DATAAPI_APPKEY set (for live
// contract runs) would otherwise change which key the mock accepts. Tests that need a key set it.
delete process.env['DATAAPI_APPKEY'];

// Runs for every test file, also in a worker that ran others before it.
afterAll(removePending);

/**
 * What a developer in another repository writes against the installed package (kept as text: they
 * import `@dataapi/client`, which only exists inside the consumer projects the tests make).
 */

/** What both module systems run: createClient, a standalone function, an upload from a path, an error. */
const CALLS = `
const [url, file] = process.argv.slice(2);
const api = createClient({ baseUrl: url, appkey: 'mock-appkey', retry: false });
const air = await api.getAirQuality({ query: { location: '北京' } });
const ip = await getIpLocation(createCaller({ baseUrl: url, appkey: 'mock-appkey' }), {
  query: { ip: '223.5.5.5' },
});
const upload = await api.uploadKnowledgeBaseDocuments({
  path: { knowledge_base_id: 'kb_gaokao_policy_2025' },
  body: { files: [fileFromPath(file)], tenant_id: 'tenant_zj_edu_001', replace_existing: 'false' },
});
let error;
try {
  await api.getAirQuality({ query: { location: '北京' } }, { headers: { Prefer: 'code=429' } });
} catch (e) {
  error = { isDataApiError: e instanceof DataApiError, outcome: e.outcome, httpStatus: e.httpStatus };
}
console.log(JSON.stringify({ air: air.data, code: air.status.code, ip: ip.data, upload: upload.status.code, error }));
`;

const NAMES = '{ createClient, createCaller, getIpLocation, fileFromPath, DataApiError }';

/** Plain Node, ES module. */
export const ESM = `import ${NAMES} from '@dataapi/client';\n${CALLS}`;

/** The same through require() (in an async function: CommonJS has no top-level await). */
export const CJS = `const ${NAMES} = require('@dataapi/client');\n(async () => {${CALLS}})();\n`;

/** TypeScript that must compile: results are typed from the description. */
export const TYPED = `
import { createClient, createCaller, getIpLocation, type ClientResult } from '@dataapi/client';

export async function main(url: string): Promise<string> {
  const api = createClient({ baseUrl: url, appkey: 'mock-appkey', retry: false });
  const air = await api.getAirQuality({ query: { location: '北京', lang: 'en' } });
  const first = air.data[0];
  const aqi: string | undefined = first === undefined ? undefined : String(first.AQI);
  const ip = await getIpLocation(createCaller({ baseUrl: url, appkey: 'mock-appkey' }), {
    query: { ip: '223.5.5.5' },
  });
  const country: string | undefined = ip.data.countryCode;
  const total: number | undefined = air.status.totalCount;
  const kept: ClientResult<unknown> = ip;
  return JSON.stringify({ aqi, country, total, attempts: kept.attempts });
}
`;

/** A wrong parameter name (locaton): must not compile. */
export const WRONG_PARAMETER = `
import { createClient } from '@dataapi/client';
const api = createClient({ baseUrl: 'http://127.0.0.1:9' });
export const call = api.getAirQuality({ query: { locaton: '北京' } });
`;

/** A wrong parameter name on a standalone function: must not compile either. */
export const WRONG_STANDALONE = `
import { createCaller, getIpLocation } from '@dataapi/client';
export const call = getIpLocation(createCaller({ baseUrl: 'http://127.0.0.1:9' }), { query: { ipp: '1.1.1.1' } });
`;

/** Browser code using one operation. */
export const ONE_OPERATION = `
import { createCaller, getAirQuality } from '@dataapi/client';
const caller = createCaller({ baseUrl: 'https://api.example.com' });
const input = document.querySelector('input');
getAirQuality(caller, { query: { location: input ? input.value : '北京' } }).then((r) => console.log(r.data));
`;

/** Browser code using the whole client (and a File upload). */
export const WHOLE_CLIENT = `
import { createClient } from '@dataapi/client';
const api = createClient({ baseUrl: 'https://api.example.com' });
api.getAirQuality({ query: { location: '北京' } }).then((r) => console.log(r.data));
api.uploadKnowledgeBaseDocuments({
  path: { knowledge_base_id: 'kb' },
  body: { files: [new File(['x'], 'a.txt')], tenant_id: 't', replace_existing: 'false' },
});
`;

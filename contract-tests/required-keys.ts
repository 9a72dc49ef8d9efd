/**
 * The credentials a request writes: one security requirement, plus every other transport that a
 * required parameter of the operation names. Credential parameters are left to the key writer
 * (requests.ts carriesCredential), so where the alternatives are one key each but the parameters
 * require them all (Trello: `key` and `token`, either requirement, both required query
 * parameters), a request with one requirement's key lacked the other and was refused.
 */
import { allParameters, carriesKey, type KeyTransport, type Operation } from 'dataapi/model';

export function withRequiredKeys(op: Operation, requirement: KeyTransport[]): KeyTransport[] {
  const declared = allParameters(op.parameters).filter((p) => p.required);
  const more = op.auth.transports.filter(
    (t) => !requirement.includes(t) && declared.some((p) => carriesKey({ transports: [t] }, p)),
  );
  return more.length === 0 ? requirement : [...requirement, ...more];
}

/**
 * The mock's handler of each operation: the scenario's example (or the first one), a seeded
 * schema-derived sample on `dynamic`, the requested business code, paging, path parameters
 * echoed, uploads and asynchronous tasks. Everything is driven by the IR.
 */
import {
  isObject,
  pageListKey,
  type Obj,
  type Paging,
  type Response,
  type ServiceModel,
} from 'dataapi/model';
import { codeGroupOf, validatorFor } from 'dataapi/runtime/shared';
import { HttpError, respond, type Handler, type HandlerInput } from 'dataapi/runtime/server';
import {
  asMedia,
  xmlBodyOf,
  type Canned,
  type Catalogue,
  type OperationMock,
} from './catalogue.ts';
import { sample } from 'dataapi/runtime/sampler';
import type { Scenario } from './scenarios.ts';
import {
  findOperation,
  pollingPath,
  statusSequence,
  TaskStore,
  withTask,
  withUploads,
} from './state.ts';

export const SCENARIO = Symbol('dataapi.mock.scenario');

export function scenarioOf(input: HandlerInput): Scenario | undefined {
  return (input.request as unknown as { [SCENARIO]?: Scenario })[SCENARIO];
}

/** The page size the request asked for, where the model says the operation takes it. */
function pageSize(paging: Paging, input: HandlerInput): number | undefined {
  const source = paging.in === 'query' ? input.query : input.body;
  const v = isObject(source) ? source[paging.name] : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/**
 * `Prefer: code=N` naming a declared response other than the success one (201, 204, a 3xx):
 * that response as declared, Prism's way: its example (by `example=NAME`, else the first), else a
 * sample of its schema, else no body.
 */
function answerDeclared(
  model: ServiceModel,
  mock: OperationMock,
  input: HandlerInput,
  scenario: Scenario,
): unknown {
  const response = scenario.response!;
  const { reply } = input;
  reply.code(scenario.code!);
  if (response.mediaType === undefined || response.kind === 'empty') return reply.send();
  const named =
    scenario.example === undefined
      ? response.examples[0]
      : response.examples.find((e) => e.name === scenario.example);
  if (scenario.example !== undefined && !named) {
    const known = response.examples.map((e) => e.name).join(', ') || 'none';
    throw new HttpError(
      400,
      `Unknown example ${JSON.stringify(scenario.example)} for the ${response.status} response of ${mock.op.id}; known: ${known}`,
      { outcome: 'invalid_parameters' },
    );
  }
  const value = named
    ? named.value
    : response.schema === undefined
      ? null
      : sample(model, response.schema, { seed: mock.seed });
  reply.type(response.mediaType);
  const xml = xmlBodyOf(model, response);
  if (xml) return reply.send(asMedia('text', value, xml));
  return reply.send(
    response.kind === 'json' || typeof value !== 'string' ? JSON.stringify(value) : value,
  );
}

/**
 * An operation without a 2xx answers its first declared status (`4XX` as 400), if any that a
 * client can receive: not 1xx (never a final answer), not 407 (fetch makes it a network error);
 * one that declares only `default` answers it as a 200.
 */
function onlyAnswer(responses: Response[]): { code: number; response: Response } | undefined {
  for (const response of responses) {
    const m = /^([2-5])(\d\d|XX)$/i.exec(response.status);
    if (response.status === '407') continue;
    if (m) return { code: Number(`${m[1]}${/x/i.test(m[2]!) ? '00' : m[2]}`), response };
  }
  const fallback = responses.find((r) => r.status === 'default');
  return fallback ? { code: 200, response: fallback } : undefined;
}

export function createHandlers(model: ServiceModel, catalogue: Catalogue): Record<string, Handler> {
  const tasks = new TaskStore();
  const handlers: Record<string, Handler> = {};
  for (const op of model.operations) {
    const group = codeGroupOf(model, op);
    const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const paging = op.paging;
    const partner = op.async ? findOperation(model, op.async.partner) : undefined;
    // The catalogue may prepare an operation's answers only when it is first asked for.
    let sequence: Canned[] | undefined;
    const constantPath = !op.async && pathNames.length === 0 && !paging;

    const only = op.success ? undefined : onlyAnswer(op.responses);
    // An adapted answer (trimmed to a page, a path value echoed) only where it still fits its
    // schema: a description's `minItems` or `enum` may not allow it (then the answer stays).
    const fits = (adapted: unknown, original: unknown): unknown => {
      const schema = catalogue.get(op.id)?.sampleSchema;
      if (schema === undefined || op.success?.kind !== 'json') return adapted;
      return validatorFor(model).compile(schema)(adapted) ? adapted : original;
    };

    handlers[op.id] = async (input) => {
      const mock = catalogue.get(op.id) as OperationMock;
      sequence ??= op.async?.role === 'status' ? statusSequence(mock) : [];
      const scenario = scenarioOf(input);
      if (scenario?.response) return answerDeclared(model, mock, input, scenario);
      // No 2xx declared (a test endpoint that always answers 401): the answer it declares.
      if (only) return answerDeclared(model, mock, input, { ...scenario, ...only });
      // A task this mock created moves one state further on every poll.
      if (op.async?.role === 'status' && !scenario?.example) {
        const task = tasks.get(String(input.path[pathNames[0] ?? ''] ?? ''));
        if (task) {
          const state = sequence[Math.min(task.polls, sequence.length - 1)] ?? mock.fallback;
          task.polls += 1;
          return respond(withTask(op, state.payload, task), state.status);
        }
      }
      // The common case: nothing asked for, nothing to adapt: the canned answer as it is.
      if (scenario === undefined && constantPath && input.files === undefined) {
        return mock.fallback.result;
      }
      let canned = mock.fallback;
      if (scenario?.example !== undefined) {
        const found = mock.byName.get(scenario.example);
        if (!found) {
          throw new HttpError(
            400,
            `Unknown example ${JSON.stringify(scenario.example)} for ${op.id}; known: ${mock.names.join(', ') || 'none'}`,
            { outcome: 'invalid_parameters' },
          );
        }
        canned = found;
      }
      let payload = canned.payload;
      let status = canned.status;
      if (scenario?.dynamic && mock.sampleSchema !== undefined) {
        payload = asMedia(
          op.success?.kind,
          sample(model, mock.sampleSchema, {
            dynamic: true,
            seed: (mock.seed ^ (scenario.seed ?? 0)) >>> 0,
          }),
          xmlBodyOf(model, op.success),
        );
        status = {};
      }
      // Paging: never more items than the page size asked for.
      if (paging) {
        const size = pageSize(paging, input);
        const key = pageListKey(payload);
        if (size !== undefined && key === '' && (payload as unknown[]).length > size)
          payload = fits((payload as unknown[]).slice(0, size), payload);
        else if (size !== undefined && key && isObject(payload)) {
          const list = payload[key] as unknown[];
          if (list.length > size)
            payload = fits({ ...payload, [key]: list.slice(0, size) }, payload);
        }
      }
      // Path parameters named like a payload field are echoed (knowledge_base_id).
      if (pathNames.length > 0 && isObject(payload)) {
        let echoed: Obj = payload;
        for (const name of pathNames) {
          if (typeof echoed[name] === 'string') echoed = { ...echoed, [name]: input.path[name] };
        }
        payload = fits(echoed, payload);
      }
      if (input.files && input.files.length > 0) {
        payload = withUploads(payload, input.files);
        status = { ...status, totalCount: input.files.length };
      }
      if (op.async?.role === 'submit' && partner) {
        const origin = `${input.request.protocol}://${input.request.host}`;
        const task = tasks.create((id) => origin + pollingPath(partner, id));
        payload = withTask(op, payload, task);
      }
      if (scenario?.businessCode !== undefined) {
        const entry = group?.codes.find((c) => c.code === scenario.businessCode);
        if (!group || !entry) {
          throw new HttpError(
            400,
            `Business code ${scenario.businessCode} is not in ${op.id}'s group${group ? ` ${group.name} (${group.codes.map((c) => c.code).join(', ')})` : ' (the operation has none)'}`,
            { outcome: 'invalid_parameters' },
          );
        }
        if (entry.outcome !== 'ok') {
          return respond(mock.failurePayload, {
            code: entry.code,
            description: entry.meaning,
            totalCount: 0,
          });
        }
      }
      return respond(payload, status);
    };
  }
  return handlers;
}

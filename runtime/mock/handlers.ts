/**
 * The mock's handler of each operation: the scenario's example (or the first one), a seeded
 * schema-derived sample on `dynamic`, the requested business code, paging, path parameters
 * echoed, uploads and asynchronous tasks. Everything is driven by the IR.
 */
import {
  concreteMedia,
  isObject,
  pageListKey,
  type BusinessCodeGroup,
  type Obj,
  type Operation,
  type Paging,
  type Response,
  type ServiceModel,
} from 'dataapi/model';
import { codeGroupOf, validatorFor } from 'dataapi/runtime/shared';
import {
  HttpError,
  respond,
  type Handler,
  type HandlerInput,
  type ServiceResult,
} from 'dataapi/runtime/server';
import {
  asMedia,
  xmlBodyOf,
  type Canned,
  type CannedStatus,
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
  reply.type(concreteMedia(response.mediaType));
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

/** What every request of one operation is answered with, decided once. */
interface OperationPlan {
  model: ServiceModel;
  op: Operation;
  catalogue: Catalogue;
  tasks: TaskStore;
  group: BusinessCodeGroup | undefined;
  pathNames: string[];
  partner: Operation | undefined;
  /** The answer of an operation without a 2xx (a test endpoint that always answers 401). */
  only: { code: number; response: Response } | undefined;
  /** Nothing of the request changes the answer unless a scenario asks. */
  constantPath: boolean;
  /** The states a status operation steps through; prepared on first use (see `statusSequence`). */
  sequence?: Canned[];
}

/** An answer being composed: the payload and its envelope status fields. */
interface Draft {
  payload: unknown;
  status: CannedStatus;
}

export function createHandlers(model: ServiceModel, catalogue: Catalogue): Record<string, Handler> {
  const tasks = new TaskStore();
  const handlers: Record<string, Handler> = {};
  for (const op of model.operations)
    handlers[op.id] = handlerOf(planOf(model, catalogue, tasks, op));
  return handlers;
}

function planOf(
  model: ServiceModel,
  catalogue: Catalogue,
  tasks: TaskStore,
  op: Operation,
): OperationPlan {
  const pathNames = op.parameters.path.map((p) => p.name);
  return {
    model,
    op,
    catalogue,
    tasks,
    group: codeGroupOf(model, op),
    pathNames,
    partner: op.async ? findOperation(model, op.async.partner) : undefined,
    only: op.success ? undefined : onlyAnswer(op.responses),
    constantPath: !op.async && pathNames.length === 0 && !op.paging,
  };
}

/**
 * The steps of an answer: a declared response asked for, a task's next state, the canned answer
 * as it is, else one composed from the scenario and the request.
 */
function handlerOf(plan: OperationPlan): Handler {
  return async (input) => {
    // The catalogue may prepare an operation's answers only when it is first asked for.
    const mock = plan.catalogue.get(plan.op.id) as OperationMock;
    plan.sequence ??= plan.op.async?.role === 'status' ? statusSequence(mock) : [];
    const scenario = scenarioOf(input);
    if (scenario?.response) return answerDeclared(plan.model, mock, input, scenario);
    if (plan.only) return answerDeclared(plan.model, mock, input, { ...scenario, ...plan.only });
    const polled = nextTaskState(plan, mock, input, scenario);
    if (polled) return polled;
    // The common case: nothing asked for, nothing to adapt: the canned answer as it is.
    if (scenario === undefined && plan.constantPath && input.files === undefined)
      return mock.fallback.result;
    return composeAnswer(plan, mock, input, scenario);
  };
}

/** A task this mock created moves one state further on every poll. */
function nextTaskState(
  plan: OperationPlan,
  mock: OperationMock,
  input: HandlerInput,
  scenario: Scenario | undefined,
): ServiceResult | undefined {
  if (plan.op.async?.role !== 'status' || scenario?.example) return undefined;
  const task = plan.tasks.get(String(input.path[plan.pathNames[0] ?? ''] ?? ''));
  if (!task) return undefined;
  const sequence = plan.sequence ?? [];
  const state = sequence[Math.min(task.polls, sequence.length - 1)] ?? mock.fallback;
  task.polls += 1;
  return respond(withTask(plan.op, state.payload, task), state.status);
}

function composeAnswer(
  plan: OperationPlan,
  mock: OperationMock,
  input: HandlerInput,
  scenario: Scenario | undefined,
): ServiceResult {
  let draft = startingDraft(plan, mock, scenario);
  draft = pagedDraft(plan, input, draft);
  draft = echoedDraft(plan, input, draft);
  draft = uploadedDraft(input, draft);
  draft = submittedDraft(plan, input, draft);
  return businessCodeAnswer(plan, mock, scenario) ?? respond(draft.payload, draft.status);
}

/** The example the scenario names (else the fallback), or a fresh sample on `dynamic`. */
function startingDraft(
  plan: OperationPlan,
  mock: OperationMock,
  scenario: Scenario | undefined,
): Draft {
  let canned = mock.fallback;
  if (scenario?.example !== undefined) {
    const found = mock.byName.get(scenario.example);
    if (!found) {
      throw new HttpError(
        400,
        `Unknown example ${JSON.stringify(scenario.example)} for ${plan.op.id}; known: ${mock.names.join(', ') || 'none'}`,
        { outcome: 'invalid_parameters' },
      );
    }
    canned = found;
  }
  if (!scenario?.dynamic || mock.sampleSchema === undefined)
    return { payload: canned.payload, status: canned.status };
  const seed = (mock.seed ^ (scenario.seed ?? 0)) >>> 0;
  const drawn = sample(plan.model, mock.sampleSchema, { dynamic: true, seed });
  return {
    payload: asMedia(plan.op.success?.kind, drawn, xmlBodyOf(plan.model, plan.op.success)),
    status: {},
  };
}

/**
 * An adapted answer (trimmed to a page, a path value echoed) only where it still fits its
 * schema: a description's `minItems` or `enum` may not allow it (then the answer stays).
 */
function fits(plan: OperationPlan, adapted: unknown, original: unknown): unknown {
  const schema = plan.catalogue.get(plan.op.id)?.sampleSchema;
  if (schema === undefined || plan.op.success?.kind !== 'json') return adapted;
  return validatorFor(plan.model).compile(schema)(adapted) ? adapted : original;
}

/** Paging: never more items than the page size asked for. */
function pagedDraft(plan: OperationPlan, input: HandlerInput, draft: Draft): Draft {
  const paging = plan.op.paging;
  const size = paging ? pageSize(paging, input) : undefined;
  if (size === undefined) return draft;
  const { payload } = draft;
  const key = pageListKey(payload);
  if (key === '' && (payload as unknown[]).length > size)
    return { ...draft, payload: fits(plan, (payload as unknown[]).slice(0, size), payload) };
  if (key && isObject(payload)) {
    const list = payload[key] as unknown[];
    if (list.length > size)
      return { ...draft, payload: fits(plan, { ...payload, [key]: list.slice(0, size) }, payload) };
  }
  return draft;
}

/** Path parameters named like a payload field are echoed (knowledge_base_id). */
function echoedDraft(plan: OperationPlan, input: HandlerInput, draft: Draft): Draft {
  const { payload } = draft;
  if (plan.pathNames.length === 0 || !isObject(payload)) return draft;
  let echoed: Obj = payload;
  for (const name of plan.pathNames) {
    if (typeof echoed[name] === 'string') echoed = { ...echoed, [name]: input.path[name] };
  }
  return { ...draft, payload: fits(plan, echoed, payload) };
}

/** Uploaded files are listed in the payload and counted. */
function uploadedDraft(input: HandlerInput, draft: Draft): Draft {
  if (!input.files || input.files.length === 0) return draft;
  return {
    payload: withUploads(draft.payload, input.files),
    status: { ...draft.status, totalCount: input.files.length },
  };
}

/** A submit creates a task its status operation answers for. */
function submittedDraft(plan: OperationPlan, input: HandlerInput, draft: Draft): Draft {
  if (plan.op.async?.role !== 'submit' || !plan.partner) return draft;
  const origin = `${input.request.protocol}://${input.request.host}`;
  const partner = plan.partner;
  const task = plan.tasks.create(submitted(input), (id) => origin + pollingPath(partner, id));
  return { ...draft, payload: withTask(plan.op, draft.payload, task) };
}

/** What a submit sent (its task's id is derived from it): the operation and its inputs. */
function submitted(input: HandlerInput): string {
  const files = input.files?.map((f) => [f.filename, f.size]);
  const { op, preview, path, query, body } = input;
  try {
    return JSON.stringify([op.id, preview, path, query, body, files]);
  } catch {
    return JSON.stringify([op.id, preview, path, query, files]); // a body JSON cannot write
  }
}

/** The failure a requested business code stands for (none for the group's ok codes). */
function businessCodeAnswer(
  plan: OperationPlan,
  mock: OperationMock,
  scenario: Scenario | undefined,
): ServiceResult | undefined {
  if (scenario?.businessCode === undefined) return undefined;
  const { group, op } = plan;
  const entry = group?.codes.find((c) => c.code === scenario.businessCode);
  if (!group || !entry) {
    throw new HttpError(
      400,
      `Business code ${scenario.businessCode} is not in ${op.id}'s group${group ? ` ${group.name} (${group.codes.map((c) => c.code).join(', ')})` : ' (the operation has none)'}`,
      { outcome: 'invalid_parameters' },
    );
  }
  if (entry.outcome === 'ok') return undefined;
  return respond(mock.failurePayload, {
    code: entry.code,
    description: entry.meaning,
    totalCount: 0,
  });
}

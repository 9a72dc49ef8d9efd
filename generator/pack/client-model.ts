/**
 * What the packed client carries of the model: each operation without its schemas, examples and
 * prose (the runtime reads methods, paths, parameter styles, key transports, envelopes, codes,
 * limits and async links; types come from openapi-typescript), and the plan the entry template
 * renders: one constant per operation and code group, one slice per group of operations that
 * must share a runtime (an async submit and its status operation).
 */
import type {
  BusinessCodeGroup,
  Operation,
  Parameter,
  ParameterLocation,
  Response,
} from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';

export interface PackedConstant {
  /** Identifier of the constant. */
  constant: string;
  value: unknown;
}

export interface PackedSlice {
  constant: string;
  operations: string[];
  groups: string[];
}

export interface PackedMethod {
  id: string;
  /** The export's name: the id, unless that is taken by the package's own exports. */
  name: string;
  method: string;
  path: string;
  summary?: string;
  preview: boolean;
  slice: string;
  stream: boolean;
}

export interface PackedWait {
  id: string;
  name: string;
  partner: string;
  slice: string;
}

/** Names the entry exports itself (and JavaScript's reserved words): never an operation's. */
const TAKEN = new Set(
  (
    'createClient createCaller DataApiError isDataApiError fileFromPath DEFAULT_FINAL_STATES ' +
    'paths components operations webhooks Client OperationTypes OperationMeta ' +
    'break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof new null return super switch this throw ' +
    'true try typeof var void while with yield let static implements interface package private ' +
    'protected public await arguments eval'
  ).split(' '),
);

function exportName(id: string, used: Set<string>): string {
  let name = id;
  for (let n = 1; TAKEN.has(name) || used.has(name); n++) name = `${id}Operation${n > 1 ? n : ''}`;
  used.add(name);
  return name;
}

export interface PackPlan {
  operations: PackedConstant[];
  groups: PackedConstant[];
  slices: PackedSlice[];
  methods: PackedMethod[];
  waits: PackedWait[];
}

function slimResponse(r: Response): Response {
  const { schema: _s, examples: _e, headers: _h, description: _d, ...rest } = r;
  return { ...rest, description: '', headers: [], examples: [] };
}

function slimParameters<L extends ParameterLocation>(list: Parameter<L>[]): Parameter<L>[] {
  return list.map(({ description: _d, example: _e, ...p }) => ({ ...p, schema: true }));
}

/** The operation as the runtime needs it: schemas become `true`, prose and examples go. */
export function slimOperation(op: Operation): Operation {
  const { summary: _summary, description: _description, payloadSchema: _payload, ...rest } = op;
  return {
    ...rest,
    parameters: {
      path: slimParameters(op.parameters.path),
      query: slimParameters(op.parameters.query),
      header: slimParameters(op.parameters.header),
      cookie: slimParameters(op.parameters.cookie),
    },
    querySchema: true,
    ...(op.body
      ? {
          body: (({ description: _d, ...b }) => ({ ...b, schema: true, examples: [] }))(op.body),
        }
      : {}),
    // The runtime reads the success response's kind; the declared errors live in the types.
    responses: op.success ? [slimResponse(op.success)] : [],
    ...(op.success ? { success: slimResponse(op.success) } : {}),
    pointer: '',
    assumed: [],
    notShown: [],
  };
}

function slimGroup(g: BusinessCodeGroup): BusinessCodeGroup {
  return {
    ...g,
    description: '',
    codes: g.codes.map(({ remark: _r, ...c }) => c),
  };
}

/** Operations linked by async partners end up in one slice (they share limiters). */
function components(model: ServiceModel): Operation[][] {
  const seen = new Set<string>();
  const byId = new Map(model.operations.map((o) => [o.id, o]));
  const out: Operation[][] = [];
  for (const op of model.operations) {
    if (seen.has(op.id)) continue;
    const group: Operation[] = [];
    const queue = [op];
    while (queue.length > 0) {
      const next = queue.shift() as Operation;
      if (seen.has(next.id)) continue;
      seen.add(next.id);
      group.push(next);
      const partner = next.async ? byId.get(next.async.partner) : undefined;
      if (partner && !seen.has(partner.id)) queue.push(partner);
    }
    out.push(group);
  }
  return out;
}

export function planPack(model: ServiceModel): PackPlan {
  const opConst = new Map(model.operations.map((o, i) => [o.id, `op${i}`]));
  const groupConst = new Map(model.businessCodeGroups.map((g, i) => [g.name, `group${i}`]));
  const plan: PackPlan = {
    operations: model.operations.map((o) => ({
      constant: opConst.get(o.id) as string,
      value: slimOperation(o),
    })),
    groups: model.businessCodeGroups.map((g) => ({
      constant: groupConst.get(g.name) as string,
      value: slimGroup(g),
    })),
    slices: [],
    methods: [],
    waits: [],
  };
  const sliceOf = new Map<string, string>();
  components(model).forEach((ops, i) => {
    const slice = `slice${i}`;
    for (const op of ops) sliceOf.set(op.id, slice);
    const groups = [...new Set(ops.map((o) => o.businessCodes).filter((g) => g !== undefined))]
      .map((g) => groupConst.get(g))
      .filter((g) => g !== undefined);
    plan.slices.push({
      constant: slice,
      operations: ops.map((o) => opConst.get(o.id) as string),
      groups,
    });
  });
  const used = new Set<string>();
  for (const op of model.operations) {
    const slice = sliceOf.get(op.id) as string;
    const common = { method: op.method, slice, stream: op.streaming };
    const summary = op.summary ? { summary: op.summary } : {};
    plan.methods.push({
      id: op.id,
      name: exportName(op.id, used),
      path: op.path,
      preview: false,
      ...summary,
      ...common,
    });
    if (op.preview)
      plan.methods.push({
        id: op.preview.id,
        name: exportName(op.preview.id, used),
        path: op.preview.path,
        preview: true,
        ...summary,
        ...common,
      });
  }
  for (const op of model.operations) {
    if (op.async?.role === 'submit')
      plan.waits.push({
        id: op.id,
        name: exportName(`${op.id}AndWait`, used),
        partner: op.async.partner,
        slice: sliceOf.get(op.id) as string,
      });
  }
  return plan;
}

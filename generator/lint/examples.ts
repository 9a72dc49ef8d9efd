/**
 * Example rules: every request body and success response has an example, and every example
 * (bodies, success responses, parameters) validates against its schema, judged as the mock and
 * the contract tests judge it (model/example-verdict.ts), so the mock never serves an invalid body.
 */
import type { JsonSchema, NamedExample, Operation } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { escapeToken } from '../../model/pointer.ts';
import { allParameters } from '../../model/queries.ts';
import { followRefs, getAt } from '../../model/refs.ts';
import { exampleFault, invalidExample } from '../../model/example-verdict.ts';
import type { Add } from './types.ts';

/** Pointer of one named example (the `value` inside `examples.<name>`, or `example`). */
function examplePointer(doc: Obj, mediaPointer: string, name: string): string {
  const media = getAt(doc, mediaPointer);
  if (isObject(media) && isObject(media['examples']) && name in media['examples']) {
    return `${followRefs(doc, `${mediaPointer}/examples/${escapeToken(name)}`)}/value`;
  }
  return `${mediaPointer}/example`;
}

export class ExampleRules {
  constructor(
    private readonly doc: Obj,
    private readonly model: ServiceModel,
    private readonly add: Add,
  ) {}

  check(op: Operation, operation: string): void {
    if (op.body) {
      const bodyPointer = followRefs(this.doc, `${op.pointer}/requestBody`);
      const media = `${bodyPointer}/content/${escapeToken(op.body.mediaType)}`;
      this.examples(op.body.examples, op.body.schema, media, 'request body', operation);
    }
    const ok = op.success;
    if (ok && ok.mediaType !== undefined && ok.schema !== undefined && ok.kind === 'json') {
      const responsePointer = followRefs(this.doc, `${op.pointer}/responses/${ok.status}`);
      const media = `${responsePointer}/content/${escapeToken(ok.mediaType)}`;
      this.examples(ok.examples, ok.schema, media, `${ok.status} response`, operation);
    }
    for (const p of allParameters(op.parameters)) {
      if (p.example === undefined) continue;
      this.validate(
        p.example,
        p.schema,
        this.parameterPointer(op, p.name, p.in),
        `parameter ${p.name}`,
        operation,
      );
    }
  }

  private examples(
    list: NamedExample[],
    schema: JsonSchema,
    mediaPointer: string,
    what: string,
    operation: string,
  ): void {
    if (list.length === 0) {
      this.add({
        code: 'example-missing',
        pointer: mediaPointer,
        operation,
        message: `the ${what} has no example: add examples.default.value (the mock and the contract tests are built from it)`,
      });
      return;
    }
    for (const ex of list) {
      this.validate(
        ex.value,
        schema,
        examplePointer(this.doc, mediaPointer, ex.name),
        `${what} example ${JSON.stringify(ex.name)}`,
        operation,
      );
    }
  }

  private validate(
    value: unknown,
    schema: JsonSchema,
    pointer: string,
    subject: string,
    operation: string,
  ): void {
    const fault = exampleFault(this.model, schema, value);
    if (fault)
      this.add(invalidExample({ operation, pointer, subject, fault, value, wording: 'lint' }));
  }

  /** Where a parameter's example lives: the operation's own list first, then the path item's. */
  private parameterPointer(op: Operation, name: string, where: string): string {
    const pathPointer = op.pointer.slice(0, op.pointer.lastIndexOf('/'));
    for (const base of [op.pointer, pathPointer]) {
      const list = getAt(this.doc, `${base}/parameters`);
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const at = followRefs(this.doc, `${base}/parameters/${i}`);
        const p = getAt(this.doc, at);
        if (isObject(p) && p['name'] === name && p['in'] === where) {
          if (p['example'] !== undefined) return `${at}/example`;
          const exs = p['examples'];
          const first = isObject(exs) ? Object.keys(exs)[0] : undefined;
          return first !== undefined
            ? `${followRefs(this.doc, `${at}/examples/${escapeToken(first)}`)}/value`
            : at;
        }
      }
    }
    return op.pointer;
  }
}
